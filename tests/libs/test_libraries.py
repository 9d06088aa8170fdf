"""The CUDA libraries end to end (issue 23): each program of tests/libs/programs, plain CUDA that
checks itself, built by cass-cc for gfx1100 against the HIP library that serves it.

These run where the HIP libraries are installed: the Debian 13 root with ROCm 5.7
(`scripts/trixie_root.sh test tests/libs`, which CI runs). On Debian 12 they are skipped, and
tests/driver/test_errors.py checks the one-line refusal there instead. The programs' agreement
with CUDA on an NVIDIA GPU (cass-cc verify on the H100) is in bench/results/libraries.md. Their
own kernels, which call no library function at run time (hipCUB's collectives and rocThrust's
functors are compiled into them), run here on the gfx1100 emulator against NumPy.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

import numpy as np
import pytest

from cass_cc.driver.libraries import BY_FOLDER, CUDA_LIBRARIES
from cass_cc.toolchain.bundle import code_objects, kernel_names
from cass_cc.toolchain.rocm import find_rocm
from cass_cc.toolchain.tool import ToolchainError
from tests.conftest import SHARED_CACHE, built_once, run_cass

PROGRAMS = Path(__file__).with_name("programs")
# program -> (the HIP library's header folder, the CUDA library it links)
FAMILIES = {
    "thrust": ("thrust", None), "cub": ("hipcub", None), "curand": ("hiprand", "curand"),
    "cublas": ("hipblas", "cublas"), "cufft": ("hipfft", "cufft"), "cusparse": ("hipsparse", "cusparse"),
    "cusolver": ("hipsolver", "cusolver"),
}


@functools.lru_cache(maxsize=None)
def _include_dir() -> Path | None:
    try:
        return find_rocm(os.environ).root / "include"
    except ToolchainError:
        return None


def _needs(folder: str) -> None:
    include = _include_dir()
    if include is None or not (include / folder).is_dir():
        pytest.skip(f"{BY_FOLDER[folder].name} is not installed here ({BY_FOLDER[folder].install_hint()})")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    env["CASS_CACHE_DIR"] = str(SHARED_CACHE)
    return env


def _build(name: str) -> tuple[Path, str]:
    """The program built once per run by `cass-cc -O2 NAME.cu -o NAME [-lLIB]`, and cass-cc's stderr."""
    folder, library = FAMILIES[name]
    _needs(folder)
    flags = [f"-l{library}"] if library else []
    stderr: list[str] = []

    def build(out: Path) -> None:
        proc = run_cass(["-O2", str(PROGRAMS / f"{name}.cu"), "-o", str(out), *flags], PROGRAMS, _env())
        assert proc.returncode == 0, proc.stderr
        out.with_name(out.name.split(".tmp")[0] + ".stderr").write_text(proc.stderr)
        stderr.append(proc.stderr)

    # built once per test run (xdist's workers share it), never reused from an earlier run
    key = "libs-" + os.environ.get("PYTEST_XDIST_TESTRUNUID", str(os.getpid()))
    binary = built_once(SHARED_CACHE, name, key, build)
    log = binary.with_name(f"{name}.stderr")
    return binary, log.read_text() if log.exists() else "".join(stderr)


def _needed(binary: Path) -> set[str]:
    from elftools.elf.dynamic import DynamicSection
    from elftools.elf.elffile import ELFFile

    with open(binary, "rb") as f:
        elf = ELFFile(f)
        return {tag.needed for s in elf.iter_sections() if isinstance(s, DynamicSection)
                for tag in s.iter_tags() if tag.entry.d_tag == "DT_NEEDED"}


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_library_program_builds_for_gfx1100_and_links_its_hip_library(name: str) -> None:
    binary, stderr = _build(name)
    assert stderr == "", stderr  # no warning: the program is plain, correct CUDA
    if "__global__" in (PROGRAMS / f"{name}.cu").read_text():  # kernels of its own: gfx1100 code
        assert "gfx1100" in {e.target for e in code_objects(str(binary))}
    needed = _needed(binary)
    assert any(n.startswith("libamdhip64.so") for n in needed), needed
    library = FAMILIES[name][1]
    if library:
        assert any(n.startswith(f"lib{CUDA_LIBRARIES[library]}.so") for n in needed), needed


def _kernel(binary: Path, tmp_path: Path, name: str):
    from cass_cc.emu import load

    entry = next(e for e in code_objects(str(binary)) if e.target == "gfx1100")
    path = tmp_path / "gfx1100.co"
    path.write_bytes(entry.data)
    mangled = next(k for k in kernel_names(entry.data) if name in k)
    return load(str(path)), mangled


def test_thrust_programs_own_kernel_on_the_emulator(tmp_path: Path) -> None:
    from cass_cc.emu import launch

    binary, _ = _build("thrust")
    co, kernel = _kernel(binary, tmp_path, "affine_kernel")
    data = np.arange(-500, 503, dtype=np.int32)
    (out,) = launch(co, kernel, grid=4, block=256, args=[data, np.int32(data.size), np.int32(3), np.int32(-7)])
    np.testing.assert_array_equal(out, data * 3 - 7)


