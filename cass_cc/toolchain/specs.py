"""How each tool is found and recognised, with the printout each pattern was written against."""
from __future__ import annotations

from .tool import Spec

_APT_AMD = "install it with: apt-get install clang-15 lld-15 llvm-15 llvm-15-dev hipcc libamdhip64-dev rocm-device-libs"
_APT_ASM = "install it with: apt-get install clang-16 llvm-16 llvm-16-dev lld-16 (gfx11 assembly needs LLVM 16+)"
_PIP_CUDA = "install it with: pip install nvidia-cuda-nvcc nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm"

_VERSIONED = tuple(range(20, 14, -1))


def _names(base: str, versions: tuple[int, ...] = _VERSIONED) -> tuple[str, ...]:
    return (base,) + tuple(f"{base}-{v}" for v in versions)


SPECS: dict[str, Spec] = {
    # Debian clang version 15.0.6
    # AMD clang version 17.0.0 (https://github.com/RadeonOpenCompute/llvm-project roc-6.0.0 ...)
    # `-print-targets` lists "amdgcn - AMD GCN GPUs" in a clang that can build HIP for AMD.
    "clang": Spec(
        "clang", "CASS_CLANG", _names("clang", tuple(range(15, 21))), r"clang version (\d+\.\d+\.\d+)", (14,), _APT_AMD,
        capability=(("-print-targets",), "amdgcn", "built with the AMDGPU target"),
    ),
    # HIP version: 5.2.21153-0
    "hipcc": Spec("hipcc", "CASS_HIPCC", ("hipcc",), r"HIP version: (\d+\.\d+\.\d+)", (), _APT_AMD),
    # Debian LLVM version 16.0.6
    "llvm-mc": Spec("llvm-mc", "CASS_LLVM_MC", _names("llvm-mc"), r"LLVM version (\d+\.\d+\.\d+)", (16,), _APT_ASM),
    # Debian LLVM version 16.0.6 (the SASS lifter's LLVM IR -> gfx1100 path)
    "llc": Spec("llc", "CASS_LLC", _names("llc"), r"LLVM version (\d+\.\d+\.\d+)", (16,), _APT_ASM),
    "opt": Spec("opt", "CASS_OPT", _names("opt"), r"LLVM version (\d+\.\d+\.\d+)", (16,), _APT_ASM),
    # Debian LLD 16.0.6 (compatible with GNU linkers)
    "ld.lld": Spec("ld.lld", "CASS_LD_LLD", _names("ld.lld"), r"LLD (\d+\.\d+\.\d+)", (16,), _APT_ASM),
    # Debian LLVM version 15.0.6 (names are narrowed to the clang's major at look-up)
    "llvm-dis": Spec("llvm-dis", "CASS_LLVM_DIS", ("llvm-dis",), r"LLVM version (\d+\.\d+\.\d+)", (), _APT_AMD),
    "llvm-as": Spec("llvm-as", "CASS_LLVM_AS", ("llvm-as",), r"LLVM version (\d+\.\d+\.\d+)", (), _APT_AMD),
    # g++ (Debian 12.2.0-14+deb12u1) 12.2.0
    "host-cxx": Spec("host C++ compiler", "CASS_HOST_CXX", ("g++", "c++", "clang++"), r"(?m)^\S+ \(.*\) (\d+\.\d+\.\d+)$|version (\d+\.\d+\.\d+)", (), "install it with: apt-get install g++"),
    # Cuda compilation tools, release 13.0, V13.0.88
    "nvcc": Spec("nvcc", "CASS_NVCC", ("nvcc",), r"release \d+\.\d+, V(\d+\.\d+\.\d+)", (), _PIP_CUDA),
    # Cuda compilation tools, release 13.0, V13.0.85
    "cuobjdump": Spec("cuobjdump", "CASS_CUOBJDUMP", ("cuobjdump",), r"release \d+\.\d+, V(\d+\.\d+\.\d+)", (), _PIP_CUDA),
    "nvdisasm": Spec("nvdisasm", "CASS_NVDISASM", ("nvdisasm",), r"release \d+\.\d+, V(\d+\.\d+\.\d+)", (), _PIP_CUDA),
}
