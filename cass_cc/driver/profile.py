"""What nvcc prints from its nvcc.profile under -v: where "the CUDA toolkit" is.

Build systems read these lines. CMake runs `nvcc -v __cmake_determine_cuda` and takes
`TOP=` (the toolkit root), `NVVMIR_LIBRARY_DIR=` (must end in nvvm/libdevice),
`INCLUDES=` and `LIBRARIES=`; from the compiler-id build it takes the link line holding
the LIBRARIES text (its implicit link libraries) and `-arch compute_NN` (its default
CUDA architecture). Ours name the generated shim toolkit (cass_cc/driver/toolkit.py), so
CMake's CUDA language and FindCUDAToolkit land on HIP.
"""
from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..nvcc import targets as nvcc_targets


# A linker script in the toolkit's lib64 holding LLVM's OpenMP runtime AS_NEEDED (driver/toolkit.py).
OPENMP_SCRIPT = "cass_openmp"


def library_flags(toolkit: Path) -> list[str]:
    """The `-L` flags nvcc's LIBRARIES= names; every link carries them, in this order."""
    return [f"-L{toolkit / 'lib64' / 'stubs'}", f"-L{toolkit / 'lib64'}"]


def link_flags(toolkit: Path) -> list[str]:
    """What every link takes from the toolkit: LIBRARIES=, then the OpenMP script where there is one.
    A .cu file compiled with -Xcompiler -fopenmp calls LLVM's OpenMP runtime (clang's __kmpc_*); a
    link by another driver (CMake links CUDA executables with the host compiler, whose -fopenmp
    brings gcc's libgomp) finds it through the libraries CMake reads from this link line. AS_NEEDED,
    it is taken only where an object calls it."""
    flags = library_flags(toolkit)
    if (toolkit / "lib64" / f"lib{OPENMP_SCRIPT}.so").is_file():
        flags.append(f"-l{OPENMP_SCRIPT}")
    return flags


def lines(toolkit: Path, env: Mapping[str, str]) -> list[str]:
    bin_dir = toolkit / "bin"
    path = os.pathsep.join(p for p in (str(bin_dir), env.get("PATH", "")) if p)
    return [
        "_NVVM_BRANCH_=nvvm",
        "_SPACE_= ",
        "_CUDART_=cudart",
        f"_HERE_={bin_dir}",
        f"_THERE_={bin_dir}",
        "_TARGET_SIZE_=",
        "_TARGET_DIR_=",
        f"TOP={toolkit}",
        f"NVVMIR_LIBRARY_DIR={toolkit / 'nvvm' / 'libdevice'}",
        f"PATH={path}",
        f"INCLUDES={shlex.join(['-I' + str(toolkit / 'include')])}  ",
        f"LIBRARIES=  {shlex.join(library_flags(toolkit))}",
        "CUDAFE_FLAGS=",
        "PTXAS_FLAGS=",
    ]


def target_note(targets: Sequence[str], archs: Sequence[str]) -> str:
    """The NVIDIA targets a compile stands for, in nvcc's `-arch compute_NN` spelling
    (CMake takes its default CUDA_ARCHITECTURES from it), and the AMD ones built."""
    numbers = []
    for t in targets:
        m = nvcc_targets.NVIDIA.match(t)
        if m and m[2] not in numbers:
            numbers.append(m[2])
    if not numbers:
        numbers = [str(nvcc_targets.DEFAULT_CUDA_ARCH // 10)]
    named = " ".join(f"-arch compute_{n}" for n in numbers)
    return f"GPU targets: {named} -> {' '.join('--offload-arch=' + a for a in archs)}"


def print_lines(toolkit: Path, env: Mapping[str, str]) -> None:
    import sys

    for line in lines(toolkit, env):
        print("#$ " + line, file=sys.stderr)
    sys.stderr.flush()
