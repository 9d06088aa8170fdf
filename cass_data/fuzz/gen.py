"""Random CUDA kernels in the spirit of Csmith/YARPGen: well-defined programs whose every output
word is determined by the input, so any platform that computes another word is wrong.

A kernel `fzN(const unsigned* in, unsigned* out)` reads a 1,024-word input and writes, per thread,
`len(slots)` words (typed: see ast.Slot), then a region of atomic accumulators. Its body draws from:
scalars of every type (ops.OPS: int/fp 32/64, half, bf16, bool), declarations and assignments,
divergent if/else, loops with constant and data-dependent trip counts, break/continue, switch
(dense: jump tables), local arrays with computed indices, shared memory with barriers and
__syncthreads_count/and/or, warp shuffles/votes/reductions/match with full and partial masks,
cooperative-groups tiles (shfl, ballot, cg::reduce), atomics on global and shared memory of every
width, recursive __noinline__ functions and approximate math into tolerance slots.

Convergence rules keep warp collectives defined: full-mask collectives and barriers only where
every thread of the block arrives (top level, constant-trip loops); partial-mask ones only inside
`if ((M >> lane) & 1)` regions taken from those points, with the mask M a constant.
"""
from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field

from .ast import CTYPE, Expr, Kernel, Slot, Stmt, zero
from .ops import APPROX, FLOAT_TYPES, INT_TYPES, OPS, SCALARS

# The atomic region after the threads' slots: 8 words of 32-bit atomics, 4 64-bit words, then 8 words
# that each block's shared accumulators are added to.
ATOMIC_TYPES = ["u32"] * 8 + ["u64.lo", "u64.hi"] * 4 + ["u32"] * 8
ATOMIC32 = [
    ("atomicAdd({p}, {0});", "u32"), ("atomicSub({p}, {0});", "u32"), ("atomicOr({p}, {0});", "u32"),
    ("atomicXor({p}, {0});", "u32"), ("atomicMax({p}, {0});", "u32"), ("atomicAnd({p}, {0} | 0xff00ff00u);", "u32"),
    ("atomicMin((int*)({p}), (int)({0} | 0x80000000u));", "u32"),
    ("atomicMax((int*)({p}), {0});", "i32"), ("atomicAdd((int*)({p}), {0});", "i32"),
    ("atomicInc({p}, 37u);", None), ("atomicDec({p}, 29u);", None),
    ("atomicAdd((float*)({p}), (float)((int)({0} & 15u) - 8));", "u32"),
]
ATOMIC64 = [
    ("atomicAdd((unsigned long long*)({p}), (unsigned long long)({0}));", "u64"),
    ("atomicMax((unsigned long long*)({p}), {0});", "u64"),
    ("atomicOr((unsigned long long*)({p}), {0});", "u64"),
    ("atomicMin((long long*)({p}), {0});", "i64"),
    ("atomicAdd((double*)({p}), (double)((int)({0} & 255u) - 100));", "u32"),
]
SHUFFLE_TYPES = ("i32", "u32", "i64", "u64", "f32", "f64")


def _hexfloat(x: float, suffix: str) -> str:
    if x != x or x in (float("inf"), float("-inf")):
        raise ValueError(x)
    return x.hex() + suffix if x != 0 else ("-0.0" if str(x)[0] == "-" else "0.0") + suffix


def literal(rng: random.Random, ty: str) -> Expr:
    if ty == "bool":
        return Expr(ty, rng.choice(("true", "false")))
    if ty in INT_TYPES:
        bits = 32 if ty in ("i32", "u32") else 64
        pick = rng.random()
        if pick < 0.4:
            v = rng.randint(-8, 40)
        elif pick < 0.6:
            v = rng.choice(((1 << (bits - 1)) - 1, -(1 << (bits - 1)), 255, 256, 65535, 31, 32, 63, 64))
        else:
            v = rng.getrandbits(bits) - (1 << (bits - 1)) * rng.randint(0, 1)
        if ty[0] == "u":
            v &= (1 << bits) - 1
            return Expr(ty, f"{v}u" if bits == 32 else f"{v}ull")
        v = max(min(v, (1 << (bits - 1)) - 1), -(1 << (bits - 1)))
        if v == -(1 << (bits - 1)):
            return Expr(ty, f"(-{(1 << (bits - 1)) - 1}{'' if bits == 32 else 'll'} - 1)")
        text = f"{v}" if bits == 32 else f"{v}ll"
        return Expr(ty, f"({text})" if v < 0 else text)
    pick = rng.random()
    if pick < 0.5:
        x = rng.randint(-64, 64) / rng.choice((1, 2, 4, 8, 3))
    elif pick < 0.7:
        x = rng.choice((0.0, -0.0, 1.0, -1.0, 0.5, 65504.0, 1e-7, 3.0e38, 1.0e-39, 1e300, 2.0 ** -1060))
    else:
        x = rng.uniform(-1e6, 1e6) * 10.0 ** rng.randint(-30, 30)
    if ty == "f32":
        x = struct.unpack("<f", struct.pack("<f", max(min(x, 3.0e38), -3.0e38)))[0]
        text = _hexfloat(x, "f")
        return Expr(ty, f"({text})" if text[0] == "-" else text)
    if ty == "f64":
        text = _hexfloat(x, "")
        return Expr(ty, f"({text})" if text[0] == "-" else text)
    x = struct.unpack("<f", struct.pack("<f", max(min(x, 3.0e38), -3.0e38)))[0]
    conv = "__float2half" if ty == "f16" else "__float2bfloat16"
    return Expr(ty, f"{conv}({_hexfloat(x, 'f')})")


