"""Inputs for running a kernel alone: a plan from its cubin record (parameter offsets and sizes
from KPARAM_INFO, types from the demangled signature), buffers made from the plan, the packed
parameter block, and a comparison of two runs' buffers.

    from cass_cc.sass.inputs import plan, make_buffers, pack, compare
    p = plan(kernel)                       # a Plan, or a PlanError saying why not
    bufs = make_buffers(p)                 # one array per pointer parameter
    blob = pack(p, [address of each buffer])
    same, how = compare(p, outs_a, outs_b) # "bytes" / "floats within rtol ..." / what differs

The rules (bench/sass_gpu_check.py's, floats widened to both signs): every pointer gets its own buffer of its
element type (floats in [-1, 1): both signs, so clamps and relus change something; integers in
[0, 64) so data-driven indices stay in bounds);
integer scalars take the shape's value (64 by default), float scalars 1.5, by-value structs
small integers (2 per 32-bit word); launches of 3 blocks of 64 threads (or the kernel's
required block size) with 8 KiB of dynamic shared memory. SHAPES lists the other launches a
caller may try when the first one shows nothing (a kernel that assumes a block size);
`source_block` finds the block size the program itself launches the kernel with (a literal,
a `#define`, a constant, a `dim3`), for a shape to try first: a kernel that indexes a shared
tile by threadIdx assumes its block, and under another block both compilations run into
undefined behaviour that need not agree.
Pointers to pointers, to structs, or a signature that does not match the parameters cannot
be planned: the kernel's data layout is unknown.
"""
from __future__ import annotations

import ast
import operator
import re
import struct
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Mapping, Sequence

if TYPE_CHECKING:
    import numpy as np

    from .cubin import Kernel

BUFFER_BYTES = 256 << 10
DYN_SHARED = 8 << 10
INT_SCALAR, FLOAT_SCALAR = 64, 1.5
RTOL, ATOL = 1e-5, 1e-6
HALF_RTOL = 1e-3
# bfloat16 buffers: NumPy has no such dtype; they hold uint16 bit patterns of values in [-1, 1)
# and are compared as floats with one bfloat16 step (2^-7) of relative tolerance
BF16, BF16_RTOL = "bfloat16", 2.0 ** -7


@dataclass(frozen=True)
class Shape:
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    int_value: int


SHAPES = (Shape((3, 1, 1), (64, 1, 1), INT_SCALAR),
          Shape((2, 1, 1), (256, 1, 1), 256),
          Shape((2, 2, 1), (16, 16, 1), 32))

# element type (as c++filt prints it, qualifiers dropped) -> NumPy dtype name
ELEMENT = {"float": "float32", "double": "float64", "int": "int32", "unsigned int": "uint32", "unsigned": "uint32",
           "long": "int64", "unsigned long": "uint64", "long long": "int64", "unsigned long long": "uint64",
           "short": "int16", "unsigned short": "uint16", "char": "int8", "signed char": "int8",
           "unsigned char": "uint8", "bool": "bool", "__half": "float16", "half": "float16", "size_t": "uint64",
           "int2": "int32", "int3": "int32", "int4": "int32", "uint2": "uint32", "uint4": "uint32",
           "float2": "float32", "float3": "float32", "float4": "float32", "double2": "float64",
           "long2": "int64", "char4": "int8", "uchar4": "uint8", "short2": "int16", "__half2": "float16",
           "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "uint16_t": "uint16", "int32_t": "int32",
           "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64",
           "__nv_bfloat16": BF16, "__nv_bfloat162": BF16, "__hip_bfloat16": BF16, "__hip_bfloat162": BF16}
SCALAR_INT = {"int", "unsigned int", "unsigned", "long", "unsigned long", "long long", "unsigned long long", "short",
              "unsigned short", "char", "signed char", "unsigned char", "bool", "size_t", "int8_t", "uint8_t",
              "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t"}
_QUALIFIERS = re.compile(r"\b(const|volatile|__restrict__|__restrict|restrict)\b")


class PlanError(Exception):
    """Why a kernel's inputs cannot be planned (one line)."""


@dataclass(frozen=True)
class Arg:
    kind: str  # buf | int | float | bytes
    offset: int
    size: int
    type: str = ""  # the parameter's C type as demangled
    dtype: str = ""  # buf: the element's NumPy dtype


@dataclass(frozen=True)
class Plan:
    kernel: str
    args: tuple[Arg, ...]
    param_size: int
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    int_value: int = INT_SCALAR
    float_value: float = FLOAT_SCALAR
    shared: int = DYN_SHARED
    buffer_bytes: int = BUFFER_BYTES
    fixed_block: bool = False  # the kernel requires its block size (REQNTID)

    @property
    def buffers(self) -> list[Arg]:
        return [a for a in self.args if a.kind == "buf"]

    def with_shape(self, shape: Shape) -> Plan:
        block = self.block if self.fixed_block else shape.block
        return replace(self, grid=shape.grid, block=block, int_value=shape.int_value)

    def describe(self) -> str:
        dims = "x".join(map(str, self.grid)) + " blocks of " + "x".join(map(str, self.block))
        return f"{dims}, integer scalars {self.int_value}"


