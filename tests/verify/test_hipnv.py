"""The HIP-on-NVIDIA compiler: headers generated from the tables, the hipcc flag adapter, and
small HIP programs built into executables with nvcc (no GPU needed; run only where one is)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cass_cc import hipnv
from cass_cc.hipnv import flags, headers, runner
from cass_cc.nvcc.options import Arity
from tests.conftest import run_cass
from tests.verify.conftest import NVCC, PROGRAMS, build_hip, needs_gpu, needs_nvcc


def test_reverse_names_come_from_the_tables() -> None:
    names = headers.reverse_names()
    assert names["hipMalloc"] == "cudaMalloc"
    assert names["hipMemcpyHostToDevice"] == "cudaMemcpyHostToDevice"
    assert names["hipStream_t"] == "cudaStream_t"
    assert names["hipblasSgemm"].startswith("cublasSgemm")
    assert names["hiprandStatePhilox4_32_10_t"] == "curandStatePhilox4_32_10_t"
    assert names["hipMemcpy"] == "cudaMemcpy"  # the runtime's spelling wins over cuMemcpy
    for hip in names:
        assert re.fullmatch(r"\w+", hip) and re.search(r"hip|roc", hip, re.I), hip
    assert "int" not in names and "__builtin_trap" not in names
    assert "__HIP_NO_HALF_CONVERSIONS__" not in names  # a program's own switch, never defined for it


def test_hand_written_names_are_left_out() -> None:
    hand = headers.hand_written_names()
    assert {"hipLaunchKernelGGL", "HIP_SYMBOL", "hipDeviceProp_t", "hipHostMalloc", "hipMemPrefetchAsync"} <= hand
    assert not hand & set(headers.reverse_names())


def test_header_files() -> None:
    files = headers.header_files()
    runtime = files["hip/hip_runtime.h"]
    assert '#include "cass_hipnv.h"' in runtime and "<cuda_runtime.h>" in runtime
    assert "<cuda_fp16.h>" in files["hip/hip_fp16.h"]
    assert "<cooperative_groups.h>" in files["hip/hip_cooperative_groups.h"]
    cub = files["hipcub/hipcub.hpp"]
    assert "namespace hipcub { using namespace ::cub; }" in cub and "cass_hipnv_hipcub.h" in cub
    assert "<curand_kernel.h>" in files["hiprand/hiprand_kernel.h"]
    assert files["hipblas.h"].strip().endswith("#include <hipblas/hipblas.h>")
    # CUDA headers included after the warp macros see them set aside.
    assert '#pragma push_macro("__ballot")' in files["hip/hip_fp16.h"]
    assert "#define __ballot cass_hipnv_ballot" in files["cass_hipnv.h"]  # object-like: CCCL's struct __any survives


def test_folder_is_built_once(tmp_path: Path) -> None:
    a = hipnv.build(tmp_path)
    assert a == hipnv.build(tmp_path)
    assert (a / "include" / "hip" / "hip_runtime.h").is_file()
    script = (a / "bin" / "hipcc").read_text()
    assert "CASS_CC_SHIM" in script  # never taken for a real compiler by the toolchain layer
    assert [p.name for p in (tmp_path / "hipnv").iterdir()] == [a.name]


def test_flag_table_sorted_and_unique() -> None:
    spellings = [f.spelling for f in flags.FLAGS]
    assert spellings == sorted(spellings)
    assert len(spellings) == len(set(spellings))


def test_every_disp_has_a_handler_and_a_flag() -> None:
    assert set(flags.APPLY) == set(flags.Disp)
    assert {f.disp for f in flags.FLAGS} == set(flags.Disp)


@pytest.mark.parametrize("flag", flags.FLAGS, ids=lambda f: f.spelling)
def test_flag_shape(flag: flags.Flag) -> None:
    assert flag.spelling.startswith("-") and flag.arity in (Arity.FLAG, Arity.ONE)
    if flag.spelling.endswith(("=", ",")):  # the value is in the word: never the next one
        assert flag.arity is Arity.FLAG and not flag.glued
    flags.parse([flag.spelling, "c"])  # its handler runs


@pytest.mark.parametrize("words, compile_has, link_has, absent", [
    (["--offload-arch=gfx1100", "-c", "a.cpp"], ["-c"], [], ["--offload-arch=gfx1100"]),
    (["-x", "hip", "-c", "a.c"], [], [], []),
    (["-fopenmp", "a.cpp", "-o", "a"], ["-Xcompiler", "-fopenmp"], ["-Xcompiler", "-fopenmp"], []),
    (["-Wl,-rpath,/x", "a.o", "-o", "a"], [], ["-Xlinker", "-rpath,/x"], ["-Wl,-rpath,/x"]),
    (["-lhipblas", "-lamdhip64", "-lm", "a.o"], [], ["-lcublas", "-lm"], ["-lhipblas", "-lamdhip64"]),
    (["-std=gnu++17", "-c", "a.cu"], ["-std=c++17"], [], []),
    (["-ffast-math", "-Ofast", "-c", "a.cu"], ["--use_fast_math", "-O3"], [], ["-ffast-math"]),
    (["-fgpu-rdc", "-c", "a.hip"], ["-rdc=true"], [], []),
    (["-fPIC", "-pthread", "-fopenmp=libomp", "-g3", "a.o"], ["-Xcompiler", "-fPIC", "-pthread", "-g3"],
     ["-Xcompiler", "-fPIC", "-pthread", "-fopenmp=libomp"], []),
    (["-I", "inc", "-DX=1", "-Wall", "-c", "a.hip"], ["-Iinc", "-DX=1", "-Xcompiler", "-Wall"], [], []),
    (["-munsafe-fp-atomics", "-mwavefrontsize64", "-fgpu-default-stream=per-thread", "-c", "a.hip"],
     ["--default-stream", "per-thread"], [], ["-munsafe-fp-atomics", "-mwavefrontsize64"]),
])
def test_parse(words: list[str], compile_has: list[str], link_has: list[str], absent: list[str]) -> None:
    p = flags.parse(words)
    for w in compile_has:
        assert w in p.compile_flags, (w, p)
    for w in link_has:
        assert w in p.link_flags, (w, p)
    for w in absent:
        assert w not in p.compile_flags + p.link_flags


def test_parse_sorts_inputs() -> None:
    p = flags.parse(["main.cpp", "k.hip", "x.c", "lib.a", "-x", "hip", "y.c"])
    assert p.sources == ["main.cpp", "k.hip", "y.c"] and p.others == ["x.c", "lib.a"]


def test_plan_one_step_and_split(tmp_path: Path) -> None:
    folder = tmp_path / "f"
    one = hipnv.plan_commands(["-O2", "a.cpp", "-o", "app"], "nvcc", folder, "sm_90", str(tmp_path), False)
    assert len(one.steps) == 1
    step = one.steps[0]
    assert step[:2] == ("nvcc", "-arch=sm_90") and ("-x", "cu") == step[step.index("-x"):step.index("-x") + 2]
    assert f"-I{folder / 'include'}" in step and "--extended-lambda" not in step
    split = hipnv.plan_commands(["a.cpp", "b.o", "-fopenmp", "-o", "app"], "nvcc", folder, "sm_90", str(tmp_path), False)
    assert len(split.steps) == 2 and split.temporaries == (str(tmp_path / "0-a.o"),)
    assert "-c" in split.steps[0] and split.steps[1][-4:] == ("-o", "app", "-Xcompiler", "-fopenmp")
    with pytest.raises(hipnv.HipnvError):
        hipnv.plan_commands(["-c", "a.cpp", "b.c"], "nvcc", folder)
    with pytest.raises(hipnv.HipnvError):
        flags.parse(["-o"])


def test_extended_lambda_only_when_used(tmp_path: Path) -> None:
    (tmp_path / "k.h").write_text("auto f = [=] __device__ (int i) { return i; };\n")
    (tmp_path / "a.hip").write_text('#include "k.h"\nint main() {}\n')
    (tmp_path / "b.hip").write_text("int main() { auto g = [](int i) { return i; }; }\n")
    assert flags.uses_device_lambdas([str(tmp_path / "a.hip")])
    assert not flags.uses_device_lambdas([str(tmp_path / "b.hip")])


def test_arch_from_env() -> None:
    assert runner.arch_from_env({}) == "sm_80"
    assert runner.arch_from_env({"CASS_HIPNV_ARCH": "90"}) == "sm_90"
    with pytest.raises(hipnv.HipnvError, match="CASS_HIPNV_ARCH"):
        runner.arch_from_env({"CASS_HIPNV_ARCH": "gfx1100"})


@needs_nvcc
@pytest.mark.parametrize("program", ["kernels_streams", "warps_atomics", "fp16_groups", "ported_patterns"])
def test_hip_program_builds_with_nvcc(program: str, hipnv_folder: Path) -> None:
    """Kernels, launch macros, streams, events, shared and constant memory, device properties,
    pinned/managed memory; shuffles and votes with and without masks, atomics (float/double
    max/min); half precision, complex, cooperative groups with a grid sync; and patterns seen in
    HeCBench trees (a program's own `#define __shfl_xor(v, m) __shfl_xor(v, m)`, libcu++ with
    its `struct __any` included after hip_runtime.h, a __device__ lambda behind a macro,
    float2 arithmetic)."""
    exe, log = build_hip(PROGRAMS / f"{program}.hip", hipnv_folder)
    assert exe is not None, log
    head = exe.read_bytes()[:4]
    assert head == b"\x7fELF"
    assert b".nv_fatbin" in exe.read_bytes() or b"nv_fatbin" in exe.read_bytes()


@needs_nvcc
@needs_gpu
@pytest.mark.parametrize("program", ["kernels_streams", "warps_atomics", "fp16_groups", "ported_patterns"])
def test_hip_program_runs_on_nvidia(program: str, hipnv_folder: Path) -> None:
    exe, log = build_hip(PROGRAMS / f"{program}.hip", hipnv_folder)
    assert exe is not None, log
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("PASS"), proc.stdout + proc.stderr


@needs_nvcc
def test_makefile_through_generated_hipcc(tmp_path: Path, hipnv_folder: Path) -> None:
    """A ported tree's own Makefile: `hipcc` on PATH is the adapter; a .cpp HIP source, an object
    and a link with -fopenmp and AMD-only flags."""
    (tmp_path / "k.cpp").write_text(
        "#include <hip/hip_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x] = __shfl_xor(threadIdx.x, 1); }\n"
        "void launch(int* p) { hipLaunchKernelGGL(k, dim3(1), dim3(32), 0, 0, p); }\n")
    (tmp_path / "main.cpp").write_text(
        "#include <hip/hip_runtime.h>\n#include <omp.h>\nvoid launch(int*);\n"
        "int main() { int* p; hipMalloc(&p, 128); launch(p); return omp_get_max_threads() > 0 ? 0 : 1; }\n")
    (tmp_path / "Makefile").write_text(
        "CC = hipcc\nCFLAGS = -std=c++17 -O2 -Wall --offload-arch=gfx1100 -munsafe-fp-atomics -fopenmp\n"
        "app: main.cpp k.o\n\t$(CC) $(CFLAGS) main.cpp k.o -o $@\n"
        "k.o: k.cpp\n\t$(CC) $(CFLAGS) -c $< -o $@\n")
    import os

    env = {**os.environ, "PATH": f"{hipnv_folder / 'bin'}:{os.path.dirname(NVCC or 'nvcc')}:{os.environ['PATH']}",
           "CASS_HIPNV_ARCH": "sm_80"}
    proc = subprocess.run(["make", "-s"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "app").is_file()


def test_cass_cc_hipcc_reports_errors_in_one_line(tmp_path: Path, cass_env: dict[str, str]) -> None:
    proc = run_cass(["hipcc", "-o"], tmp_path, cass_env)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == ["cass-cc: error: -o needs an argument"]


def test_library_names_and_headers_are_cudas_current_ones() -> None:
    """Found by the cuBLAS library program (issue 23): hipblasStatus_t had become cublas.h's legacy
    `cublasStatus`, which <cublas_v2.h> does not declare, and <hipblas/hipblas.h> included both
    cublas.h and cublas_v2.h, which CUDA refuses."""
    from cass_cc.hipnv import headers

    names = headers.reverse_names()
    assert names["hipblasStatus_t"] == "cublasStatus_t" and names["hiprandRngType_t"] == "curandRngType_t"
    assert names["hipError_t"] == "cudaError_t" and names["HIPBLAS_OP_N"] == "CUBLAS_OP_N"
    assert headers.hip_headers()["hipblas/hipblas.h"] == ["cublas_v2.h"]
