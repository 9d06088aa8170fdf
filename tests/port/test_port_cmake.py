"""cass_cc.port.cmake: CMake's grammar, and each kind of CUDA CMake rewritten for the HIP language."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.port.cmake import HIP_SETUP, CMakeSyntaxError, parse, rewrite_cmake
from cass_cc.toolchain import Toolchain, ToolchainError
from cass_cc.toolchain.bundle import device_targets
from tests.conftest import SHARED_CACHE

ARCHS = ["gfx1100"]


def body(text: str) -> str:
    """The rewritten text without the HIP set-up block and the .cu marking block."""
    return text.replace(HIP_SETUP.replace("@ARCHS@", ";".join(ARCHS)), "").split("\n# cass-cc port: compile this folder")[0]


def whats(rewrites: list[tuple[int, str]]) -> list[str]:
    return [w for _, w in rewrites]


# ---- grammar ---------------------------------------------------------------------------------

def test_parse_arguments_of_every_kind() -> None:
    text = ('# a comment with find_package(CUDA)\n#[[ a bracket comment\ncuda_add_executable(x y.cu) ]]\n'
            'set(A "quoted (paren) # not a comment" [==[bracket ]] arg]==] unquoted;list # comment )\n'
            '  b)\nif((X AND Y) OR Z)\nPROJECT (p CUDA)\n')
    commands = parse(text)
    assert [c.name for c in commands] == ["set", "if", "project"]
    assert commands[0].values == ["A", "quoted (paren) # not a comment", "bracket ]] arg", "unquoted;list", "b"]
    assert [a.kind for a in commands[1].args] == ["(", "unquoted", "unquoted", "unquoted", ")", "unquoted", "unquoted"]
    assert commands[2].line == 7


@pytest.mark.parametrize("text", ['set(A "open)\n', "set(A [[x)\n", "add_executable(a b.cu\n"])
def test_parse_refuses_what_cmake_refuses(text: str) -> None:
    with pytest.raises(CMakeSyntaxError):
        parse(text)
    new, rewrites = rewrite_cmake(text, ARCHS)
    assert new == text and rewrites[0][0] == 1 and "not rewritten" in rewrites[0][1]


def test_comments_and_strings_of_other_commands_untouched() -> None:
    text = 'project(p CXX)\n# set(CUDA_NVCC_FLAGS -arch=sm_80)\nmessage(STATUS "CUDA ready")\n'
    assert rewrite_cmake(text, ARCHS) == (text, [])


# ---- 1. the CUDA language --------------------------------------------------------------------

def test_modern_project() -> None:
    text = ("cmake_minimum_required(VERSION 3.21)\nproject(app LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit 11.4 REQUIRED)\n"
            "set(CMAKE_CUDA_ARCHITECTURES 80 86)\nset(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} --use_fast_math -lineinfo\")\n"
            "add_executable(app main.cpp k.cu)\nset_property(TARGET app PROPERTY CUDA_ARCHITECTURES 70 80)\n"
            "target_link_libraries(app PRIVATE CUDA::cudart_static)\nif(CUDAToolkit_FOUND)\nendif()\n")
    new, rewrites = rewrite_cmake(text, ARCHS)
    assert new.startswith("cmake_minimum_required(VERSION 3.21)\n" + HIP_SETUP.replace("@ARCHS@", "gfx1100"))
    assert body(new) == (
        "cmake_minimum_required(VERSION 3.21)\nproject(app LANGUAGES CXX HIP)\nfind_package(hip REQUIRED)\n"
        "set(CMAKE_HIP_ARCHITECTURES gfx1100)\nstring(APPEND CMAKE_HIP_FLAGS \" -ffast-math -gline-tables-only\")\n"
        "add_executable(app main.cpp k.cu)\nset_property(TARGET app PROPERTY HIP_ARCHITECTURES gfx1100)\n"
        "target_link_libraries(app PRIVATE hip::host)\nif(hip_FOUND)\nendif()\n")
    assert (2, "added the HIP language set-up (ROCM_PATH, HIP_DEVICE_LIB_PATH hints)") in rewrites
    assert (3, "find_package(CUDAToolkit 11.4 REQUIRED) -> find_package(hip REQUIRED)") in rewrites
    assert (4, "CUDA_ARCHITECTURES 80 86 -> HIP_ARCHITECTURES gfx1100") in rewrites
    assert (5, "nvcc flag --use_fast_math -> -ffast-math") in rewrites
    assert (7, "CUDA_ARCHITECTURES 70 80 -> HIP_ARCHITECTURES gfx1100") in rewrites
    assert (9, "CUDAToolkit_FOUND -> hip_FOUND") in rewrites
    # a second port changes nothing more
    again = rewrite_cmake(new, ARCHS)[0]
    assert again.count("_cass_port_hip_setup)") == 1 and again.count("_cass_port_cu_sources CONFIGURE") == 1


def test_cmake_cuda_flags_set_without_old_value_replaces() -> None:
    new, rewrites = rewrite_cmake('set(CMAKE_CUDA_FLAGS_RELEASE "-O3 -Xcompiler -fopenmp")\n', ARCHS)
    assert new == "set(CMAKE_HIP_FLAGS_RELEASE \"-O3 -fopenmp\")\n"
    assert (1, "nvcc flag -Xcompiler -fopenmp -> -fopenmp") in rewrites


def test_generator_expressions_and_properties() -> None:
    text = ('target_compile_options(t PRIVATE $<$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>:-O3> "$<$<COMPILE_LANGUAGE:CXX,CUDA>:-g>")\n'
            "set_target_properties(t PROPERTIES CUDA_STANDARD 17 CUDA_SEPARABLE_COMPILATION ON)\n")
    new, rewrites = rewrite_cmake(text, ARCHS)
    assert new == ('target_compile_options(t PRIVATE $<$<COMPILE_LANG_AND_ID:HIP,Clang>:-O3> "$<$<COMPILE_LANGUAGE:CXX,HIP>:-g>")\n'
                   "set_target_properties(t PROPERTIES HIP_STANDARD 17 CUDA_SEPARABLE_COMPILATION ON)\n")
    assert any(line == 2 and "CUDA_SEPARABLE_COMPILATION property left as is" in w for line, w in rewrites)


# ---- 2. legacy FindCUDA ----------------------------------------------------------------------

LEGACY = """cmake_minimum_required(VERSION 3.10)
project(legacy CXX)
find_package(CUDA 10.2 REQUIRED)
set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};-O3;-arch=sm_80;--expt-relaxed-constexpr)
list(APPEND CUDA_NVCC_FLAGS -Xcompiler -Wall --use_fast_math)
set(CUDA_PROPAGATE_HOST_FLAGS OFF)
set(CUDA_SEPARABLE_COMPILATION ON)
cuda_include_directories(include ${CMAKE_SOURCE_DIR}/common)
include_directories(${CUDA_INCLUDE_DIRS})
cuda_add_executable(app WIN32 main.cpp kernels/k.cu ${MORE}
    OPTIONS -lineinfo RELEASE -DNDEBUG)
