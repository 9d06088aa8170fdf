"""What a build sees when cass-cc cannot do what was asked: one line, the right exit code."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import needs_clang, run_cass


def test_unknown_flag_fails_like_nvcc(tmp_path: Path, cass_env: dict[str, str]) -> None:
    proc = run_cass(["-foo", "x.cu"], tmp_path, cass_env)
    assert proc.returncode == 1
    assert proc.stderr == "nvcc fatal   : Unknown option '-foo'\n"
    assert proc.stdout == ""


def test_no_input_files(tmp_path: Path, cass_env: dict[str, str]) -> None:
    proc = run_cass(["-c"], tmp_path, cass_env)
    assert proc.returncode == 1
    assert "No input files specified" in proc.stderr


def test_missing_clang_names_the_fix(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    env = {**cass_env, "CASS_CLANG": str(tmp_path / "no-such-clang")}
    proc = run_cass(["-c", "k.cu"], tmp_path, env)
    assert proc.returncode == 1
    [line] = proc.stderr.splitlines()
    assert line.startswith("cass-cc fatal   : cannot find clang")
    assert "CASS_CLANG" in line and "apt-get install clang-15" in line
    assert not (tmp_path / "k.o").exists()


def test_missing_rocm_names_the_fix(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    env = {**cass_env, "CASS_ROCM_PATH": str(tmp_path / "no-rocm")}
    proc = run_cass(["-c", "k.cu"], tmp_path, env)
    assert proc.returncode == 1
    [line] = proc.stderr.splitlines()
    assert "cannot find a ROCm/HIP installation" in line and "CASS_ROCM_PATH" in line and "apt-get install" in line


def test_clang_that_is_cass_cc_is_refused(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """A tool variable pointing back at cass-cc (or its nvcc shim) must not loop."""
    from tests.conftest import ROOT

    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    env = {**cass_env, "CASS_CLANG": str(ROOT / "shims" / "bin" / "nvcc")}
    proc = run_cass(["-c", "k.cu"], tmp_path, env)
    assert proc.returncode == 1
    assert "cass-cc itself, skipped" in proc.stderr


def test_missing_input_file(tmp_path: Path, cass_env: dict[str, str]) -> None:
    proc = run_cass(["-c", "absent.cu"], tmp_path, cass_env)
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith("absent.cu: cannot read: No such file or directory")


@needs_clang
def test_non_utf8_in_code_is_an_error(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "latin1.cu").write_bytes(b"// fine\n__global__ void k\xe9() {}\n")
    proc = run_cass(["-c", "latin1.cu"], tmp_path, cass_env)
    assert proc.returncode == 1
    [line] = proc.stderr.splitlines()
    assert "latin1.cu:2: source is not UTF-8 text (byte 0xe9 outside comments and strings)" in line
    assert not (tmp_path / "latin1.o").exists()


@needs_clang
def test_non_utf8_in_comment_is_kept(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """nvcc compiles a Latin-1 copyright sign in a comment; so must we, byte for byte."""
    (tmp_path / "latin1.cu").write_bytes(b"// (c) caf\xe9\n#include <cuda_runtime.h>\n__global__ void k() {}\n")
    proc = run_cass(["--keep", "-c", "latin1.cu"], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stderr
    assert "latin1.cu:1: not UTF-8 (byte 0xe9 in a comment or literal)" in proc.stderr
    kept = (tmp_path / "latin1.cu.hip").read_bytes()
    assert b"// (c) caf\xe9\n#include <hip/hip_runtime.h>" in kept
    assert (tmp_path / "latin1.o").is_file()


@needs_clang
def test_missing_hip_library_is_named(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "m.cpp").write_text("int main() { return 0; }\n")
    proc = run_cass(["m.cpp", "-o", "m", "-lcufft"], tmp_path, cass_env)
    if proc.returncode == 0:
        pytest.skip("hipFFT is installed here")
    assert "-lcufft needs hipFFT (libhipfft), which is not installed" in proc.stderr
    assert "install libhipfft-dev (Debian 13 and Ubuntu 24.04 package it" in proc.stderr
    assert not (tmp_path / "m").exists()


@needs_clang
@pytest.mark.parametrize("header, package", [("cublas_v2.h", "libhipblas-dev"), ("thrust/sort.h", "librocthrust-dev"),
                                             ("cub/cub.cuh", "libhipcub-dev"), ("cusolverDn.h", "libhipsolver-dev")])
def test_missing_library_header_is_one_line_naming_the_package(tmp_path: Path, cass_env: dict[str, str],
                                                               header: str, package: str) -> None:
    """On a platform without the HIP library (Debian 12), a library program stops with one line that
    names the package and the platforms that have it, not clang's 'file not found' besides."""
    (tmp_path / "lib.cu").write_text(f"#include <cstdio>\n#include <{header}>\nint main() {{ return 0; }}\n")
    proc = run_cass(["lib.cu", "-o", "lib"], tmp_path, cass_env)
    if proc.returncode == 0:
        pytest.skip(f"the HIP counterpart of <{header}> is installed here")
    assert proc.stderr.splitlines() == [proc.stderr.strip()], proc.stderr
    assert proc.stderr.startswith(f"lib.cu:2: error: <{header}> needs ")
    assert f"install {package} (Debian 13 and Ubuntu 24.04 package it; Debian 12 does not)" in proc.stderr
    assert not (tmp_path / "lib").exists()


