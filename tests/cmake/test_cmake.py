"""CMake CUDA projects, unmodified, built for gfx1100 through cmake/cass-cc.cmake with
Debian's CMake 3.25 and the newest CMake from PyPI (installed by scripts/install.sh --test
into .tools/cmake)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.toolchain.bundle import code_objects, kernel_names
from tests.conftest import ROOT, needs_clang

PROJECTS = Path(__file__).parent / "projects"
TOOLCHAIN_FILE = ROOT / "cmake" / "cass-cc.cmake"
PYPI_CMAKE = ROOT / ".tools" / "cmake" / "cmake" / "data" / "bin" / "cmake"


def _cmakes() -> list:
    found = []
    system = shutil.which("cmake")
    found.append(pytest.param(system, id="cmake-system", marks=pytest.mark.skipif(not system, reason="no cmake")))
    found.append(pytest.param(str(PYPI_CMAKE), id="cmake-pypi",
                              marks=pytest.mark.skipif(not PYPI_CMAKE.exists(), reason="run scripts/install.sh --test")))
    return found


def cmake_build(cmake: str, project: str, build: Path, env: dict[str, str], *defines: str) -> str:
    """Configure and build; returns the configure output."""
    configure = subprocess.run(
        [cmake, "-S", str(PROJECTS / project), "-B", str(build), f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN_FILE}", *defines],
        env=env, capture_output=True, text=True,
    )
    assert configure.returncode == 0, configure.stdout + configure.stderr
    built = subprocess.run([cmake, "--build", str(build), "-j2"], env=env, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    return configure.stdout


def kernels(path: Path) -> dict[str, list[str]]:
    return {e.target: kernel_names(e.data) for e in code_objects(str(path))}


@pytest.fixture
def cmake_env(cass_env: dict[str, str]) -> dict[str, str]:
    env = dict(cass_env)
    env.pop("CUDACXX", None)
    env.pop("CUDAHOSTCXX", None)
    return env


@pytest.mark.e2e
@needs_clang
@pytest.mark.parametrize("cmake", _cmakes())
def test_static_library_with_separable_compilation_and_ctest(cmake: str, tmp_path: Path, cmake_env: dict[str, str]) -> None:
    out = cmake_build(cmake, "static-sep", tmp_path, cmake_env)
    assert re.search(r"The CUDA compiler identification is NVIDIA \d+\.\d+", out), out
    # the kernel lives in the static library; its device function in another file of it
    assert kernels(tmp_path / "sim") == {"gfx1100": ["_Z4stepPfS_if"]}
    assert (tmp_path / "libphysics.a").is_file()
    ctest = Path(cmake).with_name("ctest")
    proc = subprocess.run([str(ctest), "--output-on-failure"], cwd=tmp_path, env=cmake_env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"100% tests passed,? (0 tests failed )?out of 2", proc.stdout), proc.stdout


@pytest.mark.e2e
@needs_clang
@pytest.mark.parametrize("cmake", _cmakes())
def test_find_package_cudatoolkit_with_host_cpp_calling_cudamalloc(cmake: str, tmp_path: Path, cmake_env: dict[str, str]) -> None:
    out = cmake_build(cmake, "toolkit-host", tmp_path, cmake_env, "-DCMAKE_CUDA_ARCHITECTURES=80;86")
    toolkit = re.search(r"CUDAToolkit \S+ at (\S+)/bin, headers in (\S+)", out)
    assert toolkit, out
    assert (Path(toolkit[1]) / "bin" / "nvcc").is_file() and Path(toolkit[2]) == Path(toolkit[1]) / "include"
    assert kernels(tmp_path / "scale") == {"gfx1100": ["_Z12scale_kernelPffi"]}
    for exe in ("scale", "devices"):  # the .cpp files were compiled by g++ and call HIP
        symbols = subprocess.run(["nm", "-D", "--undefined-only", str(tmp_path / exe)], capture_output=True, text=True).stdout
        assert "hipGetDeviceCount" in symbols or "hipMalloc" in symbols, exe
        assert "cudaMalloc" not in symbols and "cudaGetDeviceCount" not in symbols
    proc = subprocess.run([str(tmp_path / "devices")], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("devices: ")


@pytest.mark.e2e
@needs_clang
@pytest.mark.parametrize("cmake", _cmakes())
def test_shared_library_for_all_architectures(cmake: str, tmp_path: Path, cmake_env: dict[str, str]) -> None:
    cmake_build(cmake, "shared-lib", tmp_path, cmake_env)
    assert kernels(tmp_path / "libhisto.so") == {"gfx1100": ["_Z12histo_kernelPKhiPj"]}
    needed = subprocess.run(["readelf", "-d", str(tmp_path / "count")], capture_output=True, text=True).stdout
    assert "libhisto.so" in needed
    proc = subprocess.run([str(tmp_path / "count")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.e2e
@needs_clang
def test_amd_targets_chosen_in_the_toolchain_file(tmp_path: Path, cmake_env: dict[str, str]) -> None:
    """-DCASS_OFFLOAD_ARCH picks the AMD targets; the project's NVIDIA numbers stay as written."""
    cmake = shutil.which("cmake")
    if not cmake:
        pytest.skip("no cmake")
    cmake_build(cmake, "shared-lib", tmp_path, cmake_env, "-DCASS_OFFLOAD_ARCH=gfx1100;gfx1030")
    assert sorted(kernels(tmp_path / "libhisto.so")) == ["gfx1030", "gfx1100"]