@dataclass
class Scope:
    vars: dict[str, list[str]] = field(default_factory=dict)  # type -> names
    arrays: list[tuple[str, str, int]] = field(default_factory=list)  # (name, type, length)
    readonly: set[str] = field(default_factory=set)  # loop counters: read, never assigned

    def child(self) -> Scope:
        return Scope({k: list(v) for k, v in self.vars.items()}, list(self.arrays), set(self.readonly))

    def add(self, ty: str, name: str, readonly: bool = False) -> None:
        self.vars.setdefault(ty, []).append(name)
        if readonly:
            self.readonly.add(name)

    def assignable(self, ty: str) -> list[str]:
        return [n for n in self.vars.get(ty, []) if n not in self.readonly]


@dataclass
class Ctx:
    """Where a statement is generated: the scope, the nesting depth, whether every thread of the
    block is here (block-converged: barriers and full-mask collectives) or only a mask's lanes of
    each warp (mask), and whether break/continue have a loop to leave."""
    scope: Scope
    depth: int
    converged: bool
    mask: int | None = None
    in_loop: bool = False
    in_switch: bool = False

    def inner(self, converged: bool | None = None, mask: int | None | str = "keep", in_loop: bool | None = None,
              in_switch: bool | None = None) -> Ctx:
        return Ctx(self.scope.child(), self.depth + 1, self.converged if converged is None else converged,
                   self.mask if mask == "keep" else mask, self.in_loop if in_loop is None else in_loop,
                   self.in_switch if in_switch is None else in_switch)


