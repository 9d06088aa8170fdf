"""Build the inventory of CUDA's public names from CUDA's own headers.

    python -m cass_cc.inventory.extract --cuda /usr/local/cuda/include \\
        --cuda12 /tmp/cu12/x/nvidia/cuda_runtime/include --cuda12 /tmp/cu12/x/nvidia/cuda_nvcc/include

Declarations come from clang's JSON AST of one translation unit that includes every header in
`SCOPE` (parsed as C++ with nvcc's macros, `__CUDA_ARCH__` set so that arch-guarded intrinsics are
declared); macros, include guards and `#include` lines come from the raw header text (every `#if`
branch). Each CUDA version is read on its own and the two are merged: a name that only CUDA 12
has (`cudaDeviceProp::deviceOverlap`) is kept, marked `12`. Only facts are written (names, kinds,
headers, signatures, enum values, guard names), never header text. Output: `data/names.tsv`,
`data/headers.tsv`, `data/versions.tsv` (see README.md).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import click

from ..click_main import run_click
from . import data

# Headers a CUDA program includes (or nvcc includes for it); the translation unit includes each
# that exists. Interop headers (GL, EGL, VDPAU), tools (CUPTI, NVTX, nvperf), CCCL (Thrust, CUB,
# libcu++) and the generated *_meta.h/cudaTypedefs.h (function-pointer typedefs) are left out.
SCOPE = (
    "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "cudaProfiler.h", "cuda_profiler_api.h",
    "cuda_device_runtime_api.h", "cuda_occupancy.h", "library_types.h", "channel_descriptor.h",
    "cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h", "cuda_fp6.h", "cuda_fp4.h", "cuComplex.h",
    "math_constants.h", "device_functions.h", "device_launch_parameters.h", "sm_20_intrinsics.h",
    "sm_30_intrinsics.h", "sm_32_intrinsics.h", "sm_35_intrinsics.h", "sm_61_intrinsics.h",
    "sm_20_atomic_functions.h", "sm_32_atomic_functions.h", "sm_35_atomic_functions.h",
    "sm_60_atomic_functions.h", "device_atomic_functions.h", "device_double_functions.h",
    "texture_indirect_functions.h", "surface_indirect_functions.h", "surface_functions.h",
    "texture_fetch_functions.h", "cooperative_groups.h", "cooperative_groups/reduce.h",
    "cooperative_groups/scan.h", "cooperative_groups/memcpy_async.h", "mma.h", "cuda_pipeline.h",
    "cuda_awbarrier.h", "vector_functions.h", "builtin_types.h", "host_defines.h", "device_types.h",
    "driver_functions.h", "math_functions.h", "common_functions.h",
)
# Header files (relative to include/) whose names are not part of the public surface.
# (cooperative_groups/details/ holds public names too, cg::plus & co.; its `details` namespace is skipped.)
PRIVATE_FILES = re.compile(r"^(nv/|cuda/|cccl/|thrust/|cub/)")

DEFINES = ("-D__CUDACC__", "-D__NVCC__", "-D__CUDA_ARCH__=900", "-D__CUDA_ARCH_LIST__=900",
           "-D__CUDACC_VER_MAJOR__={major}", "-D__CUDACC_VER_MINOR__=0", "-D__CUDACC_VER_BUILD__=0",
           "-D__CUDA_API_VER_MAJOR__={major}")

MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\()?((?:[^\n\\]|\\\n|\\.)*)", re.M)
UNDEF = re.compile(r"^[ \t]*#[ \t]*undef[ \t]+([A-Za-z_]\w*)", re.M)
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.M)
GUARD = re.compile(r"^[ \t]*#[ \t]*(?:ifndef[ \t]+(\w+)|if[ \t]+!defined[ \t]*\(?[ \t]*(\w+)[ \t]*\)?)[ \t]*(?:/[/*].*)?\n"
                   r"(?:[ \t]*(?://.*)?\n)*[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]*(?:/[/*].*)?$", re.M)
GUARD_NAME = re.compile(r"_H(PP)?_*$|_HPP|_H_$", re.I)  # cuda.h: __cuda_cuda_h__
ALIAS = re.compile(r"^(?:__CUDART_API_PT(?:DS|SZ)|__CUDA_API_PT(?:DS|SZ)|__API_TYPEDEF_PT(?:DS|SZ))?\(?\s*(\w+)\s*\)?$")
VERSION_MACROS = ("CUDART_VERSION", "CUDA_VERSION", "__CUDART_API_VERSION", "CUDA_API_VERSION")


# -- header text ---------------------------------------------------------------------------------
def strip_comments(text: str) -> str:
    """Comments out, line breaks kept (line numbers stay), string literals untouched."""
    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        return s if s.startswith(('"', "'")) else re.sub(r"[^\n]", " ", s)
    return re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', blank, text, flags=re.S)


def header_files(roots: list[Path]) -> dict[str, Path]:
    """Relative header path -> file, first root wins (CUDA 12's wheels split include/ in two)."""
    found: dict[str, Path] = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".h", ".hpp") and path.is_file():
                found.setdefault(path.relative_to(root).as_posix(), path)
    return found


