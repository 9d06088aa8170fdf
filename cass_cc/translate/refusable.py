"""CUDA names that no table row, served piece or HIP header provides: the rules refuse them by name.

A CUDA program may use any public name of CUDA's headers (the inventory, cass_cc/inventory/data/
names.tsv). Most have a mapping row (renamed, or a row recording HIP's same spelling) or are
served (served.py). Of the rest, those HIP's own headers spell the same (data/hip_names.tsv, made
from the headers by `python -m cass_cc.translate.hipnames`) go through unchanged and compile; the
others would reach clang as an undeclared identifier or a missing member. This module names those
others, so the translator can say "'X' (a field of cudaDeviceProp) is not supported by HIP 5.2"
instead of leaving clang's raw error.

Only the inventory's files are read (not the inventory package, which imports the translator).
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import NamedTuple

DATA = Path(__file__).resolve().parent.parent / "inventory" / "data"

# Words clang itself knows whatever the headers say (the inventory has them as host_defines.h macros).
_COMPILER_WORDS = frozenset({"__restrict__", "__volatile__", "__inline__", "__asm__", "__attribute__",
                             "__align__", "__thread__", "__forceinline__", "__noinline__"})
_MEMBER_KINDS = ("field", "member")
# CUDA's C++ namespaces: `a::b::name` is CUDA's only where `a` is one of these (or an alias of one).
NAMESPACES = frozenset({"cooperative_groups", "nvcuda", "wmma"})


class CudaName(NamedTuple):
    kind: str
    scope: str  # struct, class or namespace; "" = global
    header: str


def _rows(path: Path) -> list[list[str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return []
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")][1:]


@functools.lru_cache(maxsize=None)
def _inventory() -> dict[str, tuple[CudaName, ...]]:
    """token -> where CUDA declares it (a nested field `handle.fd` under `fd`)."""
    found: dict[str, list[CudaName]] = {}
    for row in _rows(DATA / "names.tsv"):
        name, kind, scope, header = row[:4]
        if kind in ("header", "guard") or name.startswith("operator"):
            continue  # headers: rules._include; guards are only asked about (`#ifdef`); operators are not words
        found.setdefault(name.rsplit(".", 1)[-1], []).append(CudaName(kind, scope, header))
    return {name: tuple(where) for name, where in found.items()}


@functools.lru_cache(maxsize=None)
def _hip_spelled() -> dict[str, frozenset[tuple[int, int]]]:
    table: dict[str, frozenset[tuple[int, int]]] = {}
    for name, versions in _rows(DATA / "hip_names.tsv"):
        table[name] = frozenset(tuple(int(p) for p in v.split(".")) for v in versions.split(","))  # type: ignore[misc]
    return table


@functools.lru_cache(maxsize=None)
def _hip_versions() -> frozenset[tuple[int, int]]:
    """The HIP versions hip_names.tsv was made for."""
    return frozenset(v for versions in _hip_spelled().values() for v in versions)


@functools.lru_cache(maxsize=None)
def candidates() -> frozenset[str]:
    """Names that may be refused on some HIP (a superset: the rules visit these words)."""
    from . import mappings
    from .prelude import HEADER_HELPERS
    from .served import DEVICE_PROP_FIELDS, VERSION_MACROS, served_names

    table = mappings.table()
    # what cass-cc provides: served names, version macros, cudaDeviceProp's fields, and every word
    # of the texts that stand in for HIP's missing headers (cg::reduce, the bf16 and fp16 preludes)
    served = {*served_names(), *VERSION_MACROS.values(), *DEVICE_PROP_FIELDS}
    for text in HEADER_HELPERS.values():
        served.update(re.findall(r"[A-Za-z_]\w*", text))
    every = _hip_versions()
    spelled = _hip_spelled()
    return frozenset(name for name in _inventory()
                     if name not in table and name not in served and name not in _COMPILER_WORDS
                     and not (every and spelled.get(name, frozenset()) >= every))


def lookup(name: str, hip_version: tuple[int, int]) -> tuple[CudaName, ...]:
    """Where CUDA declares `name`, if it is a CUDA name this HIP neither has nor is given; else ()."""
    if name not in candidates() or hip_version not in _hip_versions():
        return ()  # a HIP this table was not made for: nothing is known, nothing is said
    if hip_version in _hip_spelled().get(name, ()):
        return ()
    return _inventory()[name]


def member_of(where: tuple[CudaName, ...]) -> CudaName | None:
    """The first struct field or class member among `where` (`p->name`, `g.name()`)."""
    return next((w for w in where if w.kind in _MEMBER_KINDS), None)


def namespaced(where: tuple[CudaName, ...]) -> CudaName | None:
    """The first namespace-scoped name among `where` (`cg::name`)."""
    return next((w for w in where if w.kind not in _MEMBER_KINDS and w.scope), None)


def unqualified(where: tuple[CudaName, ...]) -> CudaName | None:
    """The first global name among `where` (a function, type, enumerator, macro ... written alone)."""
    return next((w for w in where if w.kind not in _MEMBER_KINDS and not w.scope), None)


def describe(name: str, where: CudaName, every: tuple[CudaName, ...] = ()) -> str:
    """`'x' (a field of cudaDeviceProp)`, `'CU_X' (cuda.h)`; a member of several classes names
    them all (`cooperative_groups::grid_group/thread_block`)."""
    if where.kind in _MEMBER_KINDS:
        scopes = list(dict.fromkeys(w.scope for w in every if w.kind == where.kind)) or [where.scope]
        head, _, _ = scopes[0].rpartition("::")
        if len(scopes) > 1 and head and all(s.startswith(head + "::") for s in scopes):
            return f"'{name}' (a {where.kind} of {head}::{'/'.join(s[len(head) + 2:] for s in scopes)})"
        if len(scopes) > 2:
            return f"'{name}' (a {where.kind} of {scopes[0]} and {len(scopes) - 1} more CUDA structs)"
        return f"'{name}' (a {where.kind} of {'/'.join(scopes)})"
    return f"'{name}' ({where.header})"


@functools.lru_cache(maxsize=None)
def headers() -> frozenset[str]:
    """Every header name CUDA's toolkit ships (the inventory's header rows)."""
    return frozenset(row[0] for row in _rows(DATA / "names.tsv") if row[1] == "header")