class Generator:
    def __init__(self, rng: random.Random, name: str, features: frozenset[str] | None = None) -> None:
        self.rng = rng
        self.name = name
        self.counter = 0
        self.features = features if features is not None else frozenset(FEATURES)
        self.block = rng.choice((32, 64, 64, 128, 96, 256)) if "warp" in self.features or rng.random() < 0.8 \
            else rng.choice((40, 33, 100))
        self.grid = rng.choice((1, 1, 2, 3))
        self.warp_ok = self.block % 32 == 0
        self.helpers: list[str] = []
        self.headers: set[str] = set()
        self.shared_decls: list[Stmt] = []
        self.uses_shared_acc = False
        self.atom_forms: dict[int, tuple[str, str | None]] = {}

    # ---- names and expressions ------------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def expr(self, ty: str, ctx: Ctx, depth: int = 0) -> Expr:
        rng = self.rng
        if depth >= 4 or rng.random() < 0.25 + 0.15 * depth:
            return self.leaf(ty, ctx)
        ops = OPS[ty]
        w, fmt, args = rng.choices(ops, weights=[o[0] for o in ops])[0]
        return Expr(ty, fmt, [self.expr(a, ctx, depth + 1) for a in args])

    def leaf(self, ty: str, ctx: Ctx) -> Expr:
        rng = self.rng
        names = ctx.scope.vars.get(ty, [])
        arrays = [a for a in ctx.scope.arrays if a[1] == ty]
        pick = rng.random()
        if names and pick < 0.55:
            return Expr(ty, rng.choice(names))
        if arrays and pick < 0.65:
            name, _, n = rng.choice(arrays)
            return Expr(ty, f"{name}[({{0}}) & {n - 1}u]", [self.leaf("u32", ctx)])
        if ty == "u32" and pick < 0.8:
            return Expr(ty, rng.choice(("tid", "gid", "lane", "(unsigned)blockIdx.x", "blockDim.x")))
        if ty == "i32" and pick < 0.75:
            return Expr(ty, rng.choice(("(int)tid", "(int)gid", "(int)lane - 16")))
        if ty in ("u32", "i32", "f32", "f64") and pick < 0.9:
            idx = Expr("u32", f"gid * {rng.randint(1, 7)}u + {rng.randint(0, 1023)}u")
            load = {"u32": "in[({0}) & 1023u]", "i32": "(int)in[({0}) & 1023u]",
                    "f32": "__uint_as_float(in[({0}) & 1023u])",
                    "f64": "__longlong_as_double((long long)fz_ld64(in, {0}))"}[ty]
            return Expr(ty, load, [idx])
        return literal(rng, ty)

    def cond(self, ctx: Ctx) -> Expr:
        return self.expr("bool", ctx, 1)

    # ---- statements ------------------------------------------------------------------------
    def block_stmts(self, ctx: Ctx, n: int) -> list[Stmt]:
        out: list[Stmt] = []
        for _ in range(n):
            out.extend(self.stmt(ctx))
        return out

    def stmt(self, ctx: Ctx) -> list[Stmt]:
        rng = self.rng
        f = self.features
        choices: list[tuple[float, str]] = [(5, "decl"), (5, "assign")]
        if ctx.depth < 3:
            choices += [(2, "if"), (1.5, "loop")]
            if "switch" in f:
                choices.append((0.7, "switch"))
        if ctx.in_loop and ctx.depth > 0:
            choices.append((0.5, "jump"))
        if "array" in f:
            choices.append((0.8, "array"))
        if "atomic" in f:
            choices.append((0.8, "atomic"))
        if "recursion" in f and ctx.depth < 2:
            choices.append((0.3, "recursion"))
        if ctx.converged and ctx.depth == 0 and "shared" in f:
            choices.append((1.0, "shared"))
        if self.warp_ok and "warp" in f and (ctx.converged or ctx.mask is not None):
            choices.append((2.0, "warp"))
            if ctx.converged and ctx.mask is None:
                choices.append((1.0, "mask_region"))
        if self.warp_ok and "cg" in f and ctx.converged and ctx.mask is None:
            choices.append((0.6, "tile"))
        kind = rng.choices([c[1] for c in choices], weights=[c[0] for c in choices])[0]
        return getattr(self, f"s_{kind}")(ctx)

    def declare(self, ctx: Ctx, ty: str, init: Expr, prefix: str = "v") -> tuple[str, Stmt]:
        name = self.fresh(prefix)
        ctx.scope.add(ty, name)
        return name, Stmt("decl", f"{CTYPE[ty]} {name} = {{0}};", [init], var=name, ty=ty)

    def s_decl(self, ctx: Ctx) -> list[Stmt]:
        ty = self.rng.choice(SCALARS + ("i32", "u32", "f32"))
        return [self.declare(ctx, ty, self.expr(ty, ctx))[1]]

    def s_assign(self, ctx: Ctx) -> list[Stmt]:
        tys = [t for t in SCALARS if ctx.scope.assignable(t)]
        if not tys:
            return self.s_decl(ctx)
        ty = self.rng.choice(tys)
        name = self.rng.choice(ctx.scope.assignable(ty))
        return [Stmt("line", f"{name} = {{0}};", [self.expr(ty, ctx)])]

    def s_if(self, ctx: Ctx) -> list[Stmt]:
        rng = self.rng
        c = self.cond(ctx) if rng.random() < 0.7 else Expr("bool", f"(lane {rng.choice('<>')} {rng.randint(1, 30)}u)")
        then = self.block_stmts(ctx.inner(converged=False, mask=None), rng.randint(1, 4))
        if rng.random() < 0.5:
            return [Stmt("if", args=[c], blocks=[then], frame=["if ({0}) {{", "}}"])]
        other = self.block_stmts(ctx.inner(converged=False, mask=None), rng.randint(1, 3))
        return [Stmt("if", args=[c], blocks=[then, other], frame=["if ({0}) {{", "}} else {{", "}}"])]

    def s_loop(self, ctx: Ctx) -> list[Stmt]:
        rng = self.rng
        i = self.fresh("i")
        if rng.random() < 0.5:  # constant trip count: keeps convergence
            # a break in a loop every thread runs would leave the later iterations unconverged
            inner = ctx.inner(in_loop=not (ctx.converged or ctx.mask is not None))
            inner.scope.add("i32", i, readonly=True)
            n = rng.randint(1, 6)
            body = self.block_stmts(inner, rng.randint(1, 4))
            return [Stmt("loop", blocks=[body], frame=[f"for (int {i} = 0; {i} < {n}; ++{i}) {{{{", "}}"])]
        n = self.fresh("n")
        bound = Expr("u32", "({0}) & 7u", [self.expr("u32", ctx, 2)])
        inner = ctx.inner(converged=False, mask=None, in_loop=True)
        inner.scope.add("u32", i, readonly=True)
        body = self.block_stmts(inner, rng.randint(1, 4))
        if rng.random() < 0.3:
            return [Stmt("fixed", f"unsigned {n} = {{0}};", [bound]),
                    Stmt("loop", blocks=[body],
                         frame=[f"unsigned {i} = 0; do {{{{", f"}}}} while (++{i} < {n});"])]
        return [Stmt("fixed", f"unsigned {n} = {{0}};", [bound]),
                Stmt("loop", blocks=[body], frame=[f"for (unsigned {i} = 0; {i} < {n}; ++{i}) {{{{", "}}"])]

    def s_jump(self, ctx: Ctx) -> list[Stmt]:
        word = "continue" if ctx.in_switch or self.rng.random() < 0.5 else "break"
        if ctx.in_switch and word == "break":
            word = "continue"
        return [Stmt("if", args=[self.cond(ctx)], blocks=[[Stmt("line", f"{word};")]], frame=["if ({0}) {{", "}}"])]

    def s_switch(self, ctx: Ctx) -> list[Stmt]:
        rng = self.rng
        n = rng.choice((3, 4, 6, 8))
        labels = sorted(rng.sample(range(n + 2), n))
        inner = ctx.inner(converged=False, mask=None, in_switch=True)
        blocks: list[list[Stmt]] = []
        frame = []
        for k, lab in enumerate(labels):
            body = self.block_stmts(inner.inner(), rng.randint(1, 2))
            if rng.random() < 0.8:
                body.append(Stmt("line", "break;"))
            blocks.append(body)
            frame.append(f"switch (({{0}}) % {n + 2}u) {{{{ case {lab}: {{{{" if k == 0 else f"}}}} case {lab}: {{{{")
        blocks.append(self.block_stmts(inner.inner(), 1))
        frame += ["}} default: {{", "}} }}"]
        return [Stmt("switch", args=[self.expr("u32", ctx, 2)], blocks=blocks, frame=frame)]

    def s_array(self, ctx: Ctx) -> list[Stmt]:
        rng = self.rng
        ty = rng.choice(("i32", "u32", "f32", "f64", "u64", "f16"))
        n = rng.choice((4, 8, 16))
        name = self.fresh("a")
        i = self.fresh("k")
        inner = ctx.inner()
        inner.scope.add("u32", i, readonly=True)
        init = self.expr(ty, inner, 2)
        ctx.scope.arrays.append((name, ty, n))
        out = [Stmt("fixed", f"{CTYPE[ty]} {name}[{n}];"),
               Stmt("init", blocks=[[Stmt("line", f"{name}[{i}] = {{0}};", [init])]],
                    frame=[f"for (unsigned {i} = 0; {i} < {n}u; ++{i}) {{{{", "}}"])]
        for _ in range(rng.randint(1, 3)):
            out.append(Stmt("line", f"{name}[({{0}}) & {n - 1}u] = {{1}};", [self.expr("u32", ctx, 2), self.expr(ty, ctx, 1)]))
        return out

    def s_atomic(self, ctx: Ctx) -> list[Stmt]:
        """An atomic on one accumulator word. Each word keeps one operation for the whole kernel:
        different operations on one word would make the result depend on the threads' order."""
        rng = self.rng
        if rng.random() < 0.3:
            self.uses_shared_acc = True
            k = rng.randrange(8)
            return [Stmt("line", f"atomicAdd(&fz_sacc[{k}], {{0}});", [self.expr("u32", ctx, 1)])]
        if rng.random() < 0.7:
            k = rng.randrange(8)
            fmt, ty = self.atom_forms.setdefault(k, rng.choice(ATOMIC32))
            p = f"out + fz_atom + {k}"
        else:
            k = 8 + 2 * rng.randrange(4)
            fmt, ty = self.atom_forms.setdefault(k, rng.choice(ATOMIC64))
            p = f"out + fz_atom + {k}"
        return [Stmt("line", fmt.replace("{p}", p), [self.expr(ty, ctx, 1)] if ty else [])]

    def s_recursion(self, ctx: Ctx) -> list[Stmt]:
        rng = self.rng
        fn = self.fresh(f"{self.name}_rec")
        a, b = rng.choice(("3u", "5u", "7u", "0x9e37u")), rng.choice(("x >> 1", "x ^ d", "__brev(x)", "x * d"))
        self.helpers.append(
            f"__device__ __noinline__ unsigned {fn}(unsigned x, unsigned d) {{\n"
            f"  if (d == 0u) return x + 1u;\n"
            f"  unsigned l = {fn}(x * {a} + d, d - 1u);\n"
            f"  return (d & 1u) ? l ^ ({b}) : l + {fn}(x, d >> 1);\n}}\n")
        # The depth is the same in every lane of a warp (a literal, or from blockIdx/blockDim): the
        # recursion does not diverge, x varies. With a per-lane depth, nvcc 13 (sm_90) let lanes
        # through the next __syncthreads before the slower ones had stored to shared memory, even
        # with a __syncwarp() after the call (which it dropped): the GPU's answer was not CUDA's
        # (fuzz r2:51, 284, 588 ...; checked on the H200).
        depth = rng.choice((f"{rng.randrange(8)}u", f"(unsigned)blockIdx.x + {rng.randrange(8)}u",
                            f"blockDim.x >> {rng.randrange(3, 8)}", f"(unsigned)blockIdx.x * {rng.randrange(1, 8)}u"))
        _, decl = self.declare(ctx, "u32", Expr("u32", f"{fn}({{0}}, ({depth}) & 7u)", [self.expr("u32", ctx, 2)]))
        return [decl]

    def s_shared(self, ctx: Ctx) -> list[Stmt]:
        rng = self.rng
        ty = rng.choice(("i32", "u32", "f32", "f64", "u64", "f16", "bf16"))
        sh = self.fresh("sh")
        self.shared_decls.append(Stmt("fixed", f"__shared__ {CTYPE[ty]} {sh}[{self.block}];"))
        write = Stmt("init", f"{sh}[tid] = {{0}};", [self.expr(ty, ctx, 1)])
        how = rng.random()
        if how < 0.4:
            idx = f"(tid + {rng.randint(1, self.block - 1)}u) % {self.block}u"
        elif how < 0.7:
            idx = f"(tid ^ {rng.randint(1, 31)}u) % {self.block}u"
        else:
            idx = f"{rng.randrange(self.block)}u"
        out = [write, Stmt("fixed", "__syncthreads();")]
        _, decl = self.declare(ctx, ty, Expr(ty, f"{sh}[{idx}]"))
        out += [decl]
        if rng.random() < 0.3:
            kind = rng.choice(("count", "and", "or"))
            _, d2 = self.declare(ctx, "i32", Expr("i32", f"__syncthreads_{kind}({{0}})", [self.cond(ctx)]))
            out.append(d2)
        out.append(Stmt("fixed", "__syncthreads();"))
        return out

    # ---- warp collectives ---------------------------------------------------------------------
    def _mask(self) -> int:
        rng = self.rng
        pick = rng.random()
        if pick < 0.3:
            return rng.choice((0x0000FFFF, 0xFFFF0000, 0x55555555, 0xAAAAAAAA, 0x000000FF, 0x0F0F0F0F))
        if pick < 0.45:
            return 1 << rng.randrange(32)
        return rng.getrandbits(32) | (1 << rng.randrange(32))

    def s_mask_region(self, ctx: Ctx) -> list[Stmt]:
        m = self._mask()
        inner = ctx.inner(converged=False, mask=m)
        body = self.block_stmts(inner, self.rng.randint(1, 4))
        if not any(s.kind == "warp" for s in body):
            body.extend(self.s_warp(inner))
        return [Stmt("region", blocks=[body], frame=[f"if ((0x{m:08x}u >> lane) & 1u) {{{{", "}}"])]

    def s_warp(self, ctx: Ctx) -> list[Stmt]:
        rng = self.rng
        m = ctx.mask if ctx.mask is not None else 0xFFFFFFFF
        ms = "FZ_FULL" if m == 0xFFFFFFFF else f"0x{m:08x}u"
        lanes = [k for k in range(32) if m >> k & 1]
        forms = ["ballot", "any", "all", "reduce", "match_any", "match_all", "shfl_bcast", "syncwarp"]
        if m == 0xFFFFFFFF:
            forms += ["shfl", "shfl_up", "shfl_down", "shfl_xor", "shfl", "reduce"]
        else:
            closed = [x for x in (1, 2, 4, 8, 16) if all((k ^ x) in lanes for k in lanes)]
            if closed:
                forms.append("shfl_xor_closed")
        form = rng.choice(forms)
        if form == "ballot":
            return [self.declare(ctx, "u32", Expr("u32", f"__ballot_sync({ms}, {{0}})", [self.cond(ctx)]))[1]]
        if form in ("any", "all"):
            return [self.declare(ctx, "i32", Expr("i32", f"__{form}_sync({ms}, {{0}})", [self.cond(ctx)]))[1]]
        if form == "reduce":
            op = rng.choice(("add", "min", "max", "and", "or", "xor"))
            ty = "u32" if op in ("and", "or", "xor") else rng.choice(("i32", "u32"))
            return [self.declare(ctx, ty, Expr(ty, f"__reduce_{op}_sync({ms}, {{0}})", [self.expr(ty, ctx, 2)]))[1]]
        if form == "match_any":
            ty = rng.choice(("u32", "i32", "u64"))  # not a float: match compares bits, and NaN bits are the platform's
            return [self.declare(ctx, "u32", Expr("u32", f"__match_any_sync({ms}, {{0}})", [self.expr(ty, ctx, 2)]))[1]]
        if form == "match_all":
            p = self.fresh("p")
            ty = rng.choice(("u32", "i64"))
            name, decl = self.declare(ctx, "u32", Expr("u32", f"__match_all_sync({ms}, {{0}}, &{p})",
                                                       [Expr(ty, "(({0}) & 1)" if ty == "u32" else "(({0}) & 1ll)",
                                                             [self.expr(ty, ctx, 2)])]))
            ctx.scope.add("i32", p)
            return [Stmt("fixed", f"int {p} = 0;"), decl]
        if form == "syncwarp":
            return [Stmt("line", f"__syncwarp({ms});")]
        ty = rng.choice(SHUFFLE_TYPES)
        v = self.expr(ty, ctx, 2)
        if form == "shfl_bcast":
            return [self.declare(ctx, ty, Expr(ty, f"__shfl_sync({ms}, {{0}}, {rng.choice(lanes)})", [v]))[1]]
        if form == "shfl_xor_closed":
            x = rng.choice([x for x in (1, 2, 4, 8, 16) if all((k ^ x) in lanes for k in lanes)])
            return [self.declare(ctx, ty, Expr(ty, f"__shfl_xor_sync({ms}, {{0}}, {x})", [v]))[1]]
        width = rng.choice((32, 32, 16, 8, 4, 2))
        if form == "shfl":
            src = Expr("i32", "(int)(({0}) & 63u)", [self.expr("u32", ctx, 2)])
            return [self.declare(ctx, ty, Expr(ty, f"__shfl_sync(FZ_FULL, {{0}}, {{1}}, {width})", [v, src]))[1]]
        d = rng.randint(0, width)
        fn = {"shfl_up": "__shfl_up_sync", "shfl_down": "__shfl_down_sync", "shfl_xor": "__shfl_xor_sync"}[form]
        if form == "shfl_xor":
            d = rng.randint(1, 31)
        return [self.declare(ctx, ty, Expr(ty, f"{fn}(FZ_FULL, {{0}}, {d}u, {width})" if form != "shfl_xor"
                                         else f"{fn}(FZ_FULL, {{0}}, {d}, {width})", [v]))[1]]

    def s_tile(self, ctx: Ctx) -> list[Stmt]:
        rng = self.rng
        self.headers.add("cg")
        w = rng.choice((4, 8, 16, 32))
        t = self.fresh("t")
        out = [Stmt("fixed", f"cg::thread_block_tile<{w}> {t} = cg::tiled_partition<{w}>(cg::this_thread_block());")]
        # thread_block_tile::any/all/ballot: HIP 5.2 has none of them (a clang error, not a wrong answer)
        form = rng.choice(("shfl", "shfl_xor", "reduce", "reduce", "rank"))
        if form == "shfl":
            ty = rng.choice(SHUFFLE_TYPES)
            out.append(self.declare(ctx, ty, Expr(ty, f"{t}.shfl({{0}}, {rng.randrange(w)})", [self.expr(ty, ctx, 2)]))[1])
        elif form == "shfl_xor":
            ty = rng.choice(SHUFFLE_TYPES)
            out.append(self.declare(ctx, ty, Expr(ty, f"{t}.shfl_xor({{0}}, {rng.randrange(1, w)})",
                                                   [self.expr(ty, ctx, 2)]))[1])
        elif form in ("ballot", "any"):
            res = "u32" if form == "ballot" else "i32"
            out.append(self.declare(ctx, res, Expr(res, f"({CTYPE[res]}){t}.{form}({{0}})", [self.cond(ctx)]))[1])
        elif form == "reduce":
            op, ty = rng.choice((("plus", "i32"), ("plus", "u32"), ("less", "i32"), ("greater", "u32"),
                                 ("bit_xor", "u32"), ("bit_and", "u32"), ("plus", "f32")))
            if ty == "f32":  # exact sums only: small integers
                v = Expr("f32", "(float)((int)(({0}) & 31u) - 16)", [self.expr("u32", ctx, 2)])
            else:
                v = self.expr(ty, ctx, 2)
            out.append(self.declare(ctx, ty, Expr(ty, f"cg::reduce({t}, ({CTYPE[ty]})({{0}}), cg::{op}<{CTYPE[ty]}>())", [v]))[1])
        else:
            out.append(self.declare(ctx, "u32", Expr("u32", f"{t}.thread_rank() * 16u + {t}.meta_group_rank()"))[1])
        return out

    # ---- the kernel ---------------------------------------------------------------------------
    def kernel(self) -> Kernel:
        rng = self.rng
        scope = Scope()
        ctx = Ctx(scope, 0, True)
        head = [Stmt("fixed", "const unsigned tid = threadIdx.x;"),
                Stmt("fixed", "const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;"),
                Stmt("fixed", "const unsigned lane = threadIdx.x & 31u;"),
                Stmt("fixed", f"const unsigned fz_atom = {self.grid * self.block} * FZ_SLOTS;")]
        body = self.block_stmts(ctx, rng.randint(4, 14))
        # the output slots: a random choice of the top-level values of each type, then approx math
        nslots = rng.choice((4, 6, 8))
        slots: list[Slot] = []
        stores: list[Stmt] = []
        live = [(t, n) for t in SCALARS for n in scope.vars.get(t, [])]
        while len(slots) < nslots:
            if rng.random() < 0.2 and "approx" in self.features:
                fmt, arg, sty, ulps = rng.choice(APPROX)
                val = Expr(arg, fmt, [self.expr(arg, ctx, 2)])
                what = fmt.split("(")[0]
                if sty.startswith("f32~"):
                    slots.append(Slot(sty, 0, what))
                    stores.append(self._store(len(slots) - 1, "f32", val))
                    continue
                if sty == "f64" and len(slots) + 2 > nslots:
                    continue
                self._slots(slots, stores, sty, val, ulps, what)
                continue
            if live and rng.random() < 0.85:
                ty, name = rng.choice(live)
                val = Expr(ty, name)
            else:
                ty = rng.choice(SCALARS)
                val = self.expr(ty, ctx, 1)
            if ty in ("i64", "u64", "f64") and len(slots) + 2 > nslots:
                continue
            self._slots(slots, stores, ty, val, 0, "")
        prefix = list(head)
        if self.uses_shared_acc:
            self.shared_decls.append(Stmt("fixed", "__shared__ unsigned fz_sacc[8];"))
            prefix += [Stmt("fixed", "if (tid < 8u) fz_sacc[tid] = 0u;"), Stmt("fixed", "__syncthreads();")]
        tail = stores
        if self.uses_shared_acc:
            tail += [Stmt("fixed", "__syncthreads();"),
                     Stmt("fixed", "if (tid < 8u) atomicAdd(out + fz_atom + 16u + tid, fz_sacc[tid]);")]
        body = self.shared_decls + prefix + body + tail
        slot_def = Stmt("fixed", f"#define FZ_SLOTS {len(slots)}u")
        undef = Stmt("fixed", "#undef FZ_SLOTS")
        return Kernel(self.name, self.grid, self.block, self.helpers, [slot_def] + body + [undef], slots,
                      list(ATOMIC_TYPES), tuple(sorted(self.headers)))

    def _store(self, k: int, ty: str, val: Expr) -> Stmt:
        bits = {"u32": "(unsigned)({0})", "i32": "(unsigned)({0})", "f32": "__float_as_uint({0})",
                "f16": "(unsigned)__half_as_ushort({0})", "bf16": "(unsigned)__bfloat16_as_ushort({0})"}[ty]
        return Stmt("line", f"out[gid * FZ_SLOTS + {k}u] = {bits};", [val])

    def _slots(self, slots: list[Slot], stores: list[Stmt], ty: str, val: Expr, ulps: int, what: str) -> None:
        if ty in ("i64", "u64", "f64"):
            name = self.fresh("w")
            as_u = "(unsigned long long)__double_as_longlong({0})" if ty == "f64" else "(unsigned long long)({0})"
            k = len(slots)
            stores.append(Stmt("region", blocks=[[
                Stmt("fixed", f"unsigned long long {name} = {{0}};", [Expr(ty, as_u, [val])]),
                Stmt("fixed", f"out[gid * FZ_SLOTS + {k}u] = (unsigned){name};"),
                Stmt("fixed", f"out[gid * FZ_SLOTS + {k + 1}u] = (unsigned)({name} >> 32);")]],
                frame=["{{", "}}"]))
            lo = "f64.lo" if ty == "f64" else f"{ty}.lo"
            slots += [Slot(lo, ulps, what), Slot(lo.replace(".lo", ".hi"), ulps, what)]
            return
        slots.append(Slot(ty, ulps, what))
        stores.append(self._store(len(slots) - 1, ty, val))


