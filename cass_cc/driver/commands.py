"""Command lines for the tools the driver runs, built from an Invocation.

Each function returns argv only; running, -v printing and atomic outputs are
build.py's job. nvcc meanings mapped to clang's HIP driver:

  -O<n>            host optimisation; device code is -O3 unless -G (as nvcc/ptxas do)
  -g / -G          host debug info / device debug info (device -O0)
  -lineinfo        device line tables
  --use_fast_math  -ffast-math (ftz, approximate div/sqrt, contraction)
  -rdc=true / -dc  -fgpu-rdc
  -std             passed through; nvcc's default dialect is C++17
  --default-stream per-thread   -fgpu-default-stream=per-thread
  --expt-relaxed-constexpr, --extended-lambda: clang's HIP mode does both by default
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .. import CUDA_COMPAT_VERSION
from ..nvcc.invocation import Invocation, Lang
from ..nvcc.targets import cuda_arch
from ..toolchain import Rocm, hipclang
from ..toolchain.hipclang import HipClang
from ..util import sha256_hex
from .libraries import BY_LIB, CUDA_LIBRARIES

# What nvcc predefines that CUDA sources and their headers test for. `__CUDACC__`
# guards `__host__ __device__` macros in headers shared with .cpp files, so it must
# be set.
_CUDA_MACROS = ("__CUDACC__",)
_MAJOR, _MINOR, _BUILD = CUDA_COMPAT_VERSION.split(".")

# nvcc does not warn about ignored cudaError_t results; HIP 5.2 marks hipMalloc & co
# [[nodiscard]], which would flood a CUDA build with warnings the user cannot act on.
_QUIET = ("-Wno-unused-result",)
# Functions HIP's headers define without `inline` or `static` (HIP 5.2's cooperative groups:
# coalesced_group's masked_bit_count): with -fgpu-rdc, two objects that include the header
# both define the symbol and the device link fails. Each object gets its own name for it.
RDC_HEADER_FUNCTIONS = ("masked_bit_count",)
# Defines __NVCC__ after HIP has chosen its platform (see the header).
NVCC_PREDEFS = Path(__file__).parent / "include" / "cass_nvcc.h"

_ONLY_BRACKETS = bytes(c for c in range(256) if c not in b"()[]{}")
_OPENERS = bytes.maketrans(b"[{]}", b"(())")  # every opener becomes "(", every closer ")"


def bracket_depth(source: bytes) -> int:
    """The deepest nesting of (), [] and {} in a source, counted together as clang does
    (brackets in comments and strings count too: that can only raise the limit). With few
    brackets, their number: a bound that needs no scan."""
    kept = source.translate(_OPENERS, _ONLY_BRACKETS)
    if kept.count(b"(") <= hipclang.BRACKET_DEPTH // 2:
        return kept.count(b"(")
    depth = deepest = 0
    for c in kept:
        depth = depth + 1 if c == 0x28 else max(depth - 1, 0)
        deepest = max(deepest, depth)
    return deepest


def common_flags(inv: Invocation) -> list[str]:
    """Preprocessor and language flags shared by the HIP and host compiles."""
    flags: list[str] = []
    for d in inv.defines:
        flags.append(f"-D{d}")
    for u in inv.undefines:
        flags.append(f"-U{u}")
    for i in inv.include_dirs:
        flags.append(f"-I{i}")
    for i in inv.system_include_dirs:
        flags += ["-isystem", i]
    for i in inv.pre_includes:
        flags += ["-include", i]
    if inv.opt is not None:
        flags.append(f"-O{inv.opt}")
    if inv.no_warnings:
        flags.append("-w")
    if "all-warnings" in inv.werror:  # nvcc -Werror all-warnings: every warning is an error
        flags.append("-Werror")
    if inv.machine == 64:
        flags.append("-m64")
    return flags


def hip_compile(
    inv: Invocation,
    src: str,
    out: str,
    *,
    hip: HipClang,
    archs: list[str],
    include_flags: list[str],
    mode: Sequence[str],
    llvm_fixes: Path | None = None,
    bracket_depth: int = 0,
) -> list[str]:
    """clang's HIP driver on one .hip file, as nvcc's command line asks. `mode` is e.g. OBJECT,
    PREPROCESS, DEVICE_ASM (toolchain/hipclang.py). `llvm_fixes`: the pass plugin
    (toolchain/llvmfix.py). `bracket_depth`: the source's own nesting (bracket_depth())."""
    flags = [f"-std={inv.std or 'c++17'}"]
    flags += [f"-D{m}" for m in _CUDA_MACROS]
    flags += [f"-D__CUDACC_VER_MAJOR__={_MAJOR}", f"-D__CUDACC_VER_MINOR__={_MINOR}", f"-D__CUDACC_VER_BUILD__={_BUILD}"]
    flags += ["-include", str(NVCC_PREDEFS)]
    # As with nvcc, device code (only) sees __CUDA_ARCH__: `#ifdef __CUDA_ARCH__` splits
    # host from device paths in CUDA sources and headers.
    flags += hipclang.device_only(f"-D__CUDA_ARCH__={cuda_arch(inv.targets)}")
    # Quoted includes resolve beside the user's .cu file (and its translated headers
    # first), not beside the cached .hip.
    flags += include_flags
    flags += common_flags(inv)
    flags += device_flags(inv)
    flags += hip_defines(inv.defines)
    if inv.rdc:
        flags.append(hipclang.RDC)
        flags += [f"-D{name}={name}_{sha256_hex(src)[:12]}" for name in RDC_HEADER_FUNCTIONS]
    flags += inv.host_args
    flags += list(_QUIET)  # after -Xcompiler flags: a later -Wall would turn it back on
    flags += hipclang.bracket_flags(bracket_depth)
    return hip.command(src, out, archs=archs, mode=mode, flags=flags, plugin=llvm_fixes)


