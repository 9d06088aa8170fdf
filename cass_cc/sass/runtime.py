"""What every target's module around the lifted bodies shares (targets.py: cpu and gfx1100,
nvptx.py): the Target record, the `@__cass_*` runtime functions' IR, the declarations of the
intrinsics a module calls, and its attribute groups.

The GPU targets' runtime functions are LLVM IR files in runtime_ir/ (gfx1100.ll, nvptx.ll,
and tanhf.ll for both); a module copies in the `define`s of the functions its bodies call.
Those that differ only by a name or a constant (the dimension readers, the directed-rounding
fmas) are templates in Python. The cpu module defines only those fmas and declares the rest,
which the test harness's simt.c defines.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from ..util import split_top_level
from .base import Lifted, Spaces


@dataclass(frozen=True)
class Target:
    name: str
    triple: str
    datalayout: str
    spaces: Spaces


# fp64 fma rounded toward +inf, -inf or zero (DFMA/DMUL/DADD.RP/RM/RZ): `__cass_dfma_<mode>`,
# one function per mode, defined by each target.
# mode: (constrained-intrinsic name, llvm.set.rounding value, gfx1100 MODE.FP_ROUND f64 value)
DIRECTED = {"rp": ("round.upward", 2, 1), "rm": ("round.downward", 3, 2), "rz": ("round.towardzero", 0, 3)}

STRICTFP_ATTRS = 'attributes #4 = { noinline nounwind strictfp }'
# The call sites of warp-wide operations (ballots, the active mask, REDUX, shuffles, barriers).
# `convergent` alone lets SimplifyCFG hoist identical calls from both arms of a branch to above
# it (LLVM's convergent only forbids adding control dependences): a ballot or exec read then
# sees the lanes of both arms, and an aggregated atomic (VOTEU.ANY + UPOPC + one leader's RED)
# counts the other arm's lanes as well. `nomerge` stops that hoisting.
WARP_OP_ATTRS = "convergent nomerge nounwind"

RUNTIME_IR = Path(__file__).with_name("runtime_ir")
# A definition runs from its `define` line to the first line that is a lone `}`.
_DEFINE = re.compile(r"^define [^@\n]*@([\w.$]+)\(.*?^\}$", re.M | re.S)


@functools.cache
def _definitions(file: str) -> dict[str, str]:
    return {m.group(1): m.group(0) for m in _DEFINE.finditer((RUNTIME_IR / file).read_text())}


def runtime_definitions(*files: str) -> dict[str, str]:
    """The `define`s of these runtime_ir files by function name, without the comments between them."""
    return {name: text for file in files for name, text in _definitions(file).items()}


def dim3_definition(name: str, intrinsic: str) -> str:
    """`@name(i32 %d)`: component d (0 x, 1 y, 2 z) of the value `@<intrinsic>.x/.y/.z()` reads."""
    reads = [f"  %{d} = call i32 @{intrinsic}.{d}()" for d in "xyz"]
    return "\n".join([f"define internal i32 @{name}(i32 %d) #0 {{", *reads,
                      "  %is0 = icmp eq i32 %d, 0", "  %is1 = icmp eq i32 %d, 1",
                      "  %yz = select i1 %is1, i32 %y, i32 %z", "  %r = select i1 %is0, i32 %x, i32 %yz",
                      "  ret i32 %r", "}"])


def intrinsic_declarations(text: str) -> list[str]:
    """`declare` lines for every llvm.* intrinsic called in `text`, typed from the calls."""
    found: dict[str, str] = {}
    for m in re.finditer(r"call ((?:ptr addrspace\(\d+\))|\S+) @(llvm\.[A-Za-z0-9_.]+)\(", text):
        name = m.group(2)
        if name in found:
            continue
        start = m.end()
        depth, i = 1, start
        while depth and i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args = split_top_level(text[start : i - 1], "(", ")")
        types = [a.rsplit(" ", 1)[0] if not a.startswith("ptr addrspace") else a[: a.index(")") + 1] for a in args]
        found[name] = f"declare {m.group(1)} @{name}({', '.join(types)})"
    return [found[k] for k in sorted(found)]


def unique_globals(lifted: list[Lifted]) -> list[str]:
    """Each global once (device globals and module constant banks are shared by kernels)."""
    seen: dict[str, str] = {}
    for lk in lifted:
        for g in lk.globals:
            seen.setdefault(g.split(" = ", 1)[0], g)
    return list(seen.values())
