"""Translate realistic CUDA programs and compile them for gfx1100 with clang-15 (HIP 5.2)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cass_cc.toolchain import Toolchain, ToolchainError
from cass_cc.translate import RulesTranslator, Target
from tests.conftest import SHARED_CACHE

E2E = Path(__file__).with_name("e2e")


def _toolchain() -> Toolchain | None:
    tc = Toolchain(os.environ, cache_dir=SHARED_CACHE)
    try:
        tc.clang, tc.rocm
    except ToolchainError:
        return None
    return tc


TC = _toolchain()
pytestmark = [pytest.mark.e2e, pytest.mark.skipif(TC is None, reason="needs clang and ROCm")]


@pytest.fixture(scope="module")
def device_libs() -> Path:
    """The toolchain layer's device libraries for gfx1100 (ROCm 5.2 gets the gfx11 fix)."""
    assert TC is not None
    return TC.device_lib_dir(["gfx1100"])


def compile_hip(source: Path, tmp: Path, libs: Path, full: bool) -> subprocess.CompletedProcess[str]:
    result = RulesTranslator().translate(source.read_text(), str(source), Target((5, 2), 32))
    assert result.unsupported == (), result.unsupported
    hip = tmp / (source.stem + ".hip")
    hip.write_text(result.text)
    mode = ["-c", "-o", str(tmp / (source.stem + ".o"))] if full else ["-fsyntax-only"]
    assert TC is not None
    cmd = [TC.clang.path, "-x", "hip", "--offload-arch=gfx1100", f"--rocm-path={TC.rocm.root}",
           f"--rocm-device-lib-path={libs}", "-Werror=implicit-function-declaration", *mode, str(hip)]
    return subprocess.run(cmd, capture_output=True, text=True)


@pytest.mark.parametrize("name", ["reduction", "templated", "events_constant"])
def test_translated_program_compiles(name: str, tmp_path: Path, device_libs: Path) -> None:
    proc = compile_hip(E2E / f"{name}.cu", tmp_path, device_libs, full=False)
    assert proc.returncode == 0, proc.stderr


def test_full_compile_to_object(tmp_path: Path, device_libs: Path) -> None:
    proc = compile_hip(E2E / "vector_add.cu", tmp_path, device_libs, full=True)
    assert proc.returncode == 0, proc.stderr
    obj = (tmp_path / "vector_add.o").read_bytes()
    assert obj[:4] == b"\x7fELF"
    assert b"hipv4-amdgcn-amd-amdhsa--gfx1100" in obj


def test_errors_name_the_cuda_file_and_line(tmp_path: Path, device_libs: Path) -> None:
    source = tmp_path / "broken.cu"
    source.write_text("#include <cuda_runtime.h>\n\n__global__ void k(int* p) {\n  p[0] = undefined_name;\n}\n")
    proc = compile_hip(source, tmp_path, device_libs, full=False)
    assert proc.returncode != 0
    assert f"{source}:4:" in proc.stderr


@pytest.mark.parametrize("name", ["rewrites", "vector_operators", "cuda12_api", "cg_reduce", "half_macros"])
def test_rewrites_compile_for_gfx1100(name: str, tmp_path: Path, device_libs: Path) -> None:
    """The golden files for rewrites a rename cannot do (helpers, HIP_SYMBOL, launch bounds,
    a redefined atomicMax, helper_math operators) must compile, not just look right."""
    golden = Path(__file__).with_name("golden") / f"{name}.cu"
    proc = compile_hip(golden, tmp_path, device_libs, full=True)
    assert proc.returncode == 0, proc.stderr
