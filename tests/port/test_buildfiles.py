"""Makefile and CMake rewriting, table-driven."""
from __future__ import annotations

import pytest

from cass_cc.port.buildfiles import build_file_kind, rewrite_build_file, rewrite_makefile, translate_words

ARCHS = ["gfx1100"]


@pytest.mark.parametrize(
    "nvcc, hipcc",
    [
        ("nvcc", "hipcc"),
        ("$(CUDA_PATH)/bin/nvcc", "hipcc"),
        ("/usr/local/cuda/bin/nvcc -c", "hipcc -c"),
        ("-arch=sm_80", "--offload-arch=gfx1100"),
        ("-arch sm_86", "--offload-arch=gfx1100"),
        ("-gencode arch=compute_80,code=sm_80 -gencode=arch=compute_86,code=sm_86", "--offload-arch=gfx1100"),
        ("-Xcompiler -Wall", "-Wall"),
        ("-Xcompiler -Wall,-fopenmp", "-Wall -fopenmp"),
        ("-Xcompiler=-fPIC", "-fPIC"),
        ("--compiler-options '-O3'", "-O3"),
        ("--use_fast_math", "-ffast-math"),
        ("-rdc=true", "-fgpu-rdc"),
        ("-dc", "-fgpu-rdc -c"),
        ("-lcudart -lm", "-lm"),
        ("--expt-relaxed-constexpr --extended-lambda", ""),
        ("-lineinfo", "-gline-tables-only"),
        ("-ccbin g++ -O2", "-O2"),
        ("-Xptxas -v", ""),
        ("-x cu", "-x hip"),
        ("-lcublas", "-lhipblas"),
        ("--default-stream per-thread", "-fgpu-default-stream=per-thread"),
        ("-O2 -std=c++17 -Iinclude", "-O2 -std=c++17 -Iinclude"),
    ],
)
def test_words(nvcc: str, hipcc: str) -> None:
    assert " ".join(translate_words(nvcc.split(), ARCHS)[0]) == hipcc


def test_makefile_keeps_layout_and_reports() -> None:
    text = "# nvcc here is a comment\nNVCC    := nvcc  # compiler\nFLAGS = -O2 -arch=sm_80 \\\n\t-lcudart\n\n\t$(NVCC) -c $< -o $@\n"
    new, rewrites = rewrite_makefile(text, ["gfx1100", "gfx90a"])
    assert new == ("# nvcc here is a comment\nNVCC    := hipcc  # compiler\nFLAGS = -O2 --offload-arch=gfx1100 --offload-arch=gfx90a \\\n\n\n"
                   "\t$(NVCC) -c $< -o $@\n")
    assert rewrites == [(2, "nvcc -> hipcc"), (3, "-arch=sm_80 -> --offload-arch=gfx1100 --offload-arch=gfx90a"), (4, "-lcudart -> (dropped)")]


def test_makefile_without_nvcc_untouched() -> None:
    text = "CC = gcc\nCFLAGS = -G -dc\n"
    assert rewrite_makefile(text, ARCHS) == (text, [])


def test_cmake() -> None:
    text = (
        "project(p CXX CUDA)\nenable_language(CUDA)\nset(CMAKE_CUDA_STANDARD 17)\nset(CMAKE_CUDA_ARCHITECTURES 70 80)\n"
        "add_library(k k.cu)\nset_target_properties(k PROPERTIES CUDA_ARCHITECTURES \"80;86\" CUDA_STANDARD 17)\n"
        "target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)\n"
        "target_link_libraries(k CUDA::cudart CUDA::cublas)\n"
    )
    new, rewrites = rewrite_build_file("CMakeLists.txt", text, ARCHS)
    # the HIP language set-up (cmake.HIP_SETUP) comes first; CUDA::cublas -> ROCm's target and package
    assert new[new.index("project("):].startswith(
        "project(p CXX HIP)\nenable_language(HIP)\nset(CMAKE_HIP_STANDARD 17)\nset(CMAKE_HIP_ARCHITECTURES gfx1100)\n"
        "add_library(k k.cu)\nset_target_properties(k PROPERTIES HIP_ARCHITECTURES gfx1100 HIP_STANDARD 17)\n"
        "target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:HIP>:>)\n"
        "find_package(hipblas REQUIRED)\ntarget_link_libraries(k hip::host roc::hipblas)\n"
    )
    assert new.startswith("# cass-cc port: CMake's HIP language")
    assert "set_source_files_properties(${_cass_port_cu_sources} PROPERTIES LANGUAGE HIP)" in new
    whats = [w for _, w in rewrites]
    assert "CUDA::cublas -> roc::hipblas" in whats
    assert "nvcc flag --extended-lambda -> (dropped)" in whats  # nvcc's flags inside arguments translated too
    # a .cmake module is rewritten but gets no source-properties block; a second port adds none either
    assert "_cass_port_cu_sources" not in rewrite_build_file("cmake/cuda.cmake", text, ARCHS)[0]
    assert rewrite_build_file("CMakeLists.txt", new, ARCHS)[0].count("_cass_port_cu_sources CONFIGURE") == 1


@pytest.mark.parametrize(
    "rel, kind",
    [("Makefile", "make"), ("a/makefile", "make"), ("GNUmakefile", "make"), ("rules.mk", "make"),
     ("CMakeLists.txt", "cmake"), ("cmake/x.cmake", "cmake"), ("build.sh", "shell"), ("Makefile.am", None), ("a.cu", None)],
)
def test_build_file_kind(rel: str, kind: str | None) -> None:
    assert build_file_kind(rel) == kind
