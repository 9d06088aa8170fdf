"""Shrinking a kernel on which a path differs to a minimal one that still differs (creduce-style,
on the generator's tree rather than on text).

The oracle is local: the suspect path's output must keep differing from a reference path's output
(the path that agreed with the GPU's truth on the original kernel), and nvcc must still accept the
program. Passes, repeated until none helps:
  1. drop chunks of statements (halves, quarters, ... single ones) in every block;
  2. replace an if/loop/switch/region by one of its blocks;
  3. replace an expression by its type's zero or by a same-typed operand;
and the output slots nobody differs on become zeros. Statements that give memory its first value
(kind "init") stay, so a reduced kernel never reads uninitialised memory. Each step is one build of each path (a few
seconds); `max_tests` bounds a reduction.
"""
from __future__ import annotations

import copy
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from .ast import ZERO, Expr, Kernel, Stmt, zero
from .gen import batch_source
from .truth import NVCC_FLAGS

# ---- walking the tree ----------------------------------------------------------------------------


def _blocks(stmts: list[Stmt]) -> Iterator[list[Stmt]]:
    yield stmts
    for s in stmts:
        for b in s.blocks:
            yield from _blocks(b)


def _exprs(stmts: list[Stmt]) -> Iterator[tuple[list[Expr], int]]:
    """(the list holding an expression, its position), every expression pre-order."""
    def walk(holder: list[Expr]) -> Iterator[tuple[list[Expr], int]]:
        for i, e in enumerate(holder):
            yield holder, i
            yield from walk(e.args)

    for block in _blocks(stmts):
        for s in block:
            yield from walk(s.args)


def _uses(name: str, text: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text) is not None


def candidates(k: Kernel) -> Iterator[Kernel]:
    """Smaller variants of k, biggest cuts first. Each is a fresh copy."""
    nblocks = sum(1 for _ in _blocks(k.body))
    for bi in range(nblocks):
        block = list(_blocks(k.body))[bi]
        n = len(block)
        size = n // 2
        while size >= 1:
            for start in range(0, n, size):
                kk = copy.deepcopy(k)
                blk = list(_blocks(kk.body))[bi]
                cut = blk[start:start + size]
                if any(s.kind == "init" or (s.kind == "fixed" and _protected(s)) for s in cut):
                    continue
                del blk[start:start + size]
                text = kk.render()
                if any(s.kind == "decl" and _uses(s.var, text) for s in cut):
                    continue
                yield kk
            size //= 2
    for bi in range(nblocks):
        block = list(_blocks(k.body))[bi]
        for si, s in enumerate(block):
            if s.kind == "init":
                continue
            for b in range(len(s.blocks)):
                kk = copy.deepcopy(k)
                blk = list(_blocks(kk.body))[bi]
                blk[si:si + 1] = blk[si].blocks[b]
                yield kk
    nexprs = sum(1 for _ in _exprs(k.body))
    for ei in range(nexprs):
        holder, i = list(_exprs(k.body))[ei]
        e = holder[i]
        if e.ty not in ("bool",) and e.fmt == zero(e.ty).fmt:
            continue
        options = [zero(e.ty)] if e.ty in ZERO else []
        options += [a for a in e.args if a.ty == e.ty]
        for opt in options:
            kk = copy.deepcopy(k)
            h, j = list(_exprs(kk.body))[ei]
            h[j] = copy.deepcopy(opt)
            yield kk


def _protected(s: Stmt) -> bool:
    """The kernel's frame (slot count, thread ids, the atomic region's start) and what keeps shared
    memory defined (barriers, the accumulators' zeroing): dropping those would make a race."""
    return s.fmt.startswith(("#define FZ_SLOTS", "#undef FZ_SLOTS", "const unsigned ", "__syncthreads();",
                             "if (tid < 8u) fz_sacc[tid] = 0u;"))


# ---- the oracle ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    interesting: bool
    note: str


def differs_between(suspect: str, reference: str, inp: bytes, nvcc: str) -> Callable[[Kernel], Outcome]:
    """The test: nvcc accepts the kernel, both paths run it, and their outputs differ."""
    from .check import BUILDERS
    from .compare import differences

    def test(k: Kernel) -> Outcome:
        with tempfile.TemporaryDirectory(prefix="cass-reduce-") as tmp:
            folder = Path(tmp)
            (folder / "fz.cu").write_text(batch_source([k]))
            proc = subprocess.run([nvcc, *NVCC_FLAGS, "-arch=sm_90", "-o", str(folder / "fz.cubin"),
                                   str(folder / "fz.cu")], capture_output=True, text=True, timeout=600)
            if proc.returncode:
                return Outcome(False, "nvcc refuses")
            outs = {}
            for p in (suspect, reference):
                how, got = BUILDERS[p](folder, [k], folder).run(k, inp)
                if how != "ran":
                    if p == suspect and how == "fault":
                        outs[p] = None
                        continue
                    return Outcome(False, f"{p} {how}")
                outs[p] = got
            if outs[suspect] is None:
                return Outcome(True, f"{suspect} faults")
            n, notes = differences(k, outs[suspect], outs[reference])  # type: ignore[arg-type]
            return Outcome(n > 0, "; ".join(notes[:2]))

    return test


def reduce(k: Kernel, test: Callable[[Kernel], Outcome], max_tests: int = 400,
           progress: Callable[[str], None] = lambda s: None,
           save: Callable[[Kernel], None] = lambda k: None) -> tuple[Kernel, int]:
    """The smallest variant found that is still interesting, and the tests it took. Variants
    already found dull are not built again when a pass restarts; `save` gets each improvement."""
    first = test(k)
    if not first.interesting:
        raise ValueError(f"{k.name}: not interesting to start with ({first.note})")
    tests = 1
    dull: set[str] = set()
    improved = True
    while improved and tests < max_tests:
        improved = False
        for cand in candidates(k):
            if tests >= max_tests:
                break
            text = cand.render()
            if text in dull:
                continue
            tests += 1
            out = test(cand)
            if out.interesting:
                progress(f"{tests} tests: size {k.size()} -> {cand.size()} ({out.note[:120]})")
                k = cand
                save(k)
                improved = True
                break
            dull.add(text)
    return k, tests