def scan_text(rel: str, text: str) -> tuple[list[str], list[str], list[tuple[str, str, bool, bool]]]:
    """(guards, included headers, macros as (name, value, function_like, undefined_later)) of one header."""
    text = strip_comments(text)
    guards: list[str] = []
    for m in GUARD.finditer(text):
        name = m.group(1) or m.group(2)
        if name == m.group(3) and (not guards and name.isupper() or GUARD_NAME.search(name)) and name not in guards:
            if GUARD_NAME.search(name):
                guards.append(name)
    includes = sorted(set(INCLUDE.findall(text)))
    undefs = set(UNDEF.findall(text))
    macros = []
    for m in MACRO.finditer(text):
        name = m.group(1)
        if name in guards:
            continue
        value = " ".join(m.group(3).replace("\\\n", " ").split())
        if m.group(2):  # function-like: its parameter list only (the body is header text, not a fact)
            value = "(" + value.split(")", 1)[0].strip() + ")"
        macros.append((name, value, bool(m.group(2)), name in undefs))
    return guards, includes, macros


def public_macro(rel: str, name: str) -> bool:
    if name in VERSION_MACROS:
        return True
    if rel.endswith("host_defines.h"):
        return bool(re.fullmatch(r"__[a-z][a-z0-9_]*__", name)) or not name.startswith("_")
    return not name.startswith("_") and "INTERNAL" not in name and not name.startswith(("EXCLUDE_FROM", "CUDA_API_PER_THREAD"))


