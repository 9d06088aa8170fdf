"""Build the emulator's test code objects once per session (shared cache, file lock, content key).

kernels.hip -> clang (HIP, gfx1100, device only) -> kernels.co
kernels_mc.s -> llvm-mc-16 -> ld.lld-16 -shared -> kernels_mc.co
"""
from __future__ import annotations

import os
from pathlib import Path

from cass_cc.toolchain import Toolchain
from cass_cc.util import sha256_hex
from tests.conftest import SHARED_CACHE, built_once
from tests.conftest import run_checked as _run

HERE = Path(__file__).resolve().parent
CACHE = SHARED_CACHE / "emu"


def _key(*parts: str | bytes) -> str:
    return sha256_hex(*parts)[:20]


def _cached(name: str, key: str, build) -> Path:  # type: ignore[no-untyped-def]
    return built_once(CACHE, name, key, build)


def hip_code_object() -> Path:
    tc = Toolchain(os.environ)
    src = (HERE / "kernels.hip").read_text()
    clang = tc.clang

    def build(path: Path) -> None:
        devlibs = tc.device_lib_dir(["gfx1100"])
        _run([str(clang.path), "-x", "hip", "--cuda-device-only", "--no-gpu-bundle-output", "--offload-arch=gfx1100",
              "-O2", f"--rocm-path={tc.rocm.root}", f"--rocm-device-lib-path={devlibs}", "-o", str(path),
              str(HERE / "kernels.hip")])
    return _cached("kernels.co", _key(src, clang.version_text), build)


def mc_code_object(name: str = "kernels_mc.s") -> Path:
    tc = Toolchain(os.environ)
    src = (HERE / name).read_text()
    mc, lld = tc.llvm_mc, tc.ld_lld

    def build(path: Path) -> None:
        obj = path.with_suffix(".o")
        _run([str(mc.path), "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "--amdhsa-code-object-version=5",
              "-filetype=obj", "-o", str(obj), str(HERE / name)])
        _run([str(lld.path), "-shared", "-o", str(path), str(obj)])
    return _cached(Path(name).with_suffix(".co").name, _key(src, mc.version_text, lld.version_text), build)


def hip_fp_code_objects() -> tuple[Path, Path]:
    """fp_kernels.hip built twice: as clang builds HIP by default (IEEE, denormals kept) and with
    -fgpu-flush-denormals-to-zero (the descriptor's f32 denormal mode flushes)."""
    tc = Toolchain(os.environ)
    src = (HERE / "fp_kernels.hip").read_text()
    clang = tc.clang
    out = []
    for extra in ([], ["-fgpu-flush-denormals-to-zero"]):
        def build(path: Path, extra=extra) -> None:
            devlibs = tc.device_lib_dir(["gfx1100"])
            _run([str(clang.path), "-x", "hip", "--cuda-device-only", "--no-gpu-bundle-output", "--offload-arch=gfx1100",
                  "-O2", f"--rocm-path={tc.rocm.root}", f"--rocm-device-lib-path={devlibs}", *extra, "-o", str(path),
                  str(HERE / "fp_kernels.hip")])
        name = "fp_ftz.co" if extra else "fp.co"
        out.append(_cached(name, _key(src, clang.version_text, *extra), build))
    return out[0], out[1]
