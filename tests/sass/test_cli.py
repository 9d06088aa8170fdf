"""`cass-cc --emit-rdna3` through bin/cass-cc, as a user runs it."""
from __future__ import annotations

import subprocess
from pathlib import Path

from cass_cc.toolchain import Toolchain
from tests.conftest import run_cass
from tests.model.conftest import chat_server  # noqa: F401  (the scripted endpoint fixture)

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


TRAPPER_HIP = """#include <hip/hip_runtime.h>
__global__ void trapper(int* x) { if (x[threadIdx.x] < 0) __builtin_trap(); x[threadIdx.x] = 2; }
"""
TWO_KERNELS = ("__global__ void fine(float* x) { x[threadIdx.x] = 1.0f; }\n"
               '__global__ void trapper(int* x) { if (x[threadIdx.x] < 0) asm volatile("trap;"); x[threadIdx.x] = 2; }\n')


def _clang_kernel(tmp_path: Path, name: str) -> str:
    """clang's gfx1100 code for the HIP version of `trapper`, cut as a training pair's RDNA3 side:
    what a perfect CASS assembly model would answer."""
    import os

    from cass_cc.sass.asmtext import rdna3_kernels
    from tests.conftest import run_checked

    tc = Toolchain(os.environ)
    (tmp_path / "trapper.hip").write_text(TRAPPER_HIP)
    run_checked([str(tc.clang.path), "-x", "hip", "--cuda-device-only", "-S", "--offload-arch=gfx1100", "-O2",
                 f"--rocm-path={tc.rocm.root}", f"--rocm-device-lib-path={tc.device_lib_dir(['gfx1100'])}",
                 "-o", str(tmp_path / "trapper.s"), str(tmp_path / "trapper.hip")])
    return rdna3_kernels((tmp_path / "trapper.s").read_text())[name]