def test_version_is_nvcc_shaped_and_truthful(tmp_path: Path, cass_env: dict[str, str]) -> None:
    import re

    proc = run_cass(["--version"], tmp_path, cass_env)
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0] == "nvcc: NVIDIA (R) Cuda compiler driver"
    assert re.search(r"release \d+\.\d+, V\d+\.\d+\.\d+", proc.stdout)  # what CMake parses
    assert "not NVIDIA's nvcc" in proc.stdout


def test_help_lists_settings_and_options(tmp_path: Path, cass_env: dict[str, str]) -> None:
    proc = run_cass(["--help"], tmp_path, cass_env)
    assert proc.returncode == 0
    assert "CASS_ARCH_MAP" in proc.stdout and "--gpu-architecture" in proc.stdout
    from cass_cc.cli import SUBCOMMANDS

    for sub in SUBCOMMANDS:  # every subcommand is named
        assert f"cass-cc {sub}" in proc.stdout, sub


@needs_clang
def test_missing_hip_library_header_is_explained(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "s.cu").write_text("#include <cstdio>\n#include <cub/cub.cuh>\n__global__ void k() {}\n")
    proc = run_cass(["-c", "s.cu"], tmp_path, cass_env)
    if proc.returncode == 0:
        pytest.skip("hipCUB is installed here")
    assert "s.cu:2: error: <cub/cub.cuh> needs hipCUB (<hipcub/hipcub.hpp>), which is not installed" in proc.stderr
    # <cuda_bf16.h> is served by the translation's own prelude where HIP lacks hip_bf16.h: a file
    # that fails for another reason gets clang's error, not a missing-header one.
    (tmp_path / "b.cu").write_text("#include <cuda_bf16.h>\n__global__ void k(__nv_bfloat16* p) { p[0] = undeclared; }\n")
    proc = run_cass(["-c", "b.cu"], tmp_path, cass_env)
    assert proc.returncode != 0 and "use of undeclared identifier 'undeclared'" in proc.stderr
    assert "hip_bf16.h" not in proc.stderr
    # An include in a branch not taken costs nothing and says nothing.
    (tmp_path / "t.cu").write_text("#ifdef USE_CUB\n#include <cub/cub.cuh>\n#endif\n__global__ void k() {}\n")
    proc = run_cass(["-c", "t.cu"], tmp_path, cass_env)
    assert proc.returncode == 0 and "hipCUB" not in proc.stderr


