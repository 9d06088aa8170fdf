"""A small CUDA tree to port: a kernel file, a CUDA header, a host file calling the runtime,
an nvcc Makefile, a CMake file and a data file."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cass_cc.commands import cli

TREE = {
    "kernels.cuh": """#pragma once
#include <cuda_runtime.h>
__device__ inline float twice(float x) { return 2.0f * x; }
void launch_scale(float* d, int n, cudaStream_t stream);
""",
    "scale.cu": """// scale: one kernel and its launcher
#include "kernels.cuh"
__global__ void scale(float* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = twice(d[i]);
}
void launch_scale(float* d, int n, cudaStream_t stream) {
  scale<<<(n + 255) / 256, 256, 0, stream>>>(d, n);
}
""",
    "main.cpp": """#include <cstdio>
#include <cuda_runtime.h>
#include "kernels.cuh"
int main() {
  float host[16];
  for (int i = 0; i < 16; ++i) host[i] = float(i);
  float* d = nullptr;
  if (cudaMalloc(&d, sizeof host) != cudaSuccess) { std::puts("no device"); return 0; }
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  launch_scale(d, 16, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  cudaStreamDestroy(stream);
  cudaFree(d);
  std::printf("%g\\n", host[3]);
  return 0;
}
""",
    "util/plain.c": "int add(int a, int b) { return a + b; }\n",
    "Makefile": """# an nvcc Makefile
CC      = nvcc
CFLAGS  = -O2 -arch=sm_80 -Xcompiler -Wall
OBJS    = main.o scale.o

app: $(OBJS)
\t$(CC) $(CFLAGS) $(OBJS) -o $@ -lcudart

%.o: %.cu kernels.cuh
\t$(CC) $(CFLAGS) -c $< -o $@

main.o: main.cpp kernels.cuh
\t$(CC) $(CFLAGS) -c $< -o $@

clean:
\trm -f app $(OBJS)
""",
    "CMakeLists.txt": """cmake_minimum_required(VERSION 3.21)
project(app LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
set(CMAKE_CUDA_ARCHITECTURES 80)
add_executable(app main.cpp scale.cu)
target_link_libraries(app PRIVATE CUDA::cudart)
""",
    "data/input.txt": "1 2 3\n",
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "src"
    for rel, text in TREE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture
def port_env(tmp_path: Path) -> dict[str, str]:
    """No user config, no translation cache (a test that wants one sets CASS_CACHE_DIR)."""
    return {"CASS_CONFIG": str(tmp_path / "no-config.toml"), "CASS_NO_CACHE": "1", "CASS_OFFLOAD_ARCH": "gfx1100"}


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def run_port(port_env: dict[str, str]):  # type: ignore[no-untyped-def]
    def run(*args: str, env: dict[str, str] | None = None) -> Result:
        return CliRunner().invoke(cli, ["port", *args], env={**port_env, **(env or {})}, catch_exceptions=False)

    return run