# -- the AST ---------------------------------------------------------------------------------------
class Walker:
    """Reads the JSON AST in the order clang wrote it, so that every node knows its file
    (clang writes a location's file only when it differs from the previous location's)."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = [str(r.resolve()) + "/" for r in roots]
        self.file = ""
        self.entries: list[dict[str, str]] = []
        self.seen: set[tuple[str, str, str]] = set()

    # locations
    def _bare(self, loc: dict) -> None:
        if "file" in loc:
            self.file = loc["file"]

    def _loc(self, loc: dict) -> None:
        if not loc:
            return
        if "spellingLoc" in loc or "expansionLoc" in loc:
            self._bare(loc.get("spellingLoc", {}))
            self._bare(loc.get("expansionLoc", {}))
        else:
            self._bare(loc)

    def locate(self, node: dict) -> str:
        """Update the current file from node's loc/range; return the file of node's own loc."""
        loc = node.get("loc", {})
        self._loc(loc)
        own = self.file
        rng = node.get("range", {})
        self._loc(rng.get("begin", {}))
        self._loc(rng.get("end", {}))
        return own

    def skip(self, node: dict) -> None:
        """Visit a subtree only for its locations."""
        self.locate(node)
        for child in node.get("inner", ()):
            self.skip(child)

    def rel(self, path: str) -> str | None:
        path = os.path.realpath(path) if path else ""
        for root in self.roots:
            if path.startswith(root):
                rel = path[len(root):]
                return None if PRIVATE_FILES.match(rel) else rel
        return None

    # declarations
    def add(self, kind: str, scope: str, name: str, header: str, signature: str = "", value: str = "") -> None:
        """One row per (kind, scope, name), and for functions per header too: `__hadd` of
        cuda_fp16.h and of cuda_bf16.h are two rows, each with its header's overloads."""
        signature = signature.replace("cooperative_groups::__v1::", "cooperative_groups::")
        if scope.startswith("cooperative_groups::__"):  # tile bases: the members of thread_block_tile
            scope = "cooperative_groups::thread_block_tile"
        if kind == "type" and scope == "cooperative_groups" and name.startswith("__"):
            return
        home = canonical(header) if kind in ("function", "member") else ""
        key = (kind, scope, name, home)
        if key in self.seen:
            for e in self.entries:  # another overload or declaration
                if (e["kind"], e["scope"], e["name"], e["home"]) != key:
                    continue
                if e["header"] == "cuda_device_runtime_api.h":  # CDP's copy came first
                    e["header"] = header
                if signature and signature not in e["signature"].split(" | ") and e["signature"].count(" | ") < 11:
                    e["signature"] = f"{e['signature']} | {signature}" if e["signature"] else signature
                break
            return
        self.seen.add(key)
        self.entries.append({"kind": kind, "scope": scope, "name": name, "header": canonical(header, keep_cdp=True),
                             "signature": signature, "value": value, "home": home})

    def decls(self, nodes: list[dict], scope: str) -> None:
        for node in nodes:
            self.decl(node, scope)

    def decl(self, node: dict, scope: str) -> None:
        kind = node.get("kind", "")
        if node.get("isImplicit"):
            self.skip(node)
            return
        file = self.locate(node)
        header = self.rel(file)
        name = node.get("name", "")
        inner = node.get("inner", [])
        if kind == "LinkageSpecDecl":
            self.decls(inner, scope)
            return
        if kind == "NamespaceDecl":
            if name in ("std", "__gnu_cxx", "__cxxabiv1", "details", "__detail", "__internal", "impl") or name.startswith("__") and name != "__v1":
                for child in inner:
                    self.skip(child)
                return
            inner_scope = scope if node.get("isInline") or name == "__v1" else (f"{scope}::{name}" if scope else name)
            self.decls(inner, inner_scope)
            return
        if header is None or not name or _private(name):
            for child in inner:
                self.skip(child)
            return
        if kind in ("FunctionDecl", "FunctionTemplateDecl"):
            self.function(node, scope, header, kind == "FunctionTemplateDecl")
        elif kind in ("TypedefDecl", "TypeAliasDecl"):
            self.add("type", scope, name, header, node.get("type", {}).get("qualType", ""))
            self._skip_inner(node)
        elif kind in ("CXXRecordDecl", "RecordDecl", "ClassTemplateDecl"):
            self.record(node, scope, header)
        elif kind == "EnumDecl":
            self.enum(node, scope, header)
        elif kind == "VarDecl":
            self.add("variable", scope, name, header, node.get("type", {}).get("qualType", ""))
            self._skip_inner(node)
        else:
            self._skip_inner(node)

    def _skip_inner(self, node: dict) -> None:
        for child in node.get("inner", ()):
            self.skip(child)

    def function(self, node: dict, scope: str, header: str, template: bool, member_of: str = "") -> None:
        name = node["name"]
        fn = node
        tparams = []
        if template:
            for child in node.get("inner", ()):
                if child.get("kind") == "TemplateTypeParmDecl":
                    tparams.append("class " + child.get("name", ""))
                elif child.get("kind") == "NonTypeTemplateParmDecl":
                    tparams.append(child.get("type", {}).get("qualType", "") + " " + child.get("name", ""))
                elif child.get("kind") in ("FunctionDecl", "CXXMethodDecl", "CXXConstructorDecl") and fn is node:
                    fn = child
        params = []
        for child in fn.get("inner", ()):
            if child.get("kind") == "ParmVarDecl":
                params.append(child.get("type", {}).get("qualType", ""))
        qual = fn.get("type", {}).get("qualType", "")
        ret = qual.split("(", 1)[0].strip() if "(" in qual else qual
        if fn.get("variadic") or qual.rstrip(") const").endswith("..."):
            params.append("...")
        signature = f"{ret} ({', '.join(params)})"
        if tparams:
            signature = f"template <{', '.join(tparams)}> {signature}"
        kind = "member" if member_of else "function"
        self.add(kind, member_of or scope, name, header, signature)
        self._skip_inner(node)

    def record(self, node: dict, scope: str, header: str) -> None:
        name = node["name"]
        full = f"{scope}::{name}" if scope else name
        inner = node.get("inner", [])
        tag = node.get("tagUsed", "struct")
        if node["kind"] == "ClassTemplateDecl":
            tparams = [c.get("name", "") for c in inner if c.get("kind", "").endswith("TemplateParmDecl")]
            body = next((c for c in inner if c.get("kind") == "CXXRecordDecl"), None)
            self.add("type", scope, name, header, f"template <{', '.join(tparams)}> class")
            for child in inner:
                if child is body:
                    self.locate(child)
                    self.members(child.get("inner", []), full, header, "class")
                else:
                    self.skip(child)
            return
        self.add("type", scope, name, header, tag)
        self.members(inner, full, header, tag)

    def members(self, inner: list[dict], owner: str, header: str, tag: str, prefix: str = "") -> None:
        access = "private" if tag == "class" else "public"
        last_record = None
        for child in inner:
            kind = child.get("kind", "")
            if kind == "AccessSpecDecl":
                access = child.get("access", access)
                self.skip(child)
                continue
            if child.get("isImplicit") or access != "public":
                self.skip(child)
                continue
            self.locate(child)
            name = child.get("name", "")
            if kind in ("CXXRecordDecl", "RecordDecl") and not name:
                last_record = child
                for sub in child.get("inner", ()):
                    self.skip(sub)
                continue
            if kind in ("FieldDecl", "IndirectFieldDecl") and name:
                qual = child.get("type", {}).get("qualType", "")
                self.add("field", owner, prefix + name, header, qual)
                if last_record is not None and ("unnamed" in qual or "anonymous" in qual):
                    self.members(last_record.get("inner", []), owner, header, last_record.get("tagUsed", "struct"),
                                 prefix + name + ".")
                    last_record = None
                self._skip_inner(child)
            elif kind in ("CXXMethodDecl", "FunctionTemplateDecl", "CXXConversionDecl") and name and not _private(name) \
                    and not name.startswith("operator"):
                self.function(child, "", header, kind == "FunctionTemplateDecl", member_of=owner)
            elif kind == "EnumDecl":
                self.enum(child, owner, header, located=True)
            elif kind in ("TypedefDecl", "TypeAliasDecl") and name:
                self.add("type", owner, name, header, child.get("type", {}).get("qualType", ""))
                self._skip_inner(child)
            else:
                self._skip_inner(child)

    def enum(self, node: dict, scope: str, header: str, located: bool = False) -> None:
        name = node.get("name", "")
        scoped = node.get("scopedEnumTag")
        if name:
            self.add("type", scope, name, header, f"enum {scoped}" if scoped else "enum")
        value = -1
        for child in node.get("inner", ()):
            if child.get("kind") != "EnumConstantDecl":
                self.skip(child)
                continue
            self.locate(child)
            found = _constant(child)
            value = found if found is not None else value + 1
            const_scope = f"{scope}::{name}" if scoped and scope else (name if scoped else scope)
            self.add("enumerator", const_scope, child["name"], header, name, str(value))
            self._skip_inner(child)


