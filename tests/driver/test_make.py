"""Makefiles as they are: `make NVCC=cass-cc -j4`, with nvcc's -MD -MP dependency files
driving correct incremental rebuilds."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cass_cc.toolchain.bundle import code_objects, kernel_names
from tests.conftest import CASS_CC, needs_clang

MAKEFILE = """\
NVCC ?= nvcc
FLAGS = -O2 -arch=sm_86 -MD -MP
OBJS = scale.o shift.o main.o

app: $(OBJS)
\t$(NVCC) -arch=sm_86 $(OBJS) -o $@

%.o: %.cu
\t$(NVCC) $(FLAGS) -c $< -o $@

-include $(OBJS:.o=.d)
"""
PARAMS_H = "#pragma once\n#define SCALE_KERNEL {name}\n#define FACTOR {factor}.0f\n"
SCALE_CU = """\
#include "params.h"
__global__ void SCALE_KERNEL(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= FACTOR; }
void scale(float* x, int n) { SCALE_KERNEL<<<(n + 255) / 256, 256>>>(x, n); }
"""
SHIFT_CU = """\
__global__ void shift_kernel(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.0f; }
void shift(float* x, int n) { shift_kernel<<<(n + 255) / 256, 256>>>(x, n); }
"""
MAIN_CU = """\
#include <cuda_runtime.h>
void scale(float* x, int n);
void shift(float* x, int n);
int main() { float* x; if (cudaMalloc(&x, 1024) != cudaSuccess) return 0; scale(x, 256); shift(x, 256); return cudaDeviceSynchronize() != cudaSuccess; }
"""


def make(folder: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", *args], cwd=folder, env=env, capture_output=True, text=True)


@pytest.mark.e2e
@needs_clang
def test_make_nvcc_variable_with_dependency_files_rebuilds_what_changed(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    (tmp_path / "params.h").write_text(PARAMS_H.format(name="scale_v1", factor=2))
    (tmp_path / "scale.cu").write_text(SCALE_CU)
    (tmp_path / "shift.cu").write_text(SHIFT_CU)
    (tmp_path / "main.cu").write_text(MAIN_CU)

    proc = make(tmp_path, cass_env, "-j4", f"NVCC={CASS_CC}")
    assert proc.returncode == 0, proc.stderr
    assert {name for e in code_objects(str(tmp_path / "app")) for name in kernel_names(e.data)} == {
        "_Z8scale_v1Pfi", "_Z12shift_kernelPfi"}
    deps = (tmp_path / "scale.d").read_text()
    assert "scale.o:" in deps and "scale.cu" in deps and "params.h" in deps and ".hip" not in deps
    assert "params.h:" in deps  # -MP: a phony target, so deleting the header does not break make
    assert make(tmp_path, cass_env, "-q", f"NVCC={CASS_CC}").returncode == 0  # up to date

    before = {o: os.stat(tmp_path / o).st_mtime_ns for o in ("scale.o", "shift.o", "main.o")}
    (tmp_path / "params.h").write_text(PARAMS_H.format(name="scale_v2", factor=3))
    assert make(tmp_path, cass_env, "-q", f"NVCC={CASS_CC}").returncode == 1  # out of date
    proc = make(tmp_path, cass_env, "-j4", f"NVCC={CASS_CC}")
    assert proc.returncode == 0, proc.stderr
    after = {o: os.stat(tmp_path / o).st_mtime_ns for o in before}
    assert after["scale.o"] != before["scale.o"]
    assert after["shift.o"] == before["shift.o"] and after["main.o"] == before["main.o"]
    assert kernel_names(code_objects(str(tmp_path / "scale.o"))[0].data) == ["_Z8scale_v2Pfi"]
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))  # atomic outputs leave nothing


@pytest.mark.e2e
@needs_clang
def test_failed_compile_in_parallel_make_leaves_no_object(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    (tmp_path / "params.h").write_text(PARAMS_H.format(name="scale_v1", factor=2))
    (tmp_path / "scale.cu").write_text(SCALE_CU.replace("x[i] *= FACTOR;", "x[i] *= FACTOR + undefined_name;"))
    (tmp_path / "shift.cu").write_text(SHIFT_CU)
    (tmp_path / "main.cu").write_text(MAIN_CU)
    proc = make(tmp_path, cass_env, "-j4", "-k", f"NVCC={CASS_CC}")
    assert proc.returncode != 0
    assert "scale.cu:2:" in proc.stderr and "undefined_name" in proc.stderr
    assert not (tmp_path / "scale.o").exists() and not (tmp_path / "app").exists()
    assert (tmp_path / "shift.o").is_file()  # -k: the others were built
    assert not list(tmp_path.glob(".*.tmp"))
