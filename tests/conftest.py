"""Shared fixtures: a translation/device-library cache shared by the whole test run,
and a helper that runs bin/cass-cc as a build would."""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CASS_CC = ROOT / "bin" / "cass-cc"
EXAMPLES = ROOT / "examples"

# One folder for all workers of a run: the gfx11 device-library fix is built once and
# shared (its creation is safe under concurrency, as it must be for `make -j`).
SHARED_CACHE = Path(os.environ.get("CASS_TEST_CACHE", Path(tempfile.gettempdir()) / f"cass-cc-tests-{os.getuid()}"))


def have(tool: str) -> bool:
    return shutil.which(tool) is not None


def _have_clang() -> bool:
    """A clang cass-cc would look for (its toolchain spec's names: clang-15 on Debian 12, clang-17
    on Debian 13)."""
    from cass_cc.toolchain.specs import SPECS

    return any(have(name) for name in SPECS["clang"].names)


needs_clang = pytest.mark.skipif(not _have_clang(), reason="needs a HIP-capable clang")


@pytest.fixture
def cass_env(tmp_path: Path) -> dict[str, str]:
    """Environment for running cass-cc: the shared cache, no user config, cass-cc on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    env["CASS_CACHE_DIR"] = str(SHARED_CACHE)
    env["CASS_CONFIG"] = str(tmp_path / "no-config.toml")
    env["PATH"] = f"{CASS_CC.parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def run_cass(args: list[str], cwd: Path, env: dict[str, str], check: bool = False) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, str(CASS_CC), *args], cwd=cwd, env=env, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"cass-cc {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc


def tool_env(config: Path) -> dict[str, str]:
    """os.environ without CASS_/NVCC_ settings, the shared cache, and a config file that is not there."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    env["CASS_CACHE_DIR"] = str(SHARED_CACHE)
    env["CASS_CONFIG"] = str(config)
    return env


@contextmanager
def file_lock(folder: Path, name: str) -> Iterator[None]:
    """A lock the xdist workers share (folder/name.lock), so a fixture's work is done once."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{name}.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def built_once(folder: Path, name: str, key: str, build: Callable[[Path], None]) -> Path:
    """folder/key/name, made by build(temporary path) once across workers and runs."""
    out = folder / key / name
    with file_lock(folder, f"{key}-{name}"):
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = out.with_suffix(out.suffix + f".tmp{os.getpid()}")
            build(tmp)
            os.replace(tmp, out)
    return out


def run_checked(argv: list[str]) -> None:
    """Run a build step; its stderr's tail is the error."""
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:3])}... failed:\n{proc.stderr[-3000:]}")
