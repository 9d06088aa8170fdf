"""Comparing a kernel's output words with the truth's, slot by slot (ast.Slot types).

Integers and exact floats compare bit for bit, except that any NaN equals any NaN (NVIDIA's and
AMD's default NaNs differ, and which NaN is not something CUDA promises). Approximate math slots
compare within their tolerance in units in the last place; the fast intrinsics' slots (f32~abs,
f32~rel) within CUDA's documented error bounds, doubled.
"""
from __future__ import annotations

import math
import struct

from .ast import Kernel, Slot

ABS_TOL = 2.0 ** -19  # __sinf/__cosf on [-pi, pi]: CUDA documents 2^-21.41; two implementations
REL_TOL = 2.0 ** -18  # __expf/__logf: 2 + 1.16 * |x| ulps for __expf; both sides approximate


def _ordered(bits: int, width: int) -> int:
    """The float's position on a line where adjacent floats differ by one (sign-magnitude -> two's)."""
    sign = 1 << (width - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


def _is_nan(bits: int, width: int) -> bool:
    exp_bits = {16: (10, 5), 32: (23, 8), 64: (52, 11)}[width]
    man, ex = exp_bits
    return (bits >> man) & ((1 << ex) - 1) == (1 << ex) - 1 and bits & ((1 << man) - 1) != 0


def same_value(a: int, b: int, slot: Slot, width: int, bf16: bool = False) -> bool:
    if a == b:
        return True
    w = 32 if bf16 else width
    aa, bb = (a << 16, b << 16) if bf16 else (a, b)
    if _is_nan(aa, w) and _is_nan(bb, w):
        return True
    if slot.ulps:
        if _is_nan(aa, w) or _is_nan(bb, w):
            return False
        return abs(_ordered(aa, w) - _ordered(bb, w)) <= slot.ulps
    return False


def _f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def differences(k: Kernel, got: bytes, want: bytes, limit: int = 5) -> tuple[int, list[str]]:
    """(number of differing values, descriptions of the first `limit`)."""
    g = struct.unpack(f"<{len(got) // 4}I", got)
    w = struct.unpack(f"<{len(want) // 4}I", want)
    n = len(k.slots)
    count, notes = 0, []

    def note(text: str) -> None:
        nonlocal count
        count += 1
        if len(notes) < limit:
            notes.append(text)

    for t in range(k.threads):
        for s, slot in enumerate(k.slots):
            i = t * n + s
            a, b = g[i], w[i]
            ty = slot.ty
            ok = True
            if ty.endswith(".hi"):
                continue
            if ty.endswith(".lo"):
                a64, b64 = a | g[i + 1] << 32, b | w[i + 1] << 32
                ok = same_value(a64, b64, slot, 64) if ty.startswith("f64") else a64 == b64
                a, b = a64, b64
            elif ty == "f32":
                ok = same_value(a, b, slot, 32)
            elif ty == "f16":
                ok = same_value(a & 0xFFFF, b & 0xFFFF, slot, 16) and a >> 16 == b >> 16
            elif ty == "bf16":
                ok = same_value(a & 0xFFFF, b & 0xFFFF, slot, 16, bf16=True) and a >> 16 == b >> 16
            elif ty in ("f32~abs", "f32~rel"):
                fa, fb = _f32(a), _f32(b)
                if a == b or (math.isnan(fa) and math.isnan(fb)):
                    ok = True
                elif ty == "f32~abs":
                    ok = abs(fa - fb) <= ABS_TOL
                else:  # relative, and absolute near zero (__logf near 1)
                    ok = abs(fa - fb) <= REL_TOL * max(abs(fa), abs(fb)) + ABS_TOL
            else:
                ok = a == b
            if not ok:
                note(f"thread {t} slot {s} ({ty}{' ' + slot.what if slot.what else ''}): got {a:#x}, want {b:#x}")
    base = k.threads * n
    for j, ty in enumerate(k.atomics):
        if g[base + j] != w[base + j]:
            note(f"atomic word {j} ({ty}): got {g[base + j]:#x}, want {w[base + j]:#x}")
    return count, notes