FEATURES = ("switch", "array", "atomic", "recursion", "shared", "warp", "cg", "approx")


def generate(seed: str, index: int, features: frozenset[str] | None = None) -> Kernel:
    """Kernel `index` of `seed`; the seed "ops" numbers the one-operation kernels (op_kernel)."""
    if seed == "ops":
        return op_kernel(index)
    rng = random.Random(f"cass-fuzz:{seed}:{index}")
    return Generator(rng, f"fz{index}", features).kernel()


def all_ops() -> list[tuple[str, str, tuple[str, ...], int, str]]:
    """Every operation once: (result type, format, operand types, ulps, slot type)."""
    out = [(ty, fmt, args, 0, ty) for ty in (*SCALARS, "bool") for _, fmt, args in OPS[ty] if "{0}" in fmt]
    out += [(arg, fmt, (arg,), ulps, sty) for fmt, arg, sty, ulps in APPROX]
    return out


OPERAND = {
    "u32": "in[gid * {k}u + {j}u & 1023u]", "i32": "(int)in[gid * {k}u + {j}u & 1023u]",
    "u64": "fz_ld64(in, gid * {k}u + {j}u)", "i64": "(long long)fz_ld64(in, gid * {k}u + {j}u)",
    "f32": "__uint_as_float(in[gid * {k}u + {j}u & 1023u])",
    "f64": "((gid & 1u) ? (double)__uint_as_float(in[gid * {k}u + {j}u & 1023u]) : "
           "__longlong_as_double((long long)fz_ld64(in, gid * {k}u + {j}u)))",
    "f16": "__ushort_as_half((unsigned short)in[gid * {k}u + {j}u & 1023u])",
    "bf16": "__ushort_as_bfloat16((unsigned short)in[gid * {k}u + {j}u & 1023u])",
    "bool": "((in[gid * {k}u + {j}u & 1023u] & 1u) != 0u)",
}


