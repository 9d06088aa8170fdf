"""Shared fixtures: the HIP-on-NVIDIA folder and HIP programs built once per test run.

Executables go to the shared test cache under a hash of their source and the adapter's
folder, behind a file lock, so the xdist workers of one run build each program once."""
from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED_CACHE

PROGRAMS = Path(__file__).with_name("programs")


def _nvcc() -> str | None:
    """nvcc as cass-cc finds it (CASS_NVCC, CUDA_PATH, /usr/local/cuda, PyPI's wheels, PATH)."""
    from cass_cc.toolchain import Toolchain, ToolchainError

    try:
        return Toolchain(os.environ).nvcc.path
    except ToolchainError:
        return None


NVCC = _nvcc()
needs_nvcc = pytest.mark.skipif(NVCC is None, reason="needs nvcc (pip install nvidia-cuda-nvcc)")


def gpu_here() -> bool:
    return os.path.exists("/dev/nvidia0")


needs_gpu = pytest.mark.skipif(not gpu_here(), reason="needs an NVIDIA GPU")


@pytest.fixture(scope="session")
def hipnv_folder() -> Path:
    from cass_cc import hipnv

    return hipnv.build(SHARED_CACHE)


def build_hip(source: Path, folder: Path, extra: tuple[str, ...] = ()) -> tuple[Path | None, str]:
    """(executable or None, log): `cass-cc hipcc` on one HIP file, once per content."""
    from cass_cc.util import sha256_hex

    key = sha256_hex(source.read_bytes(), str(folder), *extra)[:16]
    out_dir = SHARED_CACHE / "verify-tests" / key
    out_dir.mkdir(parents=True, exist_ok=True)
    exe, log = out_dir / source.stem, out_dir / "build.log"
    with open(out_dir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not exe.exists() and not (out_dir / "failed").exists():
            env = {**os.environ, "CASS_CACHE_DIR": str(SHARED_CACHE), "CASS_HIPNV_FOLDER": str(folder),
                   "CASS_HIPNV_ARCH": "sm_80"}
            proc = subprocess.run([sys.executable, "-m", "cass_cc.hipnv", "-O2", "--offload-arch=gfx1100",
                                   *extra, str(source), "-o", str(exe)], capture_output=True, text=True, env=env)
            log.write_text(proc.stdout + proc.stderr)
            if proc.returncode != 0:
                (out_dir / "failed").write_text("")
    return (exe if exe.exists() else None), log.read_text() if log.exists() else ""
