"""The value that parsing an nvcc command line produces.

`cass_cc.nvcc.parse.parse()` turns argv into an `Invocation`; the driver only ever
reads this value, never argv. Every field has the meaning nvcc gives the option that
sets it; the AMD meaning is the driver's business.
"""
from __future__ import annotations

import enum

from ..records import factory, record


class Phase(enum.Enum):
    """What the invocation produces (nvcc's "compilation phase" options)."""

    LINK = "link"  # default: compile what needs it, link an executable
    SHARED = "shared"  # -shared: link a shared library
    LIB = "lib"  # -lib: compile, then archive into a static library
    COMPILE = "compile"  # -c / -dc: object files
    DLINK = "dlink"  # -dlink: device-link relocatable device code into an object
    PREPROCESS = "preprocess"  # -E
    DEPS = "deps"  # -M / -MM without -MD: only print dependencies
    PTX = "ptx"  # -ptx: AMD meaning: device assembly (.s)
    CUBIN = "cubin"  # -cubin: AMD meaning: device code object
    FATBIN = "fatbin"  # -fatbin: AMD meaning: offload bundle of code objects
    CUDAFE = "cuda"  # -cuda: AMD meaning: the translated .hip source
    VERSION = "version"  # --version
    HELP = "help"  # --help
    LIST_ARCH = "list-arch"  # --list-gpu-arch: print the virtual architectures
    LIST_CODE = "list-code"  # --list-gpu-code: print the real ones (both: the pairs)


class Lang(enum.Enum):
    """How an input file is treated, from `-x` or its suffix (as nvcc does)."""

    CU = "cu"  # CUDA source: translated, then compiled for host + device
    HIP = "hip"  # already HIP: compiled for host + device without translation
    C = "c"  # host C: host compiler
    CXX = "c++"  # host C++: host compiler
    OBJ = "obj"  # .o / .obj: passed to the linker
    LIB = "lib"  # .a / .so: passed to the linker
    PTX = "ptx"  # .ptx: not buildable for AMD
    CUBIN = "cubin"  # .cubin / .fatbin: only for --emit-rdna3
    ASM = "asm"  # .s / .S: host assembler (nvcc hands these to the host compiler)


@record
class Input:
    path: str
    lang: Lang


@record(frozen=False)
class DepOptions:
    """-M, -MM, -MD, -MMD, -MF, -MT, -MP (gcc meanings; nvcc long spellings too)."""

    mode: str | None = None  # "M", "MM", "MD", "MMD" or None
    file: str | None = None  # -MF
    targets: list[str] = factory(list)  # -MT (may repeat)
    phony: bool = False  # -MP


@record(frozen=False)
class Invocation:
    phase: Phase = Phase.LINK
    inputs: list[Input] = factory(list)
    output: str | None = None  # -o
    # GPU targets as spelled on the command line, normalised to nvcc names:
    # "sm_80", "compute_80", "all", "all-major", "native", or an AMD name "gfx1100".
    # -gencode arch=compute_80,code=[sm_80,compute_80] contributes "sm_80" and "compute_80".
    targets: list[str] = factory(list)
    rdc: bool = False  # -rdc=true, -dc
    defines: list[str] = factory(list)  # -D NAME or NAME=VALUE, in order
    undefines: list[str] = factory(list)  # -U
    include_dirs: list[str] = factory(list)  # -I
    system_include_dirs: list[str] = factory(list)  # -isystem
    pre_includes: list[str] = factory(list)  # -include
    lib_dirs: list[str] = factory(list)  # -L
    libs: list[str] = factory(list)  # -l (names without "lib"/suffix)
    std: str | None = None  # -std=c++17 -> "c++17"
    opt: str | None = None  # -O3 -> "3"; host optimisation
    device_opt: str | None = None  # -dopt / -Xptxas -O3 level, recorded
    debug: bool = False  # -g
    device_debug: bool = False  # -G
    lineinfo: bool = False  # -lineinfo
    fast_math: bool = False  # --use_fast_math
    ftz: bool | None = None  # --ftz
    prec_div: bool | None = None  # --prec-div
    prec_sqrt: bool | None = None  # --prec-sqrt
    fmad: bool | None = None  # --fmad
    relaxed_constexpr: bool = False  # --expt-relaxed-constexpr
    extended_lambda: bool = False  # --extended-lambda / --expt-extended-lambda
    default_stream: str | None = None  # --default-stream legacy|null|per-thread
    host_compiler: str | None = None  # -ccbin / --compiler-bindir
    host_args: list[str] = factory(list)  # -Xcompiler pieces + forwarded unknowns
    linker_args: list[str] = factory(list)  # -Xlinker pieces
    ptxas_args: list[str] = factory(list)  # -Xptxas pieces (recorded only)
    nvlink_args: list[str] = factory(list)  # -Xnvlink pieces (recorded only)
    archive_args: list[str] = factory(list)  # -Xarchive pieces (for -lib)
    forward_unknown: bool = False  # -forward-unknown-to-host-compiler
    forward_unknown_linker: bool = False  # -forward-unknown-to-host-linker: unknowns -> linker_args
    deps: DepOptions = factory(DepOptions)
    lang: Lang | None = None  # -x cu|c|c++ (applies to all inputs, as in nvcc)
    machine: int | None = None  # -m64 / -m32
    no_warnings: bool = False  # -w
    werror: list[str] = factory(list)  # -Werror kinds ("all-warnings", ...)
    shared_cudart: str | None = None  # -cudart none|shared|static
    verbose: bool = False  # -v
    dryrun: bool = False  # -dryrun
    keep: bool = False  # -keep
    keep_dir: str | None = None  # -keep-dir
    time_file: str | None = None  # -time: nvcc opens it (appending) even for -dryrun
    lists: list[Phase] = factory(list)  # LIST_ARCH and/or LIST_CODE: what to print
    # Options nvcc accepts that have no AMD meaning; the driver notes them under -v.
    ignored: list[str] = factory(list)
    # cass-cc's own options (spelled --cass-*, or --emit-rdna3), raw name -> value.
    cass: dict[str, str] = factory(dict)


class UsageError(Exception):
    """A command line nvcc would reject. str() is the text after 'nvcc fatal   : '."""
