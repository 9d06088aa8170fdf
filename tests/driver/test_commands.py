"""nvcc flags -> clang/host-compiler command lines (pure functions, no tools run)."""
from __future__ import annotations

from pathlib import Path

import pytest

from cass_cc.driver import commands
from cass_cc.nvcc import parse
from cass_cc.toolchain import hipclang
from cass_cc.toolchain.hipclang import HipClang
from cass_cc.toolchain.rocm import Rocm

ROCM = Rocm(Path("/opt/rocm"), "test", (6, 2, 0), Path("/opt/rocm/amdgcn/bitcode"), Path("/opt/rocm/lib"))
HIP = HipClang("clang", "/opt/rocm", "/dl")


def hip_cmd(argv: str) -> list[str]:
    inv = parse(argv.split() + ["-c", "k.cu"])
    return commands.hip_compile(
        inv, "k.hip", "k.o", hip=HIP, archs=["gfx1100"], include_flags=["-iquote", "/src"], mode=["-c"],
    )


def pairs(cmd: list[str]) -> list[str]:
    return [f"{a} {b}" for a, b in zip(cmd, cmd[1:])]


@pytest.mark.parametrize(
    "argv, present, absent",
    [
        ("-O2", ["-O2", "-Xarch_device -O3"], ["-fgpu-rdc"]),
        ("-G", ["-Xarch_device -g", "-Xarch_device -O0"], ["-Xarch_device -O3"]),
        ("-g -lineinfo", ["-Xarch_host -g", "-Xarch_device -gline-tables-only"], []),
        ("--use_fast_math", ["-ffast-math"], []),
        ("-rdc=true", ["-fgpu-rdc"], []),
        ("--default-stream per-thread", ["-fgpu-default-stream=per-thread"], []),
        ("-std=c++20", ["-std=c++20"], ["-std=c++17"]),
        ("", ["-std=c++17", "-D__CUDACC__", "--offload-arch=gfx1100", "--rocm-path=/opt/rocm"], []),
        ("-DA=1 -UB -Iinc -isystem sys -include pre.h", ["-DA=1", "-UB", "-Iinc", "-isystem sys", "-include pre.h"], []),
        ("--fmad=false --ftz=true", ["-ffp-contract=off", "-fgpu-flush-denormals-to-zero"], []),
        ("-arch=sm_86", ["-Xarch_device -D__CUDA_ARCH__=860"], ["-D__CUDA_ARCH__=750"]),
        ("-arch=gfx1100", ["-Xarch_device -D__CUDA_ARCH__=750"], []),
        ("-Werror all-warnings -w", ["-Werror", "-w"], []),
        ("-D__CUDA_NO_HALF_OPERATORS__ -DX=1", ["-D__CUDA_NO_HALF_OPERATORS__", "-D__HIP_NO_HALF_OPERATORS__", "-DX=1"], []),
    ],
)
def test_hip_compile_flags(argv: str, present: list[str], absent: list[str]) -> None:
    cmd = hip_cmd(argv)
    words = set(cmd) | set(pairs(cmd))
    for p in present:
        assert p in words, (p, cmd)
    for a in absent:
        assert a not in words, (a, cmd)
    assert cmd[-3:] == ["k.hip", "-o", "k.o"]


def test_user_includes_come_after_the_translation_folders() -> None:
    cmd = hip_cmd("-Iinc")
    assert cmd.index("/src") < cmd.index("-Iinc")


@pytest.mark.parametrize("mode, loaded", [(hipclang.OBJECT, True), (hipclang.DEVICE_ASM, True), (hipclang.PREPROCESS, False),
                                          (["-M"], False), (hipclang.HOST_SYNTAX, False)])
def test_llvm_fixes_loads_where_code_is_generated(mode: list[str], loaded: bool) -> None:
    inv = parse(["-c", "k.cu"])
    cmd = commands.hip_compile(inv, "k.hip", "k.o", hip=HIP, archs=["gfx1100"], include_flags=[], mode=mode,
                               llvm_fixes=Path("/cache/llvmfix.so"))
    assert ("-fpass-plugin=/cache/llvmfix.so" in cmd) is loaded
    assert cmd[-3:] == ["k.hip", "-o", "k.o"]


def test_quiet_flag_follows_xcompiler_wall() -> None:
    cmd = hip_cmd("-Xcompiler -Wall")
    assert cmd.index("-Wno-unused-result") > cmd.index("-Wall")


@pytest.mark.parametrize(
    "name, expected",
    [("cudart", None), ("cudart_static", None), ("cudadevrt", None), ("cuda", None), ("m", "m"), ("mylib", "mylib")],
)
def test_runtime_libraries_map_to_hip(name: str, expected: str | None) -> None:
    assert commands.map_library(name, ROCM, []) == expected


def test_library_counterpart_found_by_user_dir(tmp_path: Path) -> None:
    (tmp_path / "libhipblas.so").write_text("")
    assert commands.map_library("cublas", ROCM, [str(tmp_path)]) == "hipblas"


def test_link_replaces_gomp_with_llvm_openmp() -> None:
    inv = parse(["-Xcompiler", "-fopenmp", "a.o", "-o", "app", "-lcudart", "-L/x", "-Xlinker", "--as-needed"])
    cmd = commands.link(inv, "g++", ["a.o"], "app", ROCM, [], shared=False, hip_link=[], libomp="/llvm/lib/libomp.so")
    assert "-fopenmp" not in cmd and "/llvm/lib/libomp.so" in cmd and "-pthread" in cmd
    assert "-Wl,--as-needed" in cmd and "-L/x" in cmd and "-lamdhip64" in cmd
    assert cmd[-2:] == ["-o", "app"]


def test_hip_clang_spells_every_callers_compile() -> None:
    """One spelling for the driver, verify, cass_data and cass_train (issue 26): the target, the
    installation and its device libraries first, the mode, the caller's flags in order, the output."""
    hip = HipClang("/usr/bin/clang-15", "/usr", "/cache/devlibs/x")
    assert hip.command("k.hip", "k.s", archs=["gfx1100", "gfx1030"], mode=hipclang.DEVICE_ASM, flags=["-O2", "-Ia", "-Ib"]) == [
        "/usr/bin/clang-15", "-x", "hip", "--offload-arch=gfx1100", "--offload-arch=gfx1030", "--rocm-path=/usr",
        "--rocm-device-lib-path=/cache/devlibs/x", "--cuda-device-only", "-S", "-O2", "-Ia", "-Ib", "k.hip", "-o", "k.s"]
    assert hip.command("k.hip", None, mode=hipclang.HOST_SYNTAX)[-3:] == ["--cuda-host-only", "-fsyntax-only", "k.hip"]