@needs_clang
def test_native_without_an_amd_gpu_is_nvcc_s_warning_and_the_default(tmp_path: Path, cass_env: dict[str, str]) -> None:
    if list(Path("/sys/class/kfd/kfd/topology/nodes").glob("*/properties")):
        pytest.skip("this machine has an AMD GPU")
    from tests.conftest import run_cass

    (tmp_path / "k.cu").write_text("__global__ void k(int* x) { x[0] = 1; }\n")
    proc = run_cass(["-arch=native", "--cubin", "k.cu", "-o", "k.co"], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stderr
    assert "Cannot find valid GPU for '-arch=native', default arch is used" in proc.stderr
    from cass_cc.toolchain.bundle import code_object_target

    assert code_object_target((tmp_path / "k.co").read_bytes()) == "gfx1100"


@needs_clang
def test_verbose_names_the_toolkit_as_cmake_reads_it(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """`nvcc -v __cmake_determine_cuda` fails, but first prints where the toolkit is."""
    from tests.conftest import run_cass

    proc = run_cass(["-v", "__cmake_determine_cuda"], tmp_path, cass_env)
    assert proc.returncode == 1
    assert proc.stderr.rstrip().endswith("nvcc fatal   : Don't know what to do with '__cmake_determine_cuda'")
    values = dict(line[3:].split("=", 1) for line in proc.stderr.splitlines() if line.startswith("#$ ") and "=" in line)
    top = Path(values["TOP"])
    assert (top / "bin" / "nvcc").is_file() and (top / "include" / "cuda_runtime.h").is_file()
    assert values["NVVMIR_LIBRARY_DIR"].endswith("nvvm/libdevice") and Path(values["NVVMIR_LIBRARY_DIR"]).is_dir()
    assert values["INCLUDES"].strip() == f"-I{top / 'include'}"
    assert values["LIBRARIES"].split() == [f"-L{top / 'lib64' / 'stubs'}", f"-L{top / 'lib64'}"]
    assert os.access(top / "lib64" / "stubs" / "libcuda.so", os.R_OK)


@pytest.mark.e2e
@needs_clang
def test_a_library_hip_lacks_is_named_at_link_not_at_configure(tmp_path: Path, cmake_env: dict[str, str]) -> None:
    """CUDA::cublas with no hipBLAS installed, CUDA::nppc with no HIP counterpart at all: CMake's
    FindCUDAToolkit makes both targets (no "target not found" at configure); the link stops
    with cass-cc's reason, naming the library."""
    cmake = shutil.which("cmake")
    if cmake is None or Path("/usr/lib/x86_64-linux-gnu/libhipblas.so").exists():
        pytest.skip("needs cmake, and no hipBLAS installed")
    configure = subprocess.run([cmake, "-S", str(PROJECTS / "missing-library"), "-B", str(tmp_path),
                                f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN_FILE}"], env=cmake_env, capture_output=True, text=True)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    built = subprocess.run([cmake, "--build", str(tmp_path)], env=cmake_env, capture_output=True, text=True)
    assert built.returncode != 0
    log = built.stdout + built.stderr
    assert "cass-cc: -lcublas needs hipBLAS (libhipblas), which is not installed" in log, log


@pytest.mark.e2e
@needs_clang
def test_openmp_in_a_cu_file_links_llvms_runtime_only_where_called(tmp_path: Path, cmake_env: dict[str, str]) -> None:
    """CMake links CUDA executables with the host compiler; clang's OpenMP calls in a .cu file need
    LLVM's libomp, which the toolkit's link line offers AS_NEEDED: taken by the OpenMP program,
    not by the plain one. The OpenMP program runs (host code only) and computes its sum."""
    from elftools.elf.dynamic import DynamicSection
    from elftools.elf.elffile import ELFFile

    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("needs cmake")
    cmake_build(cmake, "openmp", tmp_path, cmake_env)

    def needed(name: str) -> set[str]:
        with open(tmp_path / name, "rb") as f:
            return {t.needed for s in ELFFile(f).iter_sections() if isinstance(s, DynamicSection)
                    for t in s.iter_tags() if t.entry.d_tag == "DT_NEEDED"}

    assert any(n.startswith("libomp") for n in needed("omp_cu")), needed("omp_cu")
    assert not any(n.startswith(("libomp", "libgomp")) for n in needed("plain_cu")), needed("plain_cu")
    run = subprocess.run([str(tmp_path / "omp_cu")], capture_output=True, text=True, env={**cmake_env, "OMP_NUM_THREADS": "2"})
    assert run.returncode == 0 and run.stdout.strip() == "499500", run.stdout + run.stderr