target_link_libraries(app ${CUDA_LIBRARIES} ${CUDA_CUBLAS_LIBRARIES} ${CUDA_nppi_LIBRARY})
message(STATUS "CUDA ${CUDA_VERSION} at ${CUDA_TOOLKIT_ROOT_DIR}")
if(CUDA_VERSION VERSION_LESS 11)
endif()
"""


def test_legacy_findcuda() -> None:
    new, rewrites = rewrite_cmake(LEGACY, ARCHS)
    assert body(new) == """cmake_minimum_required(VERSION 3.10)
project(legacy CXX)
enable_language(HIP)
find_package(hip REQUIRED)
string(APPEND CMAKE_HIP_FLAGS " -O3")
string(APPEND CMAKE_HIP_FLAGS " -Wall -ffast-math")

string(APPEND CMAKE_HIP_FLAGS " -fgpu-rdc")
include_directories(include ${CMAKE_SOURCE_DIR}/common)
include_directories(${hip_INCLUDE_DIRS})
add_executable(app WIN32 main.cpp kernels/k.cu ${MORE})
set_source_files_properties(kernels/k.cu PROPERTIES LANGUAGE HIP)
target_link_libraries(app hip::host)
target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-gline-tables-only>)
target_compile_options(app PRIVATE $<$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:Release>>:-DNDEBUG>)
find_package(hipblas REQUIRED)
target_link_libraries(app hip::host roc::hipblas ${CUDA_nppi_LIBRARY})
message(STATUS "CUDA ${CUDA_VERSION} at ${ROCM_PATH}")
if(CUDA_VERSION VERSION_LESS 11)
endif()
"""
    assert "find_package(CUDA 10.2 REQUIRED) -> enable_language(HIP); find_package(hip REQUIRED)" in whats(rewrites)
    assert (3, "added the HIP language set-up (ROCM_PATH, HIP_DEVICE_LIB_PATH hints)") in rewrites
    assert (4, "nvcc flag -arch=sm_80 -> (dropped)") in rewrites
    assert (4, "nvcc flag --expt-relaxed-constexpr -> (dropped)") in rewrites
    assert (6, "set(CUDA_PROPAGATE_HOST_FLAGS OFF) -> (dropped)") in rewrites
    assert (7, "set(CUDA_SEPARABLE_COMPILATION ON) -> string(APPEND CMAKE_HIP_FLAGS \" -fgpu-rdc\")") in rewrites
    assert (9, "${CUDA_INCLUDE_DIRS} -> ${hip_INCLUDE_DIRS}") in rewrites
    assert (10, "nvcc flag -lineinfo -> -gline-tables-only") in rewrites
    assert any(line == 10 and w.startswith("cuda_add_executable(app WIN32 main.cpp kernels/k.cu ${MORE} OPTIONS -lineinfo "
                                             "RELEASE -DNDEBUG) -> add_executable(") for line, w in rewrites)
    assert (12, "${CUDA_CUBLAS_LIBRARIES} -> roc::hipblas") in rewrites
    assert (12, "${CUDA_nppi_LIBRARY} left as is: HIP has no CMake target for it") in rewrites
    assert (13, "${CUDA_VERSION} left as is: no HIP counterpart (compare HIP's version, hip_VERSION, by hand)") in rewrites
    assert (13, "${CUDA_TOOLKIT_ROOT_DIR} -> ${ROCM_PATH}") in rewrites
    assert (14, "CUDA_VERSION left as is: no HIP counterpart") in rewrites


def test_legacy_library_and_optional_cuda() -> None:
    text = ("find_package(CUDA QUIET)\nif(CUDA_FOUND)\n  cuda_add_library(k STATIC k.cu util.cpp OPTIONS --use_fast_math)\n"
            "  cuda_add_cublas_to_target(k)\nendif()\n")
    new, rewrites = rewrite_cmake(text, ARCHS)
    assert body(new) == ("enable_language(HIP)\nfind_package(hip QUIET)\nif(hip_FOUND)\n  add_library(k STATIC k.cu util.cpp)\n"
                         "  set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n  target_link_libraries(k hip::host)\n"
                         "  target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-ffast-math>)\n"
                         "  find_package(hipblas REQUIRED)\n  target_link_libraries(k roc::hipblas)\nendif()\n")
    assert (1, "find_package(CUDA) was optional: enable_language(HIP) makes HIP required") in rewrites


def test_cuda_compile_safe_and_unsafe() -> None:
    safe = "cuda_compile(OBJS a.cu b.cu OPTIONS -G)\nadd_executable(app main.cpp ${OBJS})\n"
    new, rewrites = rewrite_cmake(safe, ARCHS)
    assert body(new) == ("set(OBJS a.cu b.cu)\nset_source_files_properties(a.cu b.cu PROPERTIES LANGUAGE HIP COMPILE_OPTIONS -g)\n"
                         "add_executable(app main.cpp ${OBJS})\n")
    assert (1, "nvcc flag -G -> -g") in rewrites
    unsafe = "cuda_compile(OBJS a.cu)\ninstall(FILES ${OBJS} DESTINATION lib)\n"
    new, rewrites = rewrite_cmake(unsafe, ARCHS)
    assert new == unsafe
    assert rewrites == [(1, "cuda_compile() left as is: ${OBJS} is used by install() at line 2, not only as target sources")]


def test_nvcc_flags_inside_arguments_are_translated() -> None:
    text = ('project(p CXX CUDA)\nadd_executable(a a.cu)\n'
            'target_compile_options(a PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math> "$<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>")\n'
            'add_compile_options(-Xcompiler=-fopenmp --expt-relaxed-constexpr)\n')
    new, reports = rewrite_cmake(text, ["gfx1100"])
    assert ('target_compile_options(a PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-ffast-math> '
            '"$<$<COMPILE_LANGUAGE:HIP>:-gline-tables-only>")') in new
    assert "add_compile_options(-fopenmp )" in new
    assert (3, "nvcc flag --use_fast_math -> -ffast-math") in reports
    # the set-up block gives C and C++ files what hipcc gives them (a translated header's needs)
    assert 'add_compile_definitions("$<$<COMPILE_LANGUAGE:C,CXX>:__HIP_PLATFORM_AMD__>")' in new
    assert 'link_libraries("$<$<LINK_LANGUAGE:C,CXX>:-L${ROCM_PATH}/lib>" "$<$<LINK_LANGUAGE:C,CXX>:amdhip64>")' in new


def test_unportable_commands_reported() -> None:
    text = "cuda_compile_ptx(PTX k.cu)\ncuda_select_nvcc_arch_flags(ARCH_FLAGS Auto)\n"
    new, rewrites = rewrite_cmake(text, ARCHS)
    assert new == text
    assert rewrites == [(1, "cuda_compile_ptx() left as is: PTX has no AMD counterpart"),
                        (2, "cuda_select_nvcc_arch_flags() left as is: nvcc target flags (HIP takes CMAKE_HIP_ARCHITECTURES)")]


# ---- 3. CUDA:: library targets ---------------------------------------------------------------

@pytest.mark.parametrize(
    "cuda, hip, package",
    [("CUDA::cudart", "hip::host", None), ("CUDA::cuda_driver", "hip::host", None), ("CUDA::cublas", "roc::hipblas", "hipblas"),
     ("CUDA::cublas_static", "roc::hipblas", "hipblas"), ("CUDA::cufft", "hip::hipfft", "hipfft"),
     ("CUDA::curand", "hip::hiprand", "hiprand"), ("CUDA::cusparse", "roc::hipsparse", "hipsparse"),
     ("CUDA::cusolver", "roc::hipsolver", "hipsolver"), ("CUDA::cublasLt", "roc::hipblaslt", "hipblaslt")],
)
def test_library_targets(cuda: str, hip: str, package: str | None) -> None:
    new, rewrites = rewrite_cmake(f"  target_link_libraries(t PUBLIC {cuda})\n", ARCHS)
    found = f"  find_package({package} REQUIRED)\n" if package else ""
    assert new == f"{found}  target_link_libraries(t PUBLIC {hip})\n"
    assert (1, f"{cuda} -> {hip}") in rewrites


@pytest.mark.parametrize("cuda", ["CUDA::nvToolsExt", "CUDA::cufftw", "CUDA::nppc"])
def test_library_targets_without_hip_package_reported(cuda: str) -> None:
    text = f"target_link_libraries(t {cuda})\n"
    assert rewrite_cmake(text, ARCHS) == (text, [(1, f"{cuda} left as is: HIP has no CMake target for it; link its HIP library by hand")])


# ---- end to end: port, then CMake builds the ported tree for gfx1100 without cass-cc ---------

PROJECTS = Path(__file__).parent / "projects"
# Debian 12's CMake 3.25. (PyPI's CMake 4.4 fails before any port is involved: with Debian's
# ROCm 5.2 a plain `project(p HIP)` stops at find_package(hip-lang), CMakeHIPInformation.cmake:115.)
CMAKES = {"debian": "/usr/bin/cmake"} if Path("/usr/bin/cmake").is_file() else {}


def _device_libs() -> Path | None:
    try:
        return Toolchain(os.environ, cache_dir=SHARED_CACHE).device_lib_dir(["gfx1100"])
    except ToolchainError:
        return None


@pytest.mark.e2e
@pytest.mark.skipif(not (CMAKES and shutil.which("hipcc")), reason="needs cmake and ROCm's hipcc")
@pytest.mark.parametrize(
    "project, program, rewritten",
    [("cmake-modern", "app", "target_link_libraries(app PRIVATE hip::host)"),
     ("cmake-legacy", "saxpy", "add_executable(saxpy saxpy.cu)"),
     ("cmake-legacy-lib", "app", "add_library(kernels STATIC vecadd.cu)"),
     ("cmake-samples-style", "app", "target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:HIP>:>)")],
)
@pytest.mark.parametrize("cmake", list(CMAKES.values()), ids=list(CMAKES))
def test_ported_project_builds_with_cmake(project: str, program: str, rewritten: str, cmake: str, tmp_path: Path,
                                          run_port) -> None:  # type: ignore[no-untyped-def]
    device_libs = _device_libs()
    if device_libs is None:
        pytest.skip("no ROCm device libraries for gfx1100")
    out = tmp_path / "out"
    result = run_port(str(PROJECTS / project), "-o", str(out))
    assert result.exit_code == 0, result.output
    lists = (out / "CMakeLists.txt").read_text()
    assert rewritten in lists
    # the only hint: the gfx11 device libraries ROCm 5.2 lacks (HIP_SETUP finds clang, ROCm, hip-lang)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_", "HIP"))}
    env["HIP_DEVICE_LIB_PATH"] = str(device_libs)
    build = tmp_path / "build"
    for argv in ([cmake, "-S", str(out), "-B", str(build)], [cmake, "--build", str(build), "--verbose"]):
        proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "clang++" in proc.stdout and "nvcc" not in proc.stdout and "hipcc" not in proc.stdout
    assert device_targets(str(build / program)) == ["gfx1100"]