def param_types(demangled: str) -> list[str] | None:
    """`void k<256>(float*, int const*, int)` -> ['float*', 'int const*', 'int']; None when the
    name carries no parameter list (extern "C", or c++filt was not there)."""
    text = demangled.strip()
    if not text.endswith(")"):
        return None
    depth, i = 0, len(text) - 1
    while i >= 0:
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if depth == 0:
            break
        i -= 1
    if i <= 0:
        return None
    inner = text[i + 1:-1].strip()
    if inner in ("", "void"):
        return []
    return [t.strip() for t in _split(inner)]


def _arg(t: str, offset: int, size: int) -> Arg:
    base = re.sub(r"\s+", " ", _QUALIFIERS.sub("", t)).strip()
    if base.endswith("*"):
        if size != 8:
            raise PlanError(f"pointer parameter '{t}' of {size} bytes")
        elem = base[:-1].strip()
        if elem.endswith("*"):
            raise PlanError(f"pointer to pointer '{t}'")
        if elem not in ELEMENT:
            raise PlanError(f"pointer to '{elem}' (layout unknown)")
        return Arg("buf", offset, 8, t, ELEMENT[elem])
    if base in ("float", "double") and size in (4, 8):
        return Arg("float", offset, size, t)
    if base in SCALAR_INT and size in (1, 2, 4, 8):
        return Arg("int", offset, size, t)
    return Arg("bytes", offset, size, t)  # structs, halves: small integers in every 32-bit word


def plan(kernel: Kernel, shape: Shape = SHAPES[0]) -> Plan:
    """The plan for one cubin kernel record; PlanError when its inputs cannot be planned."""
    params = sorted(kernel.params, key=lambda p: p.offset)
    types = param_types(kernel.demangled)
    if types is None:
        raise PlanError(f"no parameter types in '{kernel.demangled}' (extern \"C\" or not demangled)")
    if len(types) != len(params):
        raise PlanError(f"signature has {len(types)} parameters, the cubin {len(params)}")
    args = tuple(_arg(t, p.offset, p.size) for t, p in zip(types, params))
    fixed = bool(kernel.reqntid)
    block = tuple(kernel.reqntid) if kernel.reqntid else shape.block
    return Plan(kernel.name, args, kernel.param_size, shape.grid, block, shape.int_value,  # type: ignore[arg-type]
                fixed_block=fixed)


