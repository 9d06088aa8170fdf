"""Shared fixtures: a translation/device-library cache shared by the whole test run,
and a helper that runs bin/cass-cc as a build would."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
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


needs_clang = pytest.mark.skipif(not have("clang-15") and not have("clang"), reason="needs a HIP-capable clang")


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
