"""CUDA's C ABI on HIP: the shim toolkit's libcudart.so, libcudart_static.a and libcuda.so.

A C or C++ caller compiled against CUDA's own headers (or its own prototypes), a prebuilt
object, or a program that dlopens libcudart.so.13 calls `cudaMalloc`, `cuInit`, ... by
those names. These libraries export them, each forwarding to its HIP counterpart with
error codes (cudaError_t / CUresult <-> hipError_t), enum arguments whose values differ
(cudaDeviceAttr, ...) and records whose layout differs (cudaDeviceProp, cudaPointerAttributes,
cudaFuncAttributes, ...) converted. cudaGetErrorName/String and cuGetErrorName/String answer
CUDA's names (and CUDA's messages, error_strings.tsv) for CUDA's codes.

Generated when the toolkit is (cass_cc/driver/toolkit.py), from
    cuda_abi.json        CUDA's signatures, enum values, record layouts (extract_cuda.py)
    the mapping tables   CUDA -> HIP names (cass_cc/translate/mappings/*.tsv)
    the installed HIP    its headers read through clang's AST; the functions libamdhip64 exports
A CUDA function whose HIP counterpart the installed HIP lacks (or whose signature cannot be
converted) is not exported, so a program calling it fails to link with the linker's usual
"undefined reference to `cudaXxx'"; `lib64/cass/report.txt` in the toolkit says why for each.
How it works and how to triage: README.md beside this file.
"""
from __future__ import annotations

import functools
import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..util import sha256_hex

if TYPE_CHECKING:  # the generator is imported when a toolkit is generated, not by every toolkit look-up
    from ..toolchain.rocm import Rocm
    from .decls import Decls
    from .generate import Generator

HERE = Path(__file__).parent
CUDA_ABI = HERE / "cuda_abi.json"
RUNTIME_FAMILIES = ("runtime", "graph", "texture")
DRIVER_FAMILIES = ("driver", "graph", "texture")
CXXFLAGS = ("-x", "c++", "-std=c++17", "-O1", "-fPIC", "-fno-exceptions", "-fno-rtti", "-w")


class CudartError(Exception):
    """The ABI libraries could not be generated or compiled (the message says which step)."""


@functools.lru_cache(maxsize=None)
def inputs_hash() -> str:
    """Everything here that changes the libraries (part of the toolkit's cache key)."""
    files = sorted(p for p in HERE.iterdir() if p.suffix in (".py", ".json", ".tsv"))
    return sha256_hex(*(p.name.encode() + b"\0" + p.read_bytes() for p in files))


@functools.lru_cache(maxsize=None)
def cuda_abi() -> dict[str, Any]:
    return json.loads(CUDA_ABI.read_text())


def hip_decls(clang: str, rocm: Rocm) -> Decls:
    from .decls import Decls, dump_ast

    decls = Decls()
    args = ["-D__HIP_PLATFORM_AMD__", f"-I{rocm.root / 'include'}"]
    decls.read(dump_ast(clang, "#include <hip/hip_runtime_api.h>\n", args, "c++"))
    return decls


def api_rows(prefix_runtime: bool) -> list[tuple[str, str]]:
    """(CUDA function, HIP function) from the mapping tables, for libcudart or libcuda."""
    from ..translate import mappings

    families = RUNTIME_FAMILIES if prefix_runtime else DRIVER_FAMILIES
    rows = []
    for row in mappings.all_rows():
        if row.kind != "function" or row.family not in families or not row.hip_name:
            continue
        if row.cuda_name.startswith("cuda") == prefix_runtime and row.cuda_name.startswith("cu"):
            rows.append((row.cuda_name, row.hip_name))
    return rows


def name_map() -> dict[str, str]:
    """CUDA name -> HIP name, every row that has one (enumerators, types, functions)."""
    from ..translate import mappings

    return {row.cuda_name: row.hip_name for row in mappings.all_rows() if row.hip_name and row.kind != "header"}