def op_kernel(index: int) -> Kernel:
    """One operation (ops.OPS or ops.APPROX) over 256 threads' operands read from the input: when a
    random kernel differs, these say which operation a path gets wrong."""
    ops = all_ops()
    ty, fmt, args, ulps, sty = ops[index % len(ops)]
    operands = [Expr(a, OPERAND[a].format(k=len(args) + 1 + index % 3, j=3 * j + index % 7)) for j, a in enumerate(args)]
    val = Expr(ty, fmt, operands)
    g = Generator(random.Random(index), f"fz{index}", frozenset())
    g.grid, g.block = 2, 128
    slots: list[Slot] = []
    stores: list[Stmt] = []
    if ty == "bool":
        g._slots(slots, stores, "i32", Expr("i32", "(int)({0})", [val]), 0, "")
    else:
        g._slots(slots, stores, ty, val, ulps, fmt.split("(")[0])
        if sty.startswith("f32~"):
            slots[0] = Slot(sty, 0, slots[0].what)
    if len(slots) == 1:
        g._slots(slots, stores, "u32", Expr("u32", "0u"), 0, "")
    head = [Stmt("fixed", f"#define FZ_SLOTS {len(slots)}u"),
            Stmt("fixed", "const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;")]
    return Kernel(f"fz{index}", g.grid, g.block, [], head + stores + [Stmt("fixed", "#undef FZ_SLOTS")], slots,
                  list(ATOMIC_TYPES))


def batch_source(kernels: list[Kernel]) -> str:
    from .ops import EXTRA_HEADERS, PRELUDE

    extra = "\n".join(EXTRA_HEADERS[h] for h in sorted({h for k in kernels for h in k.headers}))
    return PRELUDE.replace("@EXTRA@", extra) + "\n" + "\n".join(k.render() for k in kernels)
