"""`cass-cc --emit-rdna3` through bin/cass-cc, as a user runs it."""
from __future__ import annotations

import subprocess
from pathlib import Path

from cass_cc.toolchain import Toolchain
from tests.conftest import run_cass

SRC = """
__global__ void scale(float* x, float a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= a; }
__global__ void sum(const int* in, int* out) { __shared__ int s[64]; s[threadIdx.x] = in[threadIdx.x]; __syncthreads();
  if (threadIdx.x == 0) { int t = 0; for (int i = 0; i < 64; i++) t += s[i]; *out = t; } }
"""


def test_emit_rdna3_and_hsaco(sass_build, tmp_path: Path, cass_env: dict[str, str]) -> None:
    import os

    cu = tmp_path / "k.cu"
    cu.write_text(SRC)
    nvcc = Toolchain(os.environ).nvcc.path
    subprocess.run([nvcc, "-c", "-arch=sm_86", "-o", str(tmp_path / "k.o"), str(cu)], check=True)
    proc = run_cass(["--emit-rdna3", "k.o", "-o", "k.s"], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stderr
    assert "scale(float*, float, int): lifter" in proc.stderr and "sum(int const*, int*): lifter" in proc.stderr
    asm = (tmp_path / "k.s").read_text()
    assert ".amdhsa_kernel _Z5scalePffi" in asm and ".amdhsa_group_segment_fixed_size 256" in asm
    proc = run_cass(["--emit-rdna3", "k.o", "--emit-hsaco"], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "k.hsaco").read_bytes()[:4] == b"\x7fELF"


def test_unsupported_kernels_are_named(tmp_path: Path, cass_env: dict[str, str]) -> None:
    import os

    cu = tmp_path / "t.cu"
    cu.write_text(
        "__global__ void fine(float* x) { x[threadIdx.x] = 1.0f; }\n"
        '__global__ void trapper(int* x) { if (x[threadIdx.x] < 0) asm volatile("trap;"); x[threadIdx.x] = 2; }\n'
    )
    nvcc = Toolchain(os.environ).nvcc.path
    subprocess.run([nvcc, "-cubin", "-arch=sm_80", "-o", str(tmp_path / "t.cubin"), str(cu)], check=True)
    proc = run_cass(["--emit-rdna3", "t.cubin", "-o", "all.s"], tmp_path, cass_env)
    assert proc.returncode == 1
    assert "fine(float*): lifter" in proc.stderr
    assert "trapper(int*): no path served it: unsupported SASS: BPT.TRAP" in proc.stderr and "nothing written" in proc.stderr
    assert not (tmp_path / "all.s").exists()


def test_bad_input(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "x.cubin").write_bytes(b"\x7fELF\x02\x01\x01" + bytes(20))
    proc = run_cass(["--emit-rdna3", "x.cubin"], tmp_path, cass_env)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1 and "x.cubin" in proc.stderr
    proc = run_cass(["--emit-rdna3"], tmp_path, cass_env)
    assert proc.returncode == 2 and "usage" in proc.stderr
