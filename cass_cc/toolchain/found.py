"""The toolchain as plain data: what the evaluation, the data pipeline and `cass-cc verify` hand to
worker processes (a Toolchain finds tools lazily and holds handles; this is its picklable answer).

    found = Found.find(env)          # once, in the parent process
    found.clang, found.nvcc, ...     # each tool's path, "" where it is not here
    found.hip_clang()                # the clang-for-HIP command line's owner (hipclang.py)

The one record of the toolchain for cass_train, cass_data and verify; what each adds of its own
(a GPU being here, the HIP-on-NVIDIA folder) sits beside it, not in it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from .hipclang import HipClang

# tool name (Toolchain.tool's) -> the field holding its path
TOOLS = {"nvcc": "nvcc", "cuobjdump": "cuobjdump", "nvdisasm": "nvdisasm", "clang": "clang", "hipcc": "hipcc",
         "opt": "opt", "llc": "llc", "llvm-mc": "llvm_mc", "ld.lld": "ld_lld"}


@dataclass(frozen=True)
class Found:
    nvcc: str = ""
    cuobjdump: str = ""
    nvdisasm: str = ""
    clang: str = ""  # HIP's clang, with rocm and device_libs below (all three or none)
    hipcc: str = ""
    opt: str = ""
    llc: str = ""
    llvm_mc: str = ""
    ld_lld: str = ""
    versions: tuple[tuple[str, str], ...] = ()  # (tool, its version line)
    rocm: str = ""
    device_libs: str = ""  # the gfx1100 device libraries (toolchain/devlibs.py)
    hip_version: tuple[int, int] = (5, 2)
    why_no_hip: str = ""
    why_no_nvcc: str = ""
    extra_cuda_includes: tuple[str, ...] = field(default=())  # CUDA library headers nvcc's toolkit may lack

    def path(self, tool: str) -> str:
        return str(getattr(self, TOOLS[tool]))

    def has(self, tool: str) -> bool:
        return bool(self.path(tool))

    def version(self, tool: str) -> str:
        return dict(self.versions).get(tool, "")

    def hip_clang(self) -> HipClang:
        return HipClang(self.clang, self.rocm, self.device_libs)

    def without_hip(self, why: str) -> Found:
        return replace(self, clang="", rocm="", device_libs="", why_no_hip=why)

    @classmethod
    def find(cls, env: Mapping[str, str], tools: tuple[str, ...] = tuple(TOOLS), amd: bool = True) -> Found:
        """Each of `tools` through cass-cc's toolchain layer (settings, PATH, ROCm's layout);
        `amd=False` leaves HIP's clang out (a machine that only builds CUDA)."""
        from ..config import ConfigError, load
        from . import Toolchain, ToolchainError

        try:
            config = load(env=env)
            tc = Toolchain(env, config.rocm_path, config.cache_path(env))
        except (ConfigError, ToolchainError) as e:
            return cls(why_no_hip=str(e), why_no_nvcc=str(e), extra_cuda_includes=cuda_library_includes())
        paths: dict[str, str] = {}
        versions: list[tuple[str, str]] = []
        whys: dict[str, str] = {}
        for name in tools:
            if name == "clang" and not amd:
                continue
            try:
                tool = tc.tool(name)
                paths[TOOLS[name]] = tool.path
                versions.append((name, f"{name} {tool.version_str}"))
            except (ToolchainError, OSError) as e:
                whys[name] = str(e).splitlines()[0] if str(e) else f"no {name}"
        found = cls(**paths, versions=tuple(versions), why_no_nvcc=whys.get("nvcc", ""),
                    extra_cuda_includes=cuda_library_includes())
        if not found.clang:
            return found.without_hip(whys.get("clang", "no HIP clang" if amd else "not asked for"))
        try:
            return replace(found, rocm=str(tc.rocm.root), device_libs=str(tc.device_lib_dir(["gfx1100"])),
                           hip_version=tuple(tc.rocm.hip_version[:2]),  # type: ignore[arg-type]
                           versions=found.versions + (("hip", "HIP " + ".".join(map(str, tc.rocm.hip_version))),))
        except (ToolchainError, OSError) as e:
            return found.without_hip(str(e).splitlines()[0] if str(e) else "no HIP installation")


def cuda_library_includes() -> tuple[str, ...]:
    """The include folder of the nvidia-curand wheel (curand_kernel.h), which nvcc's own
    toolkit may lack. Only that header's folder: other wheels' folders hold CUDA headers of
    other versions that must not shadow the toolkit's."""
    found: list[str] = []
    try:
        import nvidia  # type: ignore[import-not-found]
    except ImportError:
        return ()
    for base in getattr(nvidia, "__path__", []):
        for header in sorted(Path(base).glob("*/include/curand_kernel.h")):
            if str(header.parent) not in found:
                found.append(str(header.parent))
    return tuple(found[:1])