def hip_defines(defines: list[str]) -> list[str]:
    """-D of CUDA macros that have HIP counterparts (e.g. __CUDA_NO_HALF_OPERATORS__ ->
    __HIP_NO_HALF_OPERATORS__), from the mapping tables, next to the user's own."""
    from ..translate import mappings

    out = []
    for d in defines:
        name, eq, value = d.partition("=")
        row = mappings.lookup(name)
        if row is not None and row.kind == "macro" and row.hip_name and row.hip_name != name:
            out.append(f"-D{row.hip_name}{eq}{value}")
    return out


def device_flags(inv: Invocation) -> list[str]:
    flags: list[str] = []
    if inv.device_debug:
        flags += [*hipclang.device_only("-g"), *hipclang.device_only("-O0")]
    else:
        flags += hipclang.device_only("-O3")
        if inv.lineinfo:
            flags += hipclang.device_only("-gline-tables-only")
    if inv.debug:
        flags += hipclang.host_only("-g")
    if inv.fast_math:
        flags.append("-ffast-math")
    if inv.ftz:
        flags.append("-fgpu-flush-denormals-to-zero")
    if inv.fmad is False:
        flags.append("-ffp-contract=off")
    if inv.default_stream == "per-thread":
        flags.append("-fgpu-default-stream=per-thread")
    return flags


def host_compile(
    inv: Invocation, compiler: str, src: str, lang: Lang, out: str, mode: list[str], include_flags: Sequence[str] = ()
) -> list[str]:
    """A .c/.cpp input, compiled by the host compiler as nvcc does, seeing the HIP headers."""
    cmd = [compiler]
    if lang is Lang.C:
        cmd += ["-x", "c"]
    elif lang is Lang.ASM:
        pass  # the suffix (.s or .S) tells the compiler
    else:
        cmd += ["-x", "c++"]
        if inv.std:
            cmd.append(f"-std={inv.std}")
    cmd += ["-D__HIP_PLATFORM_AMD__"]
    cmd += include_flags  # a translated host file: its folder and translated headers
    cmd += mode
    cmd += common_flags(inv)
    if inv.debug:
        cmd.append("-g")
    cmd += inv.host_args
    if include_flags:
        cmd += list(_QUIET)
    cmd += [src, "-o", out]
    return cmd


def library_dirs(rocm: Rocm) -> list[str]:
    dirs = [str(rocm.lib_dir)]
    for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"):
        if d not in dirs and os.path.isdir(d):
            dirs.append(d)
    return dirs


def map_library(name: str, rocm: Rocm, extra_dirs: list[str]) -> str | None:
    """The -l name to link for CUDA library `name`; None when the HIP runtime covers it.

    Raises LookupError(message) when the HIP counterpart is not installed.
    """
    if name not in CUDA_LIBRARIES:
        return name
    hip_name = CUDA_LIBRARIES[name]
    if hip_name is None:
        return None
    for d in [*extra_dirs, *library_dirs(rocm)]:
        if any((Path(d) / f"lib{hip_name}{ext}").exists() for ext in (".so", ".a")):
            return hip_name
    library = BY_LIB[hip_name]
    raise LookupError(
        f"-l{name} needs {library.name} (lib{hip_name}), which is not installed "
        f"(looked in {', '.join(library_dirs(rocm))}): {library.install_hint()}, or add its folder with -L"
    )


def link(
    inv: Invocation,
    linker: str,
    objects: list[str],
    out: str,
    rocm: Rocm,
    libs: list[str],
    *,
    shared: bool,
    hip_link: list[str],
    libomp: str | None = None,
    toolkit_libs: Sequence[str] = (),
) -> list[str]:
    """The final link, by the host compiler (or clang --hip-link for relocatable device code).

    -Xcompiler flags reach the link too, as with nvcc. `-fopenmp` is the exception: the
    .cu objects were compiled by clang, whose OpenMP calls (__kmpc_*) need LLVM's
    libomp, which also serves gcc's GOMP_* calls; so link libomp instead of libgomp.
    """
    cmd = [linker, *hip_link]
    if shared:
        cmd.append("-shared")
    host_args = list(inv.host_args)
    if libomp and uses_openmp(host_args):
        host_args = [a for a in host_args if not is_openmp_flag(a)]
        cmd += ["-pthread"]
    cmd += host_args
    cmd += objects
    cmd += [f"-L{d}" for d in inv.lib_dirs]
    cmd += [f"-l{lib}" for lib in libs]
    cmd += [f"-Wl,{a}" for a in inv.linker_args]
    cmd += toolkit_libs
    cmd += [f"-L{rocm.lib_dir}", f"-Wl,-rpath,{rocm.lib_dir}", "-lamdhip64"]
    if libomp and uses_openmp(inv.host_args):
        cmd += [libomp, f"-Wl,-rpath,{os.path.dirname(libomp)}"]
    if inv.debug:
        cmd.append("-g")
    cmd += ["-o", out]
    return cmd


def is_openmp_flag(arg: str) -> bool:
    return arg == "-fopenmp" or arg.startswith("-fopenmp=")


def uses_openmp(host_args: list[str]) -> bool:
    return any(is_openmp_flag(a) for a in host_args)


def llvm_libomp(clang: str) -> str | None:
    """LLVM's libomp beside the clang that compiles HIP (/usr/lib/llvm-15/lib, /opt/rocm/llvm/lib)."""
    lib = Path(os.path.realpath(clang)).parent.parent / "lib" / "libomp.so"
    return str(lib) if lib.exists() else None