def canonical(header: str, keep_cdp: bool = False) -> str:
    """The header a name is filed under: X.hpp -> X.h; CDP's copy of the runtime API -> cuda_runtime_api.h."""
    if header.endswith(".hpp"):
        header = header[:-4] + ".h"
    if header == "cuda_device_runtime_api.h" and not keep_cdp:
        return "cuda_runtime_api.h"
    return header


def _constant(node: dict) -> int | None:
    for child in node.get("inner", ()):
        if child.get("kind") == "ConstantExpr" and "value" in child:
            return int(child["value"])
        found = _constant(child)
        if found is not None:
            return found
    return None


# nvcc's helpers behind public overloads (atomicAnd_block -> __llAtomicAnd_block), texture/surface
# and async-copy plumbing, fp16's inline helpers.
_PRIVATE = re.compile(r"^__cuda[A-Z]|^__\w*Atomic[A-Z]|^__nv_(atomic|memcpy_async|associate|tex|itex|surf|isurf|static)|^__float_simpl_")


def _private(name: str) -> bool:
    return bool(_PRIVATE.match(name)) or name.startswith(("__internal", "__cuda_", "_cuda", "__nvvm", "__iAtomic", "__fAtomic",
                            "__dAtomic", "__ullAtomic", "__illAtomic", "__uAtomic", "__cudart", "__cudaCDP",
                            "__cudaGet", "__cudaLaunch", "__cudaRegister", "__cudaPush", "__cudaPop",
                            "_Z", "__copy_")) or name.endswith(("_impl", "_internal"))


