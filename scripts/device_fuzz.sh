#!/bin/bash
# One round of cass-data's differential fuzzer on the device machine (an NVIDIA GPU host with 16
# cores), in steps that each fit one device call; the machine keeps /tmp between calls while warm.
# The bundles come from scripts/device_bundles.sh and travel as carried paths.
#
#   scripts/device_fuzz.sh truth SEED       10,000 kernels built and run on the GPU (/tmp/fz/SEED);
#                                           carry .fuzz/llvm16.tar.xz .fuzz/llvm16x.tgz .fuzz/llvm16y.tgz
#                                           .fuzz/tg.tgz .fuzz/pydeps.tgz (unpacked for the next steps)
#   scripts/device_fuzz.sh lifter SEED      every kernel through the lifter path
#   scripts/device_fuzz.sh rules SEED       every kernel through the rules path; carry .fuzz/r15.tar.xz
#                                           .fuzz/r15fix.tgz (alone: the carry limit is 64 MiB)
#   scripts/device_fuzz.sh second SEED      the batches where a path differed built again with nvcc's
#                                           optimisers off, and those batches checked again on both paths
#
# Reports land in $OUT (SEED-lifter.jsonl, SEED-rules.jsonl, SEED-second-*.jsonl, SEED-second.tar.gz).
set -euo pipefail
step=$1 seed=$2
T=/tmp/fz
unpack() { for f in "$@"; do case $f in *.tar.xz) tar xJf "$f" -C /tmp ;; *) tar xzf "$f" -C /tmp ;; esac; done; }
lifter_env() {
  export CASS_OPT=/tmp/llvm16/bin/opt CASS_LLC=/tmp/llvm16/bin/llc CASS_LLVM_MC=/tmp/llvm16/bin/llvm-mc
  export CASS_LD_LLD=/tmp/llvm16/bin/ld.lld CASS_CACHE_DIR=/tmp/cache PYTHONPATH=/tmp/py:$PWD PATH=/tmp/llvm16/bin:$PATH
}
rules_env() {
  export PATH=/tmp/r15/bin:$PATH CASS_CLANG=/tmp/r15/bin/clang-15 ROCM_PATH=/tmp/r15/rocm
  export CASS_CACHE_DIR=/tmp/r15/cache PYTHONPATH=/tmp/py:$PWD
}
check() {  # $1 path, $2 truth folder, $3 report
  python3 -m cass_data.cli fuzz check "$2" -w "$T/work-$1-$(basename "$2")" -j 16 --paths "$1" --report "$3" 2>&1 | tail -12
}
case $step in
  truth)
    mkdir -p /tmp/py && unpack .fuzz/llvm16.tar.xz .fuzz/llvm16x.tgz .fuzz/llvm16y.tgz .fuzz/tg.tgz
    tar xzf .fuzz/pydeps.tgz -C /tmp/py
    python3 -m cass_data.fuzz.truth --seed "$seed" --batches 0:500 -o "$T/$seed" -j 16 2>&1 | tail -3 ;;
  lifter)
    lifter_env && check lifter "$T/$seed" "$T/$seed-lifter.jsonl" && cp "$T/$seed-lifter.jsonl" "$OUT/" ;;
  rules)
    unpack .fuzz/r15.tar.xz .fuzz/r15fix.tgz
    rules_env && check rules "$T/$seed" "$T/$seed-rules.jsonl" && cp "$T/$seed-rules.jsonl" "$OUT/" ;;
  second)
    batches=$(cat "$T/$seed"-*.jsonl | python3 -c "
import json, sys
print(','.join(sorted({str(r['index'] // 20) for r in map(json.loads, sys.stdin) if r['outcome'] not in ('same', 'refused', 'gap', 'skipped')}, key=int)))")
    echo "batches that differ: ${batches:-none}"
    [ -n "$batches" ] || exit 0
    python3 -m cass_data.fuzz.truth --seed "$seed" --batches "$batches" --second-opinion -o "$T/$seed-second" -j 16 \
      --pack "$OUT/$seed-second.tar.gz" 2>&1 | tail -2
    # the first run's truth (and cubin) beside the second opinion, as `fuzz check` reads them
    for b in "$T/$seed-second"/*/; do cp "$T/$seed/$(basename "$b")"/{truth.bin,status.txt,fz.cubin} "$b"; done
    (lifter_env && check lifter "$T/$seed-second" "$OUT/$seed-second-lifter.jsonl")
    (rules_env && check rules "$T/$seed-second" "$OUT/$seed-second-rules.jsonl") ;;
  *) echo "device_fuzz.sh: unknown step '$step' (truth, lifter, rules, second)" >&2; exit 2 ;;
esac
