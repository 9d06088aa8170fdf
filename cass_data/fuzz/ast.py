"""The random kernels' tree: expressions and statements that render to CUDA and that the reducer
can shrink.

Every node renders from a format string whose `{0}`, `{1}`... are its children, so a reduction step
is one of: drop a statement, replace a compound statement by one of its blocks, replace an
expression by a same-typed child or by its type's zero. A declaration is never dropped (later
statements name it); its initialiser becomes the zero instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# C spelling and the zero of each scalar type the generator uses.
CTYPE = {
    "i32": "int", "u32": "unsigned", "i64": "long long", "u64": "unsigned long long",
    "f32": "float", "f64": "double", "f16": "__half", "bf16": "__nv_bfloat16", "bool": "bool",
}
ZERO = {
    "i32": "0", "u32": "0u", "i64": "0ll", "u64": "0ull", "f32": "0.0f", "f64": "0.0",
    "f16": "__float2half(0.0f)", "bf16": "__float2bfloat16(0.0f)", "bool": "false",
}


@dataclass
class Expr:
    ty: str
    fmt: str
    args: list[Expr] = field(default_factory=list)

    def render(self) -> str:
        if not self.args:
            return self.fmt
        return self.fmt.format(*(a.render() for a in self.args))

    def size(self) -> int:
        return 1 + sum(a.size() for a in self.args)


def zero(ty: str) -> Expr:
    return Expr(ty, ZERO[ty])


@dataclass
class Stmt:
    """One statement: `fmt` with `{0}`.. the expressions in `args`; `blocks` are nested bodies
    rendered in order after `head` lines (an `if` has then/else, a loop its body).

    kind: "line" (a plain statement), "decl" (declares; never dropped), "if", "loop", "switch",
    "region" (a block that must stay whole: a lane-mask region, a barrier pair), "fixed" (kept),
    "init" (gives memory its first value: a local array's loop, a shared write; never dropped or
    unwrapped, or the reduced kernel would read uninitialised memory, which is undefined).
    """
    kind: str
    fmt: str = ""
    args: list[Expr] = field(default_factory=list)
    blocks: list[list[Stmt]] = field(default_factory=list)
    # for compound statements: the text around each block, e.g. ["if ({0}) {", "} else {", "}"]
    frame: list[str] = field(default_factory=list)
    var: str = ""  # the declared name (decl), for the zero replacement
    ty: str = ""

    def render(self, indent: int) -> list[str]:
        pad = "  " * indent
        if not self.blocks:
            return [pad + self.fmt.format(*(a.render() for a in self.args))]
        vals = [a.render() for a in self.args]
        out: list[str] = []
        for i, block in enumerate(self.blocks):
            out.append(pad + self.frame[i].format(*vals))
            for s in block:
                out.extend(s.render(indent + 1))
        out.append(pad + self.frame[len(self.blocks)].format(*vals))
        return out

    def size(self) -> int:
        return 1 + sum(a.size() for a in self.args) + sum(s.size() for b in self.blocks for s in b)


@dataclass
class Slot:
    """One 32-bit output word per thread: its type ("u32", "f32", "f64.lo", "f16", ...) and, for
    the approximate math functions, the tolerance in units in the last place."""
    ty: str
    ulps: int = 0
    what: str = ""


@dataclass
class Kernel:
    name: str
    grid: int
    block: int
    helpers: list[str]  # device functions this kernel's body calls (rendered before it)
    body: list[Stmt]
    slots: list[Slot]
    atomics: list[str]  # the atomic region's word types (after every thread's slots)
    headers: tuple[str, ...] = ()

    @property
    def threads(self) -> int:
        return self.grid * self.block

    @property
    def out_words(self) -> int:
        return self.threads * len(self.slots) + len(self.atomics)

    def render(self) -> str:
        lines = [*self.helpers, f'extern "C" __global__ void __launch_bounds__({self.block}) '
                 f"{self.name}(const unsigned* __restrict__ in, unsigned* __restrict__ out) {{"]
        for s in self.body:
            lines.extend(s.render(1))
        lines.append("}")
        return "\n".join(lines) + "\n"

    def size(self) -> int:
        return sum(s.size() for s in self.body)
