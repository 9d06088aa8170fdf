"""End to end: real clang, make and the HIP runtime build CUDA programs for gfx1100."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.toolchain.bundle import code_object_target, device_targets, parse_bundles
from tests.conftest import CASS_CC, EXAMPLES, needs_clang, run_cass

pytestmark = [pytest.mark.e2e, needs_clang]

KERNEL = """\
#include <cuda_runtime.h>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
int launch(float* x, int n) {
  scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
"""


def test_make_cc_cass_cc_builds_gfx1100_binary(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """The issue's case: an nvcc Makefile (CC = nvcc) run as `make CC=cass-cc`."""
    src = tmp_path / "vector-stats"
    shutil.copytree(EXAMPLES / "vector-stats", src)
    # make -j on an empty cache: the device-library fix and translations race, safely.
    env = {**cass_env, "CASS_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run(["make", "-j4", f"CC={CASS_CC}"], cwd=src, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    binary = src / "vector-stats"
    assert binary.is_file()
    # Two .cu files: two offload bundles, each with a gfx1100 code object.
    assert device_targets(str(binary)) == ["gfx1100", "gfx1100"]
    # The host file went to the host compiler: its object has no device code.
    with pytest.raises(Exception, match="no .hip_fatbin"):
        device_targets(str(src / "main.o"))
    # Linked against the HIP runtime, not CUDA's.
    needed = subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True).stdout
    assert "libamdhip64.so" in needed and "cudart" not in needed


def test_compile_error_points_at_cu_line(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "bad.cu").write_text(
        "#include <cuda_runtime.h>\n"
        "// a comment line\n"
        "__global__ void k(float* x) {\n"
        "  x[threadIdx.x] = 1.0f;\n"
        "  undeclared_thing(x);\n"
        "}\n"
    )
    proc = run_cass(["-c", "bad.cu", "-o", "bad.o"], tmp_path, cass_env)
    assert proc.returncode != 0
    assert "bad.cu:5:3: error: use of undeclared identifier 'undeclared_thing'" in proc.stderr
    assert ".hip:" not in proc.stderr  # never the cached translation's name
    assert not (tmp_path / "bad.o").exists()  # nothing half written


def test_several_amd_targets_give_fat_binary(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.cu").write_text(KERNEL)
    gencode = ["-gencode", "arch=gfx1100,code=gfx1100", "-gencode", "arch=gfx1030,code=gfx1030"]
    run_cass([*gencode, "-c", "k.cu"], tmp_path, cass_env, check=True)
    assert sorted(device_targets(str(tmp_path / "k.o"))) == ["gfx1030", "gfx1100"]
    # The same through the setting, with NVIDIA names on the command line.
    run_cass(["--cass-offload-arch=gfx1100,gfx1030", "-arch=sm_80", "-c", "k.cu", "-o", "k2.o"], tmp_path, cass_env, check=True)
    assert sorted(device_targets(str(tmp_path / "k2.o"))) == ["gfx1030", "gfx1100"]


def test_arch_map_setting(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.cu").write_text(KERNEL)
    env = {**cass_env, "CASS_ARCH_MAP": "sm_86=gfx1030"}
    run_cass(["-gencode", "arch=compute_86,code=sm_86", "-c", "k.cu"], tmp_path, env, check=True)
    assert device_targets(str(tmp_path / "k.o")) == ["gfx1030"]


def test_dependencies_name_the_users_files(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.h").write_text("#pragma once\n#define N 4\n")
    (tmp_path / "k.cu").write_text('#include "k.h"\n' + KERNEL)
    run_cass(["-MD", "-MF", "k.d", "-MT", "obj/k.o", "-c", "k.cu", "-o", "k.o"], tmp_path, cass_env, check=True)
    words = (tmp_path / "k.d").read_text().replace("\\\n", " ").split()
    assert words[:2] == ["obj/k.o:", "k.cu"]
    assert str(tmp_path / "k.h") in words and not any(".hip" in w for w in words)
    run_cass(["-MMD", "-MP", "-c", "k.cu", "-o", "k.o"], tmp_path, cass_env, check=True)
    mmd = (tmp_path / "k.d").read_text()
    assert "/usr/include" not in mmd and f"{tmp_path / 'k.h'}:" in mmd  # user headers only, with phony targets
    proc = run_cass(["-M", "k.cu"], tmp_path, cass_env, check=True)
    words = proc.stdout.replace("\\\n", " ").split()
    assert words[:2] == ["k.o:", "k.cu"] and str(tmp_path / "k.h") in words


def test_dryrun_shows_commands_and_writes_nothing(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.cu").write_text(KERNEL)
    proc = run_cass(["--dryrun", "-arch=sm_80", "-c", "k.cu", "-o", "k.o"], tmp_path, cass_env, check=True)
    lines = [line for line in proc.stderr.splitlines() if line.startswith("#$ ")]
    compile_line = next(line for line in lines if "-x hip" in line)
    assert "--offload-arch=gfx1100" in compile_line and compile_line.endswith("-o k.o")
    assert not (tmp_path / "k.o").exists()


def test_keep_keeps_every_stage(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """-keep keeps each stage's output under the user's file name: the translation, and per GPU
    target the device side of the hip stage (its assembly and code object), as nvcc -keep keeps
    .ptx and .cubin; the object is the one a build without -keep makes."""
    (tmp_path / "k.cu").write_text(KERNEL)
    run_cass(["-c", "k.cu", "-o", "plain.o"], tmp_path, cass_env, check=True)
    proc = run_cass(["--keep", "--keep-dir", "kept", "-c", "k.cu", "-v"], tmp_path, cass_env, check=True)
    assert "k.cu: translate (.hip) -> hip (.o)" in proc.stderr
    kept = tmp_path / "kept"
    hip = (kept / "k.cu.hip").read_text()
    assert "hip/hip_runtime.h" in hip and "hipGetLastError" in hip and '#line 1 "k.cu"' in hip
    asm = (kept / "k.cu.gfx1100.s").read_text()
    assert ".amdgcn_target" in asm and "gfx1100" in asm and "_Z5scalePffi" in asm
    assert code_object_target((kept / "k.cu.gfx1100.co").read_bytes()) == "gfx1100"
    assert sorted(p.name for p in kept.iterdir()) == ["k.cu.gfx1100.co", "k.cu.gfx1100.s", "k.cu.hip"]
    assert (tmp_path / "k.o").read_bytes() == (tmp_path / "plain.o").read_bytes()
    # a HIP source starts at the hip stage: no translation, the same device side
    (tmp_path / "h.hip").write_text(hip)
    proc = run_cass(["--keep", "--keep-dir", "kept", "-c", "h.hip", "-v"], tmp_path, cass_env, check=True)
    assert "h.hip: hip (.o)" in proc.stderr and not (kept / "h.hip.hip").exists()
    assert "_Z5scalePffi" in (kept / "h.hip.gfx1100.s").read_text()
    # a dry run shows the keeping commands and writes nothing
    proc = run_cass(["--keep", "--keep-dir", "k2", "-c", "k.cu", "--dryrun"], tmp_path, cass_env, check=True)
    assert sum("--cuda-device-only" in line for line in proc.stderr.splitlines()) == 2
    assert not (tmp_path / "k2").exists()


def test_device_only_outputs(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.cu").write_text(KERNEL)
    run_cass(["-ptx", "k.cu"], tmp_path, cass_env, check=True)
    asm = (tmp_path / "k.ptx").read_text()
    assert ".amdgcn_target" in asm and "gfx1100" in asm and "_Z5scalePffi" in asm
    run_cass(["-cubin", "k.cu", "-o", "k.co"], tmp_path, cass_env, check=True)
    assert code_object_target((tmp_path / "k.co").read_bytes()) == "gfx1100"
    run_cass(["-fatbin", "k.cu"], tmp_path, cass_env, check=True)
    ids = [e.id for e in parse_bundles((tmp_path / "k.fatbin").read_bytes())]
    assert "hipv4-amdgcn-amd-amdhsa--gfx1100" in ids


def test_static_and_shared_libraries(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.cu").write_text(KERNEL)
    run_cass(["-lib", "k.cu", "-o", "libk.a"], tmp_path, cass_env, check=True)
    members = subprocess.run(["ar", "t", "libk.a"], cwd=tmp_path, capture_output=True, text=True).stdout.split()
    assert len(members) == 1 and members[0].endswith(".o")
    run_cass(["-shared", "-Xcompiler", "-fPIC", "k.cu", "-o", "libk.so"], tmp_path, cass_env, check=True)
    assert device_targets(str(tmp_path / "libk.so")) == ["gfx1100"]


def test_relocatable_device_code(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """-dc objects calling each other's device functions, device-linked at the final link."""
    (tmp_path / "a.cu").write_text("__device__ float twice(float x) { return 2.0f * x; }\n")
    (tmp_path / "b.cu").write_text(
        "#include <cuda_runtime.h>\n"
        "extern __device__ float twice(float x);\n"
        "__global__ void k(float* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }\n"
        "int main() { float* d; cudaMalloc(&d, 64); k<<<1, 16>>>(d); return cudaDeviceSynchronize(); }\n"
    )
    run_cass(["-dc", "a.cu", "-o", "a.o"], tmp_path, cass_env, check=True)
    run_cass(["-dc", "b.cu", "-o", "b.o"], tmp_path, cass_env, check=True)
    run_cass(["a.o", "b.o", "-o", "app"], tmp_path, cass_env, check=True)
    assert device_targets(str(tmp_path / "app")) == ["gfx1100"]
    # CMake's separable compilation: an explicit -dlink object, then the host linker.
    run_cass(["-dlink", "a.o", "b.o", "-o", "dlink.o"], tmp_path, cass_env, check=True)
    link = subprocess.run(["g++", "a.o", "b.o", "dlink.o", "-o", "app2", "-lamdhip64"], cwd=tmp_path, capture_output=True, text=True)
    assert link.returncode == 0, link.stderr
    assert device_targets(str(tmp_path / "app2")) == ["gfx1100"]


def test_host_cpp_using_cuda_runtime_is_translated(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """A .cpp that includes <cuda_runtime.h> goes to the host compiler (as with nvcc), calling HIP."""
    (tmp_path / "k.cu").write_text(KERNEL)
    (tmp_path / "main.cpp").write_text(
        "#include <cuda_runtime.h>\n"
        "int launch(float* x, int n);\n"
        "int main() {\n"
        "  float* d = nullptr;\n"
        "  if (cudaMalloc((void**)&d, 1024 * sizeof(float)) != cudaSuccess) return 1;\n"
        "  int rc = launch(d, 1024);\n"
        "  cudaFree(d);\n"
        "  return rc;\n"
        "}\n"
    )
    proc = run_cass(["-v", "main.cpp", "k.cu", "-o", "app"], tmp_path, cass_env, check=True)
    host_line = next(line for line in proc.stderr.splitlines() if line.startswith("#$ ") and "-x c++" in line)
    assert host_line.split()[1].endswith(("g++", "c++"))  # the host compiler, not clang's HIP mode
    symbols = subprocess.run(["nm", "-D", "--undefined-only", str(tmp_path / "app")], capture_output=True, text=True).stdout
    assert "hipMalloc" in symbols and "cudaMalloc" not in symbols


def test_user_headers_with_cuda_code_are_translated(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """Headers in the user's tree (found beside the file and through -I) that use CUDA."""
    inc = tmp_path / "include" / "util"
    inc.mkdir(parents=True)
    (inc / "warp.cuh").write_text(
        "#pragma once\n"
        "#include <cuda_runtime.h>\n"
        '#include "plain.h"\n'
        "__device__ inline float warp_max(float v) {\n"
        "  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));\n"
        "  return v;\n"
        "}\n"
    )
    (inc / "plain.h").write_text("#pragma once\n#define SCALE 2.0f\n")
    (tmp_path / "check.h").write_text(
        "#pragma once\n#include <cstdio>\n"
        "#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf(\"%s\\n\", cudaGetErrorString(e)); return 1; } } while (0)\n"
    )
    (tmp_path / "k.cu").write_text(
        '#include "check.h"\n'
        "#include <util/warp.cuh>\n"
        "__global__ void k(float* x) { x[threadIdx.x] = SCALE * warp_max(x[threadIdx.x]); }\n"
        "int run(float* x) { k<<<1, 32>>>(x); CK(cudaDeviceSynchronize()); return 0; }\n"
    )
    proc = run_cass(["-Iinclude", "-MD", "-c", "k.cu", "-o", "k.o"], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stderr
    assert device_targets(str(tmp_path / "k.o")) == ["gfx1100"]
    words = (tmp_path / "k.d").read_text().replace("\\\n", " ").split()
    for header in ("check.h", "include/util/warp.cuh", "include/util/plain.h"):
        assert str(tmp_path / header) in words, words  # the user's files, never the translated copies
    # An error inside a translated header names the user's header and line.
    (inc / "warp.cuh").write_text((inc / "warp.cuh").read_text().replace("return v;", "return v + nope;"))
    proc = run_cass(["-Iinclude", "-c", "k.cu", "-o", "k.o"], tmp_path, cass_env)
    assert proc.returncode != 0
    assert f"{inc / 'warp.cuh'}:6:" in proc.stderr and "'nope'" in proc.stderr


def test_openmp_host_code_links_and_runs(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """-Xcompiler -fopenmp in .cu (compiled by clang) and .cpp (compiled by g++) files, one binary."""
    (tmp_path / "a.cu").write_text(
        "#include <cuda_runtime.h>\n"
        "long sum_cu(int n) { long s = 0;\n#pragma omp parallel for reduction(+:s)\n"
        "  for (int i = 0; i < n; i++) s += i;\n  return s; }\n"
    )
    (tmp_path / "main.cpp").write_text(
        "#include <cstdio>\nlong sum_cu(int n);\n"
        "int main() { long s = 0;\n#pragma omp parallel for reduction(+:s)\n"
        "  for (int i = 0; i < 1000; i++) s += i;\n"
        '  printf("%ld %ld\\n", s, sum_cu(1000)); return 0; }\n'
    )
    run_cass(["-Xcompiler", "-fopenmp", "a.cu", "main.cpp", "-o", "app"], tmp_path, cass_env, check=True)
    out = subprocess.run([str(tmp_path / "app")], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["499500", "499500"]


@pytest.mark.parametrize(
    "style, args",
    [
        (
            "cmake",
            "-forward-unknown-to-host-compiler -DFOO=1 -I{inc} -isystem={inc} "
            "--generate-code=arch=compute_80,code=[compute_80,sm_80] -Xcompiler=-fPIC -std=c++17 "
            "-MD -MT CMakeFiles/t.dir/k.cpp.o -MF CMakeFiles/t.dir/k.cpp.o.d -x cu -c {src} -o CMakeFiles/t.dir/k.cpp.o",
        ),
        (
            "pytorch",
            "-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ --expt-relaxed-constexpr "
            "--compiler-options -fPIC -gencode=arch=compute_80,code=sm_80 -std=c++17 -O3 --use_fast_math "
            "-DTORCH_EXTENSION_NAME=ext -c {src} -o CMakeFiles/t.dir/k.cpp.o",
        ),
    ],
)
def test_real_build_system_command_lines(style: str, args: str, tmp_path: Path, cass_env: dict[str, str]) -> None:
    """Command lines as CMake and PyTorch's extension builder write them; `-x cu` on a .cpp file."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "flags.h").write_text("#pragma once\n#define FACTOR 3\n")
    (tmp_path / "k.cpp").write_text('#include "flags.h"\n' + KERNEL.replace("2.0f", "(float)FACTOR"))
    (tmp_path / "CMakeFiles" / "t.dir").mkdir(parents=True)
    argv = args.format(inc=tmp_path / "inc", src=tmp_path / "k.cpp").split()
    if style == "pytorch":
        argv = ["-I", str(tmp_path / "inc"), "-x", "cu", *argv]
    run_cass(argv, tmp_path, cass_env, check=True)
    assert device_targets(str(tmp_path / "CMakeFiles" / "t.dir" / "k.cpp.o")) == ["gfx1100"]
    if style == "cmake":
        deps = (tmp_path / "CMakeFiles" / "t.dir" / "k.cpp.o.d").read_text()
        assert deps.startswith("CMakeFiles/t.dir/k.cpp.o:") and str(tmp_path / "inc" / "flags.h") in deps


def test_preprocess_shows_translation_with_user_lines(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.cu").write_text(KERNEL)
    proc = run_cass(["-E", "k.cu"], tmp_path, cass_env, check=True)
    assert "hipGetLastError" in proc.stdout and "cudaGetLastError" not in proc.stdout
    assert '# 1 "k.cu"' in proc.stdout  # line markers name the user's file
    assert "warning" not in proc.stderr
    run_cass(["-E", "k.cu", "-o", "k.ii"], tmp_path, cass_env, check=True)
    assert "hipGetLastError" in (tmp_path / "k.ii").read_text()