def run_clang(roots: list[Path], major: int, clang: str) -> dict:
    files = header_files(roots)
    with tempfile.TemporaryDirectory() as tmp:
        tu = Path(tmp) / "inventory.cpp"
        tu.write_text("".join(f"#include <{h}>\n" for h in SCOPE if h in files), encoding="utf-8")
        argv = [clang, "-x", "c++", "-std=c++17", *(d.format(major=major) for d in DEFINES),
                *(f"-I{r}" for r in roots), "-fsyntax-only", "-w", "-ferror-limit=0",
                "-Xclang", "-ast-dump=json", str(tu)]
        out = Path(tmp) / "ast.json"
        with open(out, "wb") as f:
            subprocess.run(argv, stdout=f, stderr=subprocess.DEVNULL, check=False)
        with open(out, "rb") as f:
            return json.load(f)


def read_version(roots: list[Path], clang: str) -> dict:
    """Names, headers and macros of one CUDA version."""
    files = header_files(roots)
    text = (files["cuda_runtime_api.h"]).read_text(encoding="utf-8", errors="replace")
    major = int(re.search(r"#define\s+CUDART_VERSION\s+(\d+)", text).group(1)) // 1000
    ast = run_clang(roots, major, clang)
    walker = Walker(roots)
    walker.decls(ast.get("inner", []), "")
    del ast
    functions = {e["name"]: e for e in walker.entries if e["kind"] == "function" and not e["scope"]}
    headers: dict[str, dict] = {}
    aliases: dict[str, str] = {}
    versions: dict[str, str] = {}
    for rel, path in files.items():
        if PRIVATE_FILES.match(rel):
            continue
        guards, includes, macros = scan_text(rel, path.read_text(encoding="utf-8", errors="replace"))
        headers[rel] = {"guards": guards, "includes": [i for i in includes if i in files]}
        for name, value, fn_like, undefined in macros:
            if name in VERSION_MACROS and re.fullmatch(r"\d+", value):
                versions.setdefault(name, value)
            m = ALIAS.match(value) if not fn_like else None
            if m and m.group(1) in functions and (name == m.group(1) or re.fullmatch(rf"{name}(_v\d+|_ptds|_ptsz)", m.group(1))):
                aliases[name] = m.group(1)
                continue
            if not undefined and public_macro(rel, name) and rel in _macro_headers(files):
                walker.add("macro", "", name, canonical(rel), "function-like" if fn_like else "", value)
    # cuMemAlloc -> cuMemAlloc_v2: the program writes the macro's name
    for name, target in aliases.items():
        entry = dict(functions[target], name=name)
        key = ("function", "", name, entry["home"])
        if name != target and key not in walker.seen:
            walker.seen.add(key)
            walker.entries.append(entry)
    hidden = {t for n, t in aliases.items() if n != t}
    entries = [e for e in walker.entries if not (e["kind"] == "function" and e["name"] in hidden)]
    return {"major": major, "entries": entries, "headers": headers, "versions": versions}


_MACRO_HEADERS: dict[int, set[str]] = {}


def _macro_headers(files: dict[str, Path]) -> set[str]:
    """Headers whose macros count: those in SCOPE and what they include, transitively."""
    key = id(files)
    if key not in _MACRO_HEADERS:
        seen: set[str] = set()
        todo = [h for h in SCOPE if h in files]
        while todo:
            rel = todo.pop()
            if rel in seen or rel not in files or PRIVATE_FILES.match(rel):
                continue
            seen.add(rel)
            text = strip_comments(files[rel].read_text(encoding="utf-8", errors="replace"))
            for inc in INCLUDE.findall(text):
                todo.append(inc)
                todo.append(str(Path(rel).parent / inc) if "/" in rel else inc)
        _MACRO_HEADERS[key] = seen
    return _MACRO_HEADERS[key]