def test_kernels_the_lifter_leaves_go_to_the_assembly_model(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    """fine() is lifted, trapper() (BPT.TRAP) is answered by a CASS assembly model behind an
    endpoint; one code object holds both, and the model's kernel runs on the gfx1100 emulator."""
    import os

    import numpy as np

    from cass_cc.emu import launch
    from tests.model.server import Reply, fenced

    answer = _clang_kernel(tmp_path, "_Z7trapperPi")
    server, url = chat_server(lambda n, body: Reply(content=fenced(answer, "hipasm")))
    (tmp_path / "t.cu").write_text(TWO_KERNELS)
    nvcc = Toolchain(os.environ).nvcc.path
    subprocess.run([nvcc, "-cubin", "-arch=sm_80", "-o", str(tmp_path / "t.cubin"), str(tmp_path / "t.cu")], check=True)
    env = {**cass_env, "CASS_CACHE_DIR": str(tmp_path / "cache")}
    proc = run_cass(["--emit-rdna3", "t.cubin", "--emit-hsaco", "-o", "t.hsaco", "--model-endpoint", url], tmp_path, env)
    assert proc.returncode == 0, proc.stderr
    assert "fine(float*): lifter" in proc.stderr and f"trapper(int*): CASS model {url}" in proc.stderr
    prompt = server.requests[0]["messages"][-1]["content"]
    assert prompt.startswith("Convert the following CUDA device assembly code to HIP device assembly:\n```cudaasm\n")
    assert "Function : _Z7trapperPi" in prompt and "BPT.TRAP" in prompt and "_Z4finePf" not in prompt
    x = np.arange(64, dtype=np.int32)
    [out] = launch(tmp_path / "t.hsaco", "_Z7trapperPi", 1, 64, [x])
    assert (out == 2).all()
    [out] = launch(tmp_path / "t.hsaco", "_Z4finePf", 1, 32, [np.zeros(32, np.float32)])
    assert (out == 1.0).all()
    # the .s form holds both kernels and one metadata block listing them; a second run is a cache hit
    proc = run_cass(["--emit-rdna3", "t.cubin", "-o", "t.s", "--cass-model-endpoint=" + url], tmp_path, env)
    assert proc.returncode == 0, proc.stderr and len(server.requests) == 1
    asm = (tmp_path / "t.s").read_text()
    assert asm.count(".amdgpu_metadata") == 1 and ".name:           _Z7trapperPi" in asm and ".amdhsa_kernel _Z4finePf" in asm


def test_model_answers_that_fail_are_named(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    import os

    from tests.model.server import Reply, fenced

    replies = iter([fenced("v_add_nonsense v1, v2\n", "hipasm"),  # llvm-mc rejects it
                    fenced(_clang_kernel(tmp_path, "_Z7trapperPi").replace("_Z7trapperPi", "_Z5otherPi"), "hipasm")])
    chat_server_, url = chat_server(lambda n, body: Reply(content=next(replies)))
    (tmp_path / "t.cu").write_text(TWO_KERNELS)
    nvcc = Toolchain(os.environ).nvcc.path
    subprocess.run([nvcc, "-cubin", "-arch=sm_80", "-o", str(tmp_path / "t.cubin"), str(tmp_path / "t.cu")], check=True)
    env = {**cass_env, "CASS_MODEL_ENDPOINT": url}
    for why in ("gave no answer that llvm-mc assembles", "the model's answer names _Z5otherPi, not _Z7trapperPi"):
        env["CASS_CACHE_DIR"] = str(tmp_path / f"cache-{len(why)}")
        proc = run_cass(["--emit-rdna3", "t.cubin", "-o", "t.s"], tmp_path, env)
        assert proc.returncode == 1
        assert "trapper(int*): no path served it: unsupported SASS: BPT.TRAP" in proc.stderr and why in proc.stderr, proc.stderr
        assert not (tmp_path / "t.s").exists()


def test_a_cubin_without_kernels_is_an_error(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """Issue 21: a cubin whose symbol table and code no longer match wrote a `.s` with "0 kernels"
    and exited 0. The kernel's symbol is renamed here (its `.text.<name>` section keeps the old
    name), so no kernel is found: an error naming the file, nothing written."""
    import os

    cu = tmp_path / "z.cu"
    cu.write_text("__global__ void zork(int* x) { x[threadIdx.x] = 1; }\n")
    nvcc = Toolchain(os.environ).nvcc.path
    subprocess.run([nvcc, "-cubin", "-arch=sm_80", "-o", str(tmp_path / "z.cubin"), str(cu)], check=True)
    data = bytearray((tmp_path / "z.cubin").read_bytes())
    name = b"\0_Z4zorkPi\0"  # the symbol's own string (section names have a prefix before it)
    at = data.find(name)
    assert at >= 0
    data[at:at + len(name)] = b"\0_Z4zorqPi\0"
    (tmp_path / "z.cubin").write_bytes(bytes(data))
    proc = run_cass(["--emit-rdna3", "z.cubin", "-o", "z.s"], tmp_path, cass_env)
    assert proc.returncode == 1 and "no kernel found" in proc.stderr and "z.cubin" in proc.stderr, proc.stderr
    assert not (tmp_path / "z.s").exists()


def test_kernel_metadata_lists_the_cuda_parameters_only(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """Issue 21: axpy(float, const float*, float*, int) got a fifth, padding argument (the 4 bytes
    before the first pointer), so a launcher passing CUDA's four was refused. The layout is CUDA's
    (offsets 0, 8, 16, 24) with exactly its four explicit arguments."""
    import os
    import re

    cu = tmp_path / "axpy.cu"
    cu.write_text("__global__ void axpy(float a, const float* x, float* y, int n) {\n"
                  "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += a * x[i]; }\n")
    nvcc = Toolchain(os.environ).nvcc.path
    subprocess.run([nvcc, "-cubin", "-arch=sm_80", "-o", str(tmp_path / "axpy.cubin"), str(cu)], check=True)
    proc = run_cass(["--emit-rdna3", "axpy.cubin", "-o", "axpy.s"], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stderr
    asm = (tmp_path / "axpy.s").read_text()
    args = re.findall(r"\.offset:\s+(\d+)\s+\.size:\s+(\d+)\s+\.value_kind:\s+(\w+)", asm)
    explicit = [(int(o), int(s)) for o, s, kind in args if not kind.startswith("hidden")]
    assert explicit == [(0, 4), (8, 8), (16, 8), (24, 4)], args


RECURSIVE = """__device__ __noinline__ int fib(int n, volatile int* seen) {
  int local[8]; for (int k = 0; k < 8; ++k) local[k] = seen[k] + n; seen[n & 7] = local[(n * 3) & 7];
  return n < 2 ? n : fib(n - 1, seen) + fib(n - 2, seen); }
__global__ void recursion(const int* a, int* out, int* scratch) { int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = fib(a[i] & 7, scratch + 8 * i); }
"""


def test_recursive_device_functions_get_cudas_default_stack(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """Issue 21: the lifted stack was one frame (32 bytes), so the second level of a recursive
    __noinline__ function stored out of bounds (the emulator reports it). The depth is unknown:
    CUDA's default per-thread stack (1 KiB), said in -v; fib runs right on the emulator."""
    import os

    import numpy as np

    from cass_cc.emu import launch, load

    (tmp_path / "r.cu").write_text(RECURSIVE)
    nvcc = Toolchain(os.environ).nvcc.path
    subprocess.run([nvcc, "-cubin", "-arch=sm_80", "-o", str(tmp_path / "r.cubin"), str(tmp_path / "r.cu")], check=True)
    proc = run_cass(["--emit-rdna3", "r.cubin", "--emit-hsaco", "-o", "r.hsaco", "-v"], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stderr
    assert "recursive: 1024 B stack a thread" in proc.stderr
    co = load(str(tmp_path / "r.hsaco"))
    a = np.arange(64, dtype=np.int32)
    out = launch(co, "_Z9recursionPKiPiS1_", 2, 32, [a, np.zeros(64, np.int32), np.zeros(8 * 64, np.int32)])[1]
    fib = [0, 1, 1, 2, 3, 5, 8, 13]
    assert out.tolist() == [fib[v & 7] for v in a.tolist()]
