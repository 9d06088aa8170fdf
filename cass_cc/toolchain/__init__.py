"""The toolchain layer: every external tool cass-cc, cass_data and cass_train run.

    tc = Toolchain.from_env(config)
    tc.clang            # Tool for HIP-capable clang (raises ToolchainError naming the fix)
    tc.rocm.hip_version
    tc.device_lib_dir(["gfx1100"])

Discovery order per tool: CASS_<TOOL>, the installation's own folders (ROCm,
CUDA), then PATH; see tool.py. Printouts each parser was written against are in
`specs.py`.
"""
from __future__ import annotations

import functools
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

from .devlibs import device_lib_dir
from .hipclang import HipClang
from .rocm import Rocm, find_rocm
from .specs import SPECS
from .tool import Tool, ToolchainError, VersionCache, find

__all__ = ["HipClang", "Toolchain", "Tool", "ToolchainError", "Rocm"]


def wave_size(arch: str) -> int:
    """RDNA (gfx10xx, gfx11xx, gfx12xx) runs wave32 by default; GCN/CDNA are wave64."""
    return 32 if arch.startswith(("gfx10", "gfx11", "gfx12")) else 64


def _cuda_dirs(env: Mapping[str, str]) -> list[str]:
    dirs = [os.path.join(env[v], "bin") for v in ("CUDA_PATH", "CUDA_HOME", "CUDA_ROOT") if env.get(v)]
    dirs.append("/usr/local/cuda/bin")
    # PyPI's nvidia-cuda-* wheels put their binaries under site-packages/nvidia/*/bin.
    for p in sys.path:
        nv = Path(p) / "nvidia"
        if nv.is_dir():
            dirs += [str(b) for b in sorted(nv.glob("*/bin"))]
    return dirs


class Toolchain:
    def __init__(self, env: Mapping[str, str], rocm_path: str = "", cache_dir: Path | None = None):
        self.env = env
        self.rocm_path = rocm_path
        self.cache_dir = cache_dir
        self.versions = VersionCache(cache_dir / "tools.json" if cache_dir else None)
        self._tools: dict[str, Tool] = {}

    @functools.cached_property
    def rocm(self) -> Rocm:
        return find_rocm(self.env, self.rocm_path)

    def _dirs(self, name: str) -> list[str]:
        if name in ("nvcc", "cuobjdump", "nvdisasm"):
            return _cuda_dirs(self.env)
        if name in ("llvm-dis", "llvm-as"):
            return [os.path.dirname(self.clang.path)]
        if name in ("host-cxx", "host-cc"):
            return []
        try:
            return self.rocm.bin_dirs()
        except ToolchainError:
            return []

    def tool(self, name: str) -> Tool:
        if name not in self._tools:
            spec = SPECS[name]
            if name in ("llvm-dis", "llvm-as"):
                # The bitcode tools must be the clang's own LLVM version.
                major = self.clang.version[0]
                spec = spec.with_names((f"{spec.names[0]}-{major}", spec.names[0]))
            self._tools[name] = find(spec, self.env, self._dirs(name), self.versions)
        return self._tools[name]

    # The tools by name, for readable call sites.
    clang = property(lambda self: self.tool("clang"))
    hipcc = property(lambda self: self.tool("hipcc"))
    llvm_mc = property(lambda self: self.tool("llvm-mc"))
    ld_lld = property(lambda self: self.tool("ld.lld"))
    nvcc = property(lambda self: self.tool("nvcc"))
    cuobjdump = property(lambda self: self.tool("cuobjdump"))
    nvdisasm = property(lambda self: self.tool("nvdisasm"))

    def host_cxx(self, ccbin: str | None = None) -> Tool:
        """The host C++ compiler: -ccbin (a compiler or a folder holding g++), else NVCC_CCBIN
        (which nvcc reads), CUDAHOSTCXX (CMake's), CASS_HOST_CXX, then g++, c++ on PATH."""
        ccbin = ccbin or self.env.get("NVCC_CCBIN") or self.env.get("CUDAHOSTCXX")
        if not ccbin:
            return self.tool("host-cxx")
        path = ccbin
        if os.path.isdir(ccbin):
            path = next((os.path.join(ccbin, n) for n in ("g++", "c++", "clang++") if os.path.isfile(os.path.join(ccbin, n))), ccbin)
        elif os.sep not in ccbin:
            path = shutil.which(ccbin, path=self.env.get("PATH")) or ccbin
        spec = SPECS["host-cxx"]
        env = {**self.env, spec.env: path}
        return find(spec, env, [], self.versions)

    def host_cc(self, ccbin: str | None = None) -> Tool:
        """The C compiler beside the host C++ compiler (gcc for g++, clang for clang++)."""
        cxx = self.host_cxx(ccbin)
        base = os.path.basename(cxx.path)
        for cxx_name, cc_name in (("clang++", "clang"), ("g++", "gcc"), ("c++", "cc")):
            if cxx_name in base:
                sibling = os.path.join(os.path.dirname(cxx.path), base.replace(cxx_name, cc_name))
                if os.path.isfile(sibling):
                    return Tool("host-cc", sibling, cxx.version, cxx.version_text)
        return cxx  # g++ compiles C too when given -x c

    def device_lib_dir(self, archs: list[str]) -> Path:
        def optional(name: str) -> Tool | None:
            try:
                return self.tool(name)
            except ToolchainError:
                return None

        cache = self.cache_dir or Path(os.path.expanduser("~/.cache/cass-cc"))
        return device_lib_dir(self.rocm, archs, cache, optional("llvm-dis"), optional("llvm-as"))

    def hip_clang(self, archs: list[str]) -> HipClang:
        """clang for HIP with this ROCm and the device libraries for `archs` (hipclang.py spells it)."""
        return HipClang(self.clang.path, str(self.rocm.root), str(self.device_lib_dir(archs)))

    def llvm_fixes(self) -> Path | None:
        """The pass plugin that works around LLVM 15-16 AMDGPU miscompilations (llvmfix.py)."""
        from .llvmfix import llvm_fixes

        cache = self.cache_dir or Path(os.path.expanduser("~/.cache/cass-cc"))
        return llvm_fixes(self.clang, cache, self.env)

    def check(self) -> list[tuple[str, str]]:
        """(name, what was found or the error) for every tool: `cass-cc setup` prints this."""
        rows: list[tuple[str, str]] = []
        try:
            r = self.rocm
            rows.append(("rocm", f"{r.root} (HIP {r.hip_version_str}, from {r.origin})"))
        except ToolchainError as e:
            rows.append(("rocm", f"MISSING: {e}"))
        for name in SPECS:
            try:
                t = self.tool(name)
                rows.append((name, f"{t.path} ({t.version_str})"))
            except ToolchainError as e:
                rows.append((name, f"MISSING: {e}"))
        try:
            guard = self.llvm_fixes()
            rows.append(("llvm-fixes", str(guard) if guard else "off (CASS_CC_NO_LLVM_FIXES=1)"))
        except ToolchainError as e:
            rows.append(("llvm-fixes", f"MISSING: {e}"))
        return rows