def merge(versions: list[dict]) -> tuple[list[data.Name], list[data.Header], list[data.Version]]:
    """One row per name; the newest version's facts win; `cuda` lists the versions that have it."""
    names: dict[tuple[str, str, str], data.Name] = {}
    for ver in sorted(versions, key=lambda v: -v["major"]):
        for e in ver["entries"]:
            key = (e["kind"], e["scope"], e["name"], e.get("home", ""))
            if key in names:
                names[key].cuda = f"{names[key].cuda},{ver['major']}" if str(ver["major"]) not in names[key].cuda else names[key].cuda
                continue
            names[key] = data.Name(name=e["name"], kind=e["kind"], scope=e["scope"], header=e["header"],
                                   group=data.group_of(e["header"], e["name"]), signature=e["signature"],
                                   value=e["value"], cuda=str(ver["major"]))
    headers: dict[str, data.Header] = {}
    for ver in sorted(versions, key=lambda v: -v["major"]):
        for rel, h in ver["headers"].items():
            if rel in headers:
                if str(ver["major"]) not in headers[rel].cuda:
                    headers[rel].cuda += f",{ver['major']}"
                continue
            headers[rel] = data.Header(header=rel, guards=",".join(h["guards"]), includes=",".join(h["includes"]),
                                       cuda=str(ver["major"]))
    vers = [data.Version(cuda=str(v["major"]), macro=m, value=val) for v in versions for m, val in sorted(v["versions"].items())]
    for n in names.values():
        n.cuda = ",".join(sorted(n.cuda.split(","), key=int))
    for h in headers.values():
        h.cuda = ",".join(sorted(h.cuda.split(","), key=int))
    header_rows = [h for h in headers.values() if not PRIVATE_FILES.match(h.header)]
    # every toolkit header is itself a name a program can #include
    for h in header_rows:
        key = ("header", "", h.header, "")
        if key not in names and h.header.endswith((".h", ".hpp")) and "/" not in h.header.replace("cooperative_groups/", "", 1):
            names[key] = data.Name(name=h.header, kind="header", scope="", header=h.header,
                                   group=data.group_of(h.header, h.header), signature="", value="", cuda=h.cuda)
        for guard in filter(None, h.guards.split(",")):
            gkey = ("guard", "", guard, "")
            if gkey not in names:
                names[gkey] = data.Name(name=guard, kind="guard", scope="", header=h.header,
                                        group=data.group_of(h.header, guard), signature="", value="", cuda=h.cuda)
    rows = sorted(names.values(), key=lambda n: (n.group, n.header, n.kind, n.scope, n.name))
    rows = [n for n in rows if n.group != "other" or n.kind in ("header", "guard")]
    return rows, sorted(header_rows, key=lambda h: h.header), vers


@click.command(help=__doc__.splitlines()[0])
@click.option("--cuda", type=click.Path(path_type=Path), multiple=True, required=True, help="a CUDA include/ folder (13)")
@click.option("--cuda12", type=click.Path(path_type=Path), multiple=True, help="CUDA 12 include folder(s) (the wheels split it)")
@click.option("--clang", default=lambda: os.environ.get("CASS_CLANG", "clang-15"), help="clang for the headers' preprocessing")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=data.DATA_DIR)
def command(cuda: tuple[Path, ...], cuda12: tuple[Path, ...], clang: str, output: Path) -> int:
    versions = [read_version(list(cuda), clang)]
    if cuda12:
        versions.append(read_version(list(cuda12), clang))
    names, headers, vers = merge(versions)
    data.write_names(output / "names.tsv", names)
    data.write_headers(output / "headers.tsv", headers)
    data.write_versions(output / "versions.tsv", vers)
    print(f"{len(names)} names, {len(headers)} headers -> {output}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "python -m cass_cc.inventory.extract")


if __name__ == "__main__":
    raise SystemExit(main())