class Library:
    """The plan of one library: exported symbol -> definition; left out: symbol -> reason."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.wrappers: dict[str, str] = {}
        self.skipped: dict[str, str] = {}
        self.table_functions: list[str] = []  # functions of this API in the mapping tables

    def exported_table_functions(self) -> int:
        return sum(1 for name in self.table_functions if name in self.wrappers)

    def report(self) -> str:
        lines = [f"# {self.name}: {self.exported_table_functions()} of the {len(self.table_functions)} functions in the "
                 f"mapping tables exported ({len(self.wrappers)} symbols with CUDA's versioned names); left out:"]
        lines += [f"{name}\t{why}" for name, why in sorted(self.skipped.items())]
        return "\n".join(lines) + "\n"


def plan(gen: Generator, runtime: bool) -> Library:
    from .generate import ERROR_FUNCTIONS

    cuda = gen.cuda
    lib = Library("libcudart" if runtime else "libcuda")
    rows = api_rows(runtime)
    lib.table_functions = [cuda_name for cuda_name, _ in rows]
    for fn, text in gen.error_functions("cuda" if runtime else "cu").items():
        lib.wrappers[fn] = text
    for cuda_name, hip_name in rows:
        if cuda_name in ERROR_FUNCTIONS:
            continue
        target = cuda["aliases"].get(cuda_name, cuda_name)
        symbols = [cuda_name] + ([target] if target != cuda_name else [])
        for older in cuda.get("versioned", {}).get(cuda_name, []):  # CUDA 12's cudaGetDeviceProperties_v2
            try:
                lib.wrappers[older] = gen.wrapper(older, cuda["functions"][older], hip_name)
            except ValueError as e:
                lib.skipped[older] = str(e)
        fn = cuda["functions"].get(target)
        if fn is None:
            lib.skipped[cuda_name] = "not declared by the CUDA headers extracted (cuda_abi.json)"
            continue
        for symbol in symbols:
            try:
                lib.wrappers[symbol] = gen.wrapper(symbol, fn, hip_name)
            except ValueError as e:
                lib.skipped[symbol] = str(e)
    return lib


def _run(cmd: Sequence[str], what: str) -> None:
    from ..toolchain.tool import COMPILE, ToolTimeout, run_tool

    try:
        proc = run_tool(cmd, budget=COMPILE, text=True, errors="replace")
    except ToolTimeout as e:
        raise CudartError(f"{what} failed: {e}") from None
    if proc.returncode != 0:
        raise CudartError(f"{what} failed: {' '.join(cmd)}\n{proc.stderr[-3000:]}")


def _archiver(clang: str) -> str:
    """llvm-ar of the clang's LLVM, else the system's ar."""
    base = os.path.basename(clang)
    suffix = base[len("clang"):] if base.startswith("clang") else ""
    for name in (f"llvm-ar{suffix}", "llvm-ar", "ar"):
        found = shutil.which(name, path=os.path.dirname(clang) + os.pathsep + os.environ.get("PATH", ""))
        if found:
            return found
    raise CudartError("no archiver (llvm-ar or ar) found to build libcudart_static.a")


def build(work: Path, final_lib64: Path, rocm: Rocm, clang: str) -> dict[str, Library]:
    """Generate and compile the libraries into `work` (sources, objects, reports too):
    libcudart.so.<CUDA major>, libcuda.so.1 (each named by its path in `final_lib64`, where
    install() puts it, so that programs linked against it run without LD_LIBRARY_PATH), and
    libcudart_static.a."""
    from .elfsyms import exported_functions
    from .generate import Generator, source, stubs_source

    hip_lib = rocm.lib_dir / "libamdhip64.so"
    exports = exported_functions(hip_lib.resolve())
    hip, names = hip_decls(clang, rocm), name_map()
    gens = {name: Generator(cuda_abi(), hip, names, exports) for name in ("cudart", "cuda")}
    libs = {"cudart": plan(gens["cudart"], True), "cuda": plan(gens["cuda"], False)}
    work.mkdir(parents=True, exist_ok=True)
    for name, lib in libs.items():
        (work / f"{name}.cpp").write_text(source(gens[name], lib.wrappers.values()))
        (work / f"{name}-report.txt").write_text(lib.report())
    (work / "hip-symbols.c").write_text(stubs_source(exports))
    hip_soname = ".".join(os.path.basename(os.path.realpath(hip_lib)).split(".")[:3])  # libamdhip64.so.5
    include = f"-I{rocm.root / 'include'}"
    _run([clang, "-x", "c", "-O1", "-fPIC", "-w", "-c", str(work / "hip-symbols.c"), "-o", str(work / "hip-symbols.o")],
         "compiling HIP's symbol stubs")
    for name, file in shared_names().items():
        obj = work / f"{name}.o"
        _run([clang, *CXXFLAGS, include, "-c", str(work / f"{name}.cpp"), "-o", str(obj)], f"compiling {name}.cpp")
        _run([clang, "-shared", "-o", str(work / file), f"-Wl,-soname,{final_lib64 / file}", str(obj),
              str(work / "hip-symbols.o"), f"-Wl,--auxiliary={hip_soname}", f"-L{rocm.lib_dir}", "-lamdhip64",
              f"-Wl,-rpath,{rocm.lib_dir}", "-Wl,-z,defs"], f"linking {file}")
    static_obj = work / "cudart_static.o"
    _run([clang, *CXXFLAGS, include, "-DCASS_DLSYM", f'-DCASS_HIP_LIBRARY="{rocm.lib_dir / hip_soname}"',
          "-c", str(work / "cudart.cpp"), "-o", str(static_obj)], "compiling cudart.cpp for libcudart_static.a")
    _run([_archiver(clang), "rcs", str(work / "libcudart_static.a"), str(static_obj)], "archiving libcudart_static.a")
    return libs


def shared_names() -> dict[str, str]:
    """Library -> its file (named as the soname CUDA gives it)."""
    major = (cuda_abi().get("cudart_version") or 13000) // 1000
    return {"cudart": f"libcudart.so.{major}", "cuda": "libcuda.so.1"}


def install(lib64: Path, final_lib64: Path, rocm: Rocm, clang: str) -> dict[str, Library]:
    """Build into lib64/cass/, then put the libraries in lib64 in place of what is there
    (the linker scripts), with lib<name>.so -> lib<name>.so.N links."""
    work = lib64 / "cass"
    libs = build(work, final_lib64, rocm, clang)
    for name, file in shared_names().items():
        os.replace(work / file, lib64 / file)
        link = lib64 / f"lib{name}.so"
        link.unlink(missing_ok=True)
        link.symlink_to(file)
    os.replace(work / "libcudart_static.a", lib64 / "libcudart_static.a")
    for obj in work.glob("*.o"):
        obj.unlink()
    return libs
