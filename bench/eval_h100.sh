#!/bin/sh
# On the GPU machine (a copy of this tree): bash bench/eval_h100.sh PHASE   (PHASE: originals | rules | hipify | random-model)
# Results under $OUT/<PHASE>/. hipify-perl is never committed: copy it to ./hipify-perl first (see bench/eval_h100.py).
set -e
cd "$(dirname "$0")/.."
OUT="${OUT:-eval-h100}"
mkdir -p "$OUT"
export CASS_CACHE_DIR="${CASS_CACHE_DIR:-/tmp/cass-eval-h100-cache}"  # the HIP-on-NVIDIA folder, the GPU probe
exec python3 bench/eval_h100.py "$1" --out "$OUT" --arch "${ARCH:-sm_90}" --jobs "${JOBS:-8}"
