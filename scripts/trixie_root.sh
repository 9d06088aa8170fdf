#!/usr/bin/env bash
# The second test platform (issue 23): a Debian 13 (trixie) root with ROCm 5.7 and the HIP
# counterparts of the CUDA libraries, made once with debootstrap and kept (cached) between runs on
# one machine; cass-cc is installed into it from a copy of this checkout's tracked files (/cass),
# refreshed on every run (the root's Python 3.13 must not write into the checkout).
#
#   scripts/trixie_root.sh make                  make (or complete) the root: ~3 minutes, ~7 GB
#   scripts/trixie_root.sh run CMD...            run CMD in the root, in the checkout (/cass), as root
#   scripts/trixie_root.sh test [PYTEST ARGS]    make, install cass-cc there (with the emulator), run pytest there
#
# CASS_TRIXIE_ROOT names the folder (default: /var/cache/cass-cc/trixie). Needs root (chroot, mount)
# and network access to Debian's mirror and PyPI. Facts: ../shared/TOOLCHAIN.md ("A second ROCm").
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKOUT=$PWD
ROOT=${CASS_TRIXIE_ROOT:-/var/cache/cass-cc/trixie}
MIRROR=${CASS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
PACKAGES=(
  hipcc libamdhip64-dev llvm-17-dev             # HIP 5.7 (clang 17), its device libraries; LLVM 17's headers (the LLVM fixes plugin)
  libomp-17-dev                                 # LLVM's OpenMP runtime: -Xcompiler -fopenmp in .cu files compiled by clang
  librocprim-dev libhipcub-dev librocthrust-dev # CUB and thrust
  libhipblas-dev libhipfft-dev libhipsparse-dev libhiprand-dev librocrand-dev libhipsolver-dev
  python3 python3-venv python3-pip g++ make cmake ca-certificates git
)
STAMP=$ROOT/.cass-packages

make_root() {
  if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
    command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
    mkdir -p "$ROOT"
    echo "trixie_root: debootstrap trixie into $ROOT" >&2
    debootstrap --variant=minbase trixie "$ROOT" "$MIRROR" >/dev/null
  fi
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
  if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "${PACKAGES[*]}" ]; then
    echo "trixie_root: apt-get install ${PACKAGES[*]}" >&2
    chroot "$ROOT" apt-get update -qq
    chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null
    # pip in the root trusts the system store; the root's own does not reach the registry from here
    cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"
    echo "${PACKAGES[*]}" > "$STAMP"
  fi
}

# run CMD in the root, in /cass: the checkout's tracked files as they are now (proc and dev
# mounted for the run, unmounted afterwards whatever CMD does)
in_root() {
  mkdir -p "$ROOT/cass" "$ROOT/proc" "$ROOT/dev"
  (cd "$CHECKOUT" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$ROOT/cass"
  mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
  mountpoint -q "$ROOT/dev" || mount --bind /dev "$ROOT/dev"
  trap 'umount "$ROOT/proc" "$ROOT/dev" 2>/dev/null || true' EXIT
  chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/opt/venv/bin:/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \
    bash -c 'cd /cass && "$@"' bash "$@"
}

case ${1:-} in
  make) make_root ;;
  run) shift; in_root "$@" ;;
  test)
    shift
    make_root
    in_root bash -c '[ -x /opt/venv/bin/python ] || python3 -m venv /opt/venv
      /opt/venv/bin/pip install -q --disable-pip-version-check --config-settings editable_mode=compat -e ".[emu]" pytest pytest-xdist
      exec /opt/venv/bin/python -m pytest -q -p no:benchmark -p no:cacheprovider "$@"' bash "$@" ;;
  *) echo "usage: scripts/trixie_root.sh make | run CMD... | test [PYTEST ARGS]" >&2; exit 2 ;;
esac