def test_cub_block_and_warp_collectives_on_the_emulator(tmp_path: Path) -> None:
    """hipCUB's BlockReduce, BlockScan and WarpReduce<int, 32> with their shared temp storage."""
    from cass_cc.emu import launch

    binary, _ = _build("cub")
    co, kernel = _kernel(binary, tmp_path, "block_kernel")
    blocks, n = 3, 3 * 256 - 37
    values = np.random.default_rng(23).integers(-100, 101, n).astype(np.int32)
    block_sums, scanned, warp_sums = (np.zeros(blocks, np.int32), np.zeros(n, np.int32),
                                      np.zeros(blocks * 8, np.int32))
    _, block_sums, scanned, warp_sums = launch(co, kernel, grid=blocks, block=256,
                                               args=[values, block_sums, scanned, warp_sums, np.int32(n)])
    padded = np.concatenate([values, np.zeros(blocks * 256 - n, np.int32)]).reshape(blocks, 256)
    np.testing.assert_array_equal(block_sums, padded.sum(axis=1))
    exclusive = np.cumsum(padded, axis=1) - padded
    np.testing.assert_array_equal(scanned, exclusive.reshape(-1)[:n])
    np.testing.assert_array_equal(warp_sums, padded.reshape(blocks * 8, 32).sum(axis=1))


def test_curand_device_philox_states_on_the_emulator(tmp_path: Path) -> None:
    """hipRAND's Philox4x32-10 device state (curand_init, curand_uniform4): rocRAND's sequence is
    not cuRAND's, so what holds for both is checked: every value in (0, 1], mean and variance of
    the uniform distribution, and different threads' streams differ."""
    from cass_cc.emu import launch

    binary, _ = _build("curand")
    co, kernel = _kernel(binary, tmp_path, "philox_kernel")
    threads, per_thread = 256, 8
    out = np.zeros((per_thread, threads, 4), np.float32)
    (values,) = launch(co, kernel, grid=1, block=threads, args=[np.uint64(1234), np.int32(per_thread), out])
    assert values.min() > 0 and values.max() <= 1
    assert abs(values.mean() - 0.5) < 0.01 and abs(values.var() - 1 / 12) < 0.005
    assert len({tuple(values[0, t]) for t in range(threads)}) == threads


def test_cmake_project_links_cuda_library_targets_to_the_hip_libraries(tmp_path: Path) -> None:
    """FindCUDAToolkit's CUDA::cublas, CUDA::cufft ... through cmake/cass-cc.cmake: each program
    links its HIP library."""
    import shutil
    import subprocess

    from tests.cmake.test_cmake import PROJECTS, TOOLCHAIN_FILE

    for folder, _ in FAMILIES.values():
        _needs(folder)
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("needs cmake")
    env = {k: v for k, v in _env().items() if k not in ("CUDACXX", "CUDAHOSTCXX")}
    env["PATH"] = f"{Path(__file__).resolve().parents[2] / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    configure = subprocess.run([cmake, "-S", str(PROJECTS / "libraries"), "-B", str(tmp_path),
                                f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN_FILE}"], env=env, capture_output=True, text=True)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    built = subprocess.run([cmake, "--build", str(tmp_path), "-j2"], env=env, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    for name, (_, library) in FAMILIES.items():
        needed = _needed(tmp_path / f"{name}_program")
        if library:
            assert any(n.startswith(f"lib{CUDA_LIBRARIES[library]}.so") for n in needed), (name, needed)
        if "__global__" in (PROGRAMS / f"{name}.cu").read_text():
            assert "gfx1100" in {e.target for e in code_objects(str(tmp_path / f"{name}_program"))}


BF16_PROGRAM = """#include <cuda_bf16.h>
__global__ void k(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { __nv_bfloat16 a = __float2bfloat16(in[i]); __nv_bfloat162 p = __floats2bfloat162_rn(in[i], 2.0f);
    out[i] = __bfloat162float(__hmul(a, __low2bfloat16(p))) + __bfloat162float(__hfma(a, a, __high2bfloat16(p))); }
}
"""


def test_bf16_program_builds_without_a_word_on_the_installed_hip(tmp_path: Path) -> None:
    """HIP 5.7's hip_bf16.h has a part of cuda_bf16.h's API only: cass-cc's stand-in serves the rest
    (on 5.2, which has no hip_bf16.h, all of it)."""
    if _include_dir() is None:
        pytest.skip("no HIP installation here")
    (tmp_path / "bf.cu").write_text(BF16_PROGRAM)
    proc = run_cass(["-c", "bf.cu", "-o", "bf.o"], tmp_path, _env())
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert "gfx1100" in {e.target for e in code_objects(str(tmp_path / "bf.o"))}


def test_curand_device_xorwow_states_on_the_emulator(tmp_path: Path) -> None:
    """hipRAND's default device state (curandState: XORWOW, curand_init with a subsequence per
    thread, curand_uniform, curand_normal): the uniform values in (0, 1], both distributions' mean and
    spread, and distinct streams per thread. Fixed seed: the same values every run."""
    from cass_cc.emu import launch

    binary, _ = _build("curand")
    co, kernel = _kernel(binary, tmp_path, "xorwow_kernel")
    threads, per_thread = 256, 16
    uniform, normal = np.zeros((per_thread, threads), np.float32), np.zeros((per_thread, threads), np.float32)
    uniform, normal = launch(co, kernel, grid=1, block=threads, args=[np.uint64(1234), np.int32(per_thread), uniform, normal])
    assert uniform.min() > 0 and uniform.max() <= 1
    assert abs(uniform.mean() - 0.5) < 0.02 and abs(uniform.var() - 1 / 12) < 0.01
    assert abs(normal.mean()) < 0.06 and abs(normal.std() - 1) < 0.05
    assert len({tuple(uniform[:, t]) for t in range(threads)}) == threads