def test_compiler_crash_is_retried_once(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """LLVM 15 crashes now and then on gfx11 code it compiles the next time; we retry.
    (A real crash cannot be had on demand: this clang crashes on its first compile.)"""
    fake = tmp_path / "clang"
    fake.write_text(
        "#!/bin/sh\n"
        'case "$1" in --version) echo "clang version 15.0.6"; exit 0;; -print-targets) echo "  amdgcn - AMD GCN GPUs"; exit 0;; esac\n'
        f'if [ ! -f {tmp_path}/crashed ]; then touch {tmp_path}/crashed; echo "PLEASE submit a bug report" >&2; exit 1; fi\n'
        'while [ $# -gt 1 ]; do if [ "$1" = -o ]; then echo object > "$2"; fi; shift; done\n'
    )
    fake.chmod(0o755)
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    # (the LLVM fixes plugin is built for the LLVM of the clang in use: none for this fake one)
    env = {**cass_env, "CASS_CLANG": str(fake), "CASS_CC_NO_LLVM_FIXES": "1"}
    proc = run_cass(["-c", "k.cu"], tmp_path, env)
    assert proc.returncode == 0, proc.stderr
    assert "clang crashed and was run again (1 of 3 retries)" in proc.stderr
    assert (tmp_path / "k.o").read_text() == "object\n"


@needs_clang
def test_missing_library_reason_on_every_build_once_instead_of_clangs(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """The reason comes from the user's headers too, on cached rebuilds and on every file that
    includes them, once per library, in place of clang's 'file not found'."""
    (tmp_path / "lib.h").write_text("#pragma once\n#include <thrust/sort.h>\n#include <thrust/device_vector.h>\n"
                                    "inline void sort_it(int* p) { cudaDeviceSynchronize(); }\n")
    for name in ("a.cu", "b.cu"):
        (tmp_path / name).write_text('#include "lib.h"\n__global__ void k() {}\n')
    outputs = [run_cass(["-c", name], tmp_path, cass_env) for name in ("a.cu", "a.cu", "b.cu")]
    for proc in outputs:
        if proc.returncode == 0:
            pytest.skip("rocThrust is installed here")
        reason = "lib.h:2: error: <thrust/sort.h> needs rocThrust (<thrust/sort.h>), which is not installed"
        assert proc.stderr.count("needs rocThrust") == 1, proc.stderr
        assert reason in proc.stderr
        assert "file not found" not in proc.stderr, proc.stderr


@needs_clang
def test_no_warning_for_names_the_users_headers_declare(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """A header of the user's that defines a CUDA-looking macro, or stands in for a CUDA
    function HIP lacks (cuLogsCurrent: CUDA 12.9's, no HIP counterpart), makes those the
    program's own names: no 'no known HIP counterpart' for their uses in the .cu file."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "compat.h").write_text(
        "#pragma once\n#include <cuda_runtime.h>\n"
        "inline cudaError_t cuLogsCurrent(int* out, unsigned flags) { *out = 0; return cudaSuccess; }\n")
    (tmp_path / "helpers.h").write_text(
        "#pragma once\n#include <compat.h>\n#define cudaCheck(call) do { cudaError_t e = (call); (void)e; } while (0)\n")
    (tmp_path / "a.cu").write_text('#include "helpers.h"\n__global__ void k() {}\n'
                                   "void f() { int x; cudaCheck(cuLogsCurrent(&x, 0)); cudaCheck(cudaDeviceSynchronize()); }\n")
    proc = run_cass(["-c", "-Iinc", "a.cu"], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stderr
    assert "counterpart" not in proc.stderr, proc.stderr


@needs_clang
def test_user_headers_named_like_cuda_headers_are_the_users(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """<cuda_fp8.h> that the user's -I folder holds (a project's own stand-in) is included, not
    refused as CUDA's header HIP 5.2 lacks; without that folder it is refused as before."""
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "helper_cuda.h").write_text("#pragma once\n#include <cuda_runtime.h>\n#define checkCudaErrors(x) (x)\n")
    (tmp_path / "common" / "cuda_fp8.h").write_text("#pragma once\nstatic int mine_fp8 = 0;\n")
    (tmp_path / "u.cu").write_text("#include <helper_cuda.h>\n#include <cuda_fp8.h>\n__global__ void k() {}\n"
                                   "int f() { checkCudaErrors(cudaDeviceSynchronize()); return mine_fp8; }\n")
    proc = run_cass(["-Icommon", "-c", "u.cu"], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stderr
    assert "not supported" not in proc.stderr
    (tmp_path / "common" / "helper_cuda.h").rename(tmp_path / "helper_cuda.h")
    proc = run_cass(["-I.", "-c", "u.cu"], tmp_path, cass_env)  # cuda_fp8.h in no user folder now
    assert proc.returncode != 0 and "CUDA header <cuda_fp8.h> is not supported by HIP" in proc.stderr


def test_the_shim_toolkits_include_folder_is_not_the_users(tmp_path: Path) -> None:
    from cass_cc.driver.sources import TOOLKIT_MARK, user_angle_headers

    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "cuda_fp8.h").write_text("")
    (tmp_path / "toolkit").mkdir()
    for name in ("cuda_runtime.h", TOOLKIT_MARK):
        (tmp_path / "toolkit" / name).write_text("")
    data = b"#include <cuda_runtime.h>\n#include <cuda_fp8.h>\n#include \"cuda_fp8.h\"\n"
    dirs = [str(tmp_path / "toolkit"), str(tmp_path / "mine")]
    assert user_angle_headers(data, dirs) == {"cuda_fp8.h"}


@needs_clang
def test_missing_library_reason_names_only_the_failing_files_sources(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """Two files in one command: the first builds (its <thrust/...> sits in a branch not taken),
    the second fails for its own reason; no rocThrust line is printed for it."""
    (tmp_path / "a.cu").write_text("#ifdef USE_THRUST\n#include <thrust/sort.h>\n#endif\n__global__ void ka() {}\n")
    (tmp_path / "b.cu").write_text("__global__ void kb() { undeclared_thing(); }\n")
    proc = run_cass(["-c", "a.cu", "b.cu"], tmp_path, cass_env)
    assert proc.returncode != 0 and "undeclared_thing" in proc.stderr
    assert "rocThrust" not in proc.stderr, proc.stderr


@needs_clang
def test_cublaslt_is_refused_in_one_error_line_naming_hipblaslt(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """hipBLASLt is in no Debian release (issue 23): a cuBLASLt program stops with one error line that
    says where to get it, not with clang's fallout from the refused header."""
    (tmp_path / "lt.cu").write_text("#include <cublasLt.h>\nint main() { cublasLtHandle_t h; return (int)cublasLtCreate(&h); }\n")
    proc = run_cass(["lt.cu", "-o", "lt", "-lcublasLt"], tmp_path, cass_env)
    if proc.returncode == 0:
        pytest.skip("hipBLASLt is installed here")
    errors = [line for line in proc.stderr.splitlines() if "error" in line]
    assert errors == ["lt.cu:1: error: <cublasLt.h> needs hipBLASLt (<hipblaslt/hipblaslt.h>), which is not installed under "
                      f"{errors[0].split('installed under ')[1].split(':')[0]}: install hipblaslt-dev from AMD's ROCm "
                      "(no Debian release packages it)"], proc.stderr
    assert not (tmp_path / "lt").exists()
