#!/usr/bin/env bash
# Install what the tests need, then run them (two workers: CI has two cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --test
# What runs on the second platform: the library programs, and the driver, toolchain, build-file
# and port tests (HIP 5.7, clang 17, LLVM 17's device-library layout).
TRIXIE_TESTS=(tests/libs tests/driver tests/toolchain tests/cmake tests/port tests/emu/test_mc.py
              tests/translate/test_bf16.py tests/translate/test_dot_products.py tests/translate/test_served.py)
status=0
python3 -m pytest -n 2 -q -p no:benchmark "$@" || status=$?
# The second platform (issue 23): Debian 13's ROCm 5.7 with the HIP counterparts of the CUDA
# libraries, in a root made (and kept between runs) by scripts/trixie_root.sh. The whole run
# only (no arguments); CASS_TRIXIE=0 leaves it out.
if [ $# -eq 0 ] && [ "${CASS_TRIXIE:-1}" != 0 ]; then
  echo "--- the Debian 13 / ROCm 5.7 platform: ${TRIXIE_TESTS[*]}" >&2
  bash scripts/trixie_root.sh test -n 2 "${TRIXIE_TESTS[@]}" || status=$?
fi
exit $status