def make_buffers(p: Plan) -> list[np.ndarray]:
    """One array per pointer parameter, in parameter order; contents depend on the dtype and the
    position only (different positions differ, so swapped buffers show)."""
    import numpy as np

    out = []
    for position, a in enumerate(p.buffers):
        rng = np.random.default_rng(1234 + position)
        n = p.buffer_bytes // np.dtype(storage(a.dtype)).itemsize
        if a.dtype == BF16:
            arr = ((rng.random(n) * 2 - 1).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        elif a.dtype.startswith("float"):
            arr = (rng.random(n) * 2 - 1).astype(a.dtype)
        elif a.dtype == "bool":
            arr = rng.integers(0, 2, n).astype(a.dtype)
        else:
            arr = rng.integers(0, 64, n).astype(a.dtype)
        out.append(arr)
    return out


def pack(p: Plan, pointers: Sequence[int]) -> bytes:
    """The parameter block (CUDA's offsets) with the given buffer addresses."""
    blob = bytearray(p.param_size)
    it = iter(pointers)
    for a in p.args:
        o, n = a.offset, a.size
        if a.kind == "buf":
            blob[o:o + 8] = struct.pack("<Q", next(it))
        elif a.kind == "float":
            blob[o:o + n] = struct.pack("<f" if n == 4 else "<d", p.float_value)
        elif a.kind == "int":
            value = 1 if a.type.strip() in ("bool", "const bool") else int(p.int_value)  # a bool is 0 or 1
            blob[o:o + n] = value.to_bytes(8, "little")[:n]
        else:
            blob[o:o + n] = b"".join((2).to_bytes(4, "little") for _ in range((n + 3) // 4))[:n]
    return bytes(blob)


def compare(p: Plan, a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> tuple[bool, str]:
    """(same, how): bytes first, then floats with a relative tolerance; `how` says which
    comparison held, or where the first difference is."""
    import numpy as np

    how = "bytes"
    for i, (x, y, arg) in enumerate(zip(a, b, p.buffers)):
        if x.tobytes() == y.tobytes():
            continue
        if not arg.dtype.startswith("float") and arg.dtype != BF16:
            n = int(np.count_nonzero(x.view(np.uint8) != y.view(np.uint8)))
            return False, f"buffer {i} ({arg.type}): {n} bytes differ"
        rtol = {"float16": HALF_RTOL, BF16: BF16_RTOL}.get(arg.dtype, RTOL)
        u, v = (as_float64(t, arg.dtype) for t in (x, y))
        same = np.isclose(u, v, rtol=rtol, atol=ATOL, equal_nan=True)
        if not same.all():
            j = int(np.argmin(same))
            return False, f"buffer {i} ({arg.type}): {int((~same).sum())} elements differ, first [{j}] {u[j]!r} vs {v[j]!r}"
        how = f"floats within rtol {rtol:g}"
    return True, how


def storage(dtype: str) -> str:
    """The NumPy dtype that holds a buffer of this element dtype."""
    return "uint16" if dtype == BF16 else dtype


def as_float64(x: np.ndarray, dtype: str) -> np.ndarray:
    import numpy as np

    if dtype == BF16:
        return (x.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return x.astype(np.float64)


def changed(before: Sequence[np.ndarray], after: Sequence[np.ndarray]) -> int:
    """How many buffers a run wrote (a run that changes nothing proves nothing)."""
    return sum(x.tobytes() != y.tobytes() for x, y in zip(before, after))


# ------------------------------------------------------------------ the program's own launch

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.floordiv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.LShift: operator.lshift,
           ast.RShift: operator.rshift}


def _value(node: ast.AST) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0:
            raise ValueError("division by zero")
        return _BINOPS[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_value(node.operand)
    raise ValueError("not a constant expression")


def _constant(expr: str, text: str, depth: int = 0) -> int:
    """An integer C expression of literals and names #defined or declared const in text."""
    if depth > 6:
        raise ValueError("too deep")
    expr = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", expr.strip())

    def name(m: re.Match[str]) -> str:
        n = m.group(0)
        d = re.search(rf"^\s*#\s*define\s+{n}\s+(.+?)\s*$", text, re.M) or \
            re.search(rf"\b(?:const|constexpr)\s+(?:unsigned\s+|signed\s+)?(?:int|long|size_t|unsigned)\s+{n}\s*=\s*([^;]+);", text)
        if not d:
            raise ValueError(f"unknown name {n}")
        return f"({_constant(d.group(1), text, depth + 1)})"

    expr = re.sub(r"\b[A-Za-z_]\w*\b", name, expr)
    return _value(ast.parse(expr, mode="eval").body)


def _split(args: str) -> list[str]:
    out, depth, start = [], 0, 0
    for j, ch in enumerate(args):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(args[start:j])
            start = j + 1
    return out + [args[start:]]


def _dims(expr: str, text: str) -> tuple[int, int, int]:
    expr = expr.strip()
    m = re.fullmatch(r"dim3\s*[({](.*)[)}]", expr, re.S)
    if m:
        parts = [_constant(x, text) for x in _split(m.group(1))]
    elif re.fullmatch(r"[A-Za-z_]\w*", expr) and re.search(rf"\bdim3\s+{expr}\b", text):
        d = re.search(rf"\bdim3\s+{expr}\s*(?:=\s*dim3\s*)?[({{](.*?)[)}}]\s*;", text, re.S)
        if not d:
            raise ValueError(f"dim3 {expr} without constant sizes")
        parts = [_constant(x, text) for x in _split(d.group(1))]
    else:
        parts = [_constant(expr, text)]
    if not 1 <= len(parts) <= 3 or min(parts) < 1:
        raise ValueError("bad dimensions")
    return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]


def kernel_name(demangled: str) -> str:
    """`void ns::block_sum<256>(int const*, int*, int)` -> `block_sum`."""
    head = demangled.split("(", 1)[0]
    head = re.sub(r"<.*>", "", head).strip()
    return re.split(r"[\s:]+", head)[-1]


def source_block(sources: Mapping[str, str], demangled: str) -> tuple[int, int, int] | None:
    """The block size of the first `name<<<grid, block>>>` launch in the sources whose size is a
    constant; None when there is none."""
    name = kernel_name(demangled)
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None
    launch = re.compile(rf"\b{name}\s*(?:<[^;{{}}]*?>)?\s*<<<(.*?)>>>", re.S)
    for rel in sorted(sources):
        text = sources[rel]
        for m in launch.finditer(text):
            args = _split(m.group(1))
            if len(args) < 2:
                continue
            try:
                block = _dims(args[1], text)
            except (ValueError, SyntaxError, RecursionError):
                continue
            if block[0] * block[1] * block[2] <= 1024:
                return block
    return None


def shapes(block: tuple[int, int, int] | None) -> list[Shape]:
    """The launches to try: the program's own block first (3 blocks, or 2x2 for 2-D), then SHAPES."""
    if block is None:
        return list(SHAPES)
    grid = (3, 1, 1) if block[1] == block[2] == 1 else (2, 2, 1)
    return [Shape(grid, block, INT_SCALAR), *SHAPES]
