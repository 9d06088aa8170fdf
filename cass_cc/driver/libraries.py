"""The HIP counterparts of the CUDA libraries: what each is called, where its headers and its
library file are, and which package a user installs to get it. One table, read by the header
check (sources.py), the link (-lcublas, commands.py), the toolkit shim (toolkit.py) and
`cass-cc port`'s CMake rewrite.

Packages, as measured: Debian 13 (trixie) and Ubuntu 24.04 package ROCm 5.7 with rocThrust,
hipCUB, hipBLAS, hipFFT, hipSPARSE, hipRAND and hipSOLVER; Debian 12 has rocPRIM and rocRAND
only. hipBLASLt, roctracer and MIOpen come only from AMD's own ROCm repositories.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HipLibrary:
    name: str  # as AMD spells it: rocThrust, hipBLAS
    folder: str  # its headers' folder under include/ (thrust, hipblas), "" for none of its own
    lib: str  # the file name's stem: libhipblas.so -> hipblas; "" for a header-only library
    debian: str  # Debian's (and Ubuntu's) development package, "" when Debian has none
    rocm: str  # the package in AMD's ROCm repositories

    def install_hint(self) -> str:
        """Where to get it, in words: the package and the platforms that have it."""
        if self.debian:
            return (f"install {self.debian} (Debian 13 and Ubuntu 24.04 package it; Debian 12 does not) "
                    f"or {self.rocm} from AMD's ROCm")
        return f"install {self.rocm} from AMD's ROCm (no Debian release packages it)"


LIBRARIES: tuple[HipLibrary, ...] = (
    HipLibrary("rocThrust", "thrust", "", "librocthrust-dev", "rocthrust-dev"),
    HipLibrary("hipCUB", "hipcub", "", "libhipcub-dev", "hipcub-dev"),
    HipLibrary("hipBLAS", "hipblas", "hipblas", "libhipblas-dev", "hipblas-dev"),
    HipLibrary("hipBLASLt", "hipblaslt", "hipblaslt", "", "hipblaslt-dev"),
    HipLibrary("hipRAND", "hiprand", "hiprand", "libhiprand-dev", "hiprand-dev"),
    HipLibrary("hipFFT", "hipfft", "hipfft", "libhipfft-dev", "hipfft-dev"),
    HipLibrary("hipSPARSE", "hipsparse", "hipsparse", "libhipsparse-dev", "hipsparse-dev"),
    HipLibrary("hipSOLVER", "hipsolver", "hipsolver", "libhipsolver-dev", "hipsolver-dev"),
    HipLibrary("roctracer (roctx)", "roctracer", "roctx64", "", "roctracer-dev"),
    HipLibrary("MIOpen", "miopen", "MIOpen", "", "miopen-hip-dev"),
)
BY_FOLDER = {lib.folder: lib for lib in LIBRARIES if lib.folder}
BY_LIB = {lib.lib: lib for lib in LIBRARIES if lib.lib}

# CUDA library (as in -l<name>) -> the HIP library file that serves it; None: the HIP runtime
# itself, always linked.
CUDA_LIBRARIES: dict[str, str | None] = {
    "cudart": None,
    "cudart_static": None,
    "cudadevrt": None,
    "cuda": None,
    "nvrtc": None,  # hiprtc is part of libamdhip64 in ROCm 5.x
    "cublas": "hipblas",
    "cublasLt": "hipblaslt",
    "curand": "hiprand",
    "cufft": "hipfft",
    "cusparse": "hipsparse",
    "cusolver": "hipsolver",
    "nvToolsExt": "roctx64",
    "cudnn": "MIOpen",
}
