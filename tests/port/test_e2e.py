"""The ported tree builds WITHOUT cass-cc: `make` with Debian's hipcc (ROCm 5.2).

hipcc needs the gfx11 device libraries ROCm 5.2 lacks; the toolchain layer makes them
(Toolchain.device_lib_dir) and hipcc's own DEVICE_LIB_PATH variable points it there
(hipcc.pl turns it into --hip-device-lib-path).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.toolchain import Toolchain, ToolchainError
from cass_cc.toolchain.bundle import device_targets
from tests.conftest import SHARED_CACHE


def _device_libs() -> Path | None:
    try:
        return Toolchain(os.environ, cache_dir=SHARED_CACHE).device_lib_dir(["gfx1100"])
    except ToolchainError:
        return None


pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not (shutil.which("hipcc") and shutil.which("make")), reason="needs hipcc and make"),
]


def test_ported_tree_builds_with_hipcc(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    device_libs = _device_libs()
    if device_libs is None:
        pytest.skip("no ROCm device libraries for gfx1100")
    out = tmp_path / "out"
    result = run_port(str(tree), "-o", str(out))  # HIP version from the installed ROCm
    assert result.exit_code == 0, result.output
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    env.update(HIP_PLATFORM="amd", DEVICE_LIB_PATH=str(device_libs))
    proc = subprocess.run(["make", "app"], cwd=out, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "cass-cc" not in proc.stdout and "hipcc" in proc.stdout
    assert device_targets(str(out / "app")) == ["gfx1100"]
