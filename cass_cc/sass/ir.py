"""A small LLVM IR text builder: fresh SSA names, blocks, and the few idioms the lifter repeats."""
from __future__ import annotations

import struct


def f32_hex(value: float) -> str:
    """LLVM writes float constants as the double holding the same value, in hex."""
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return f32_bits_hex(bits)


def f32_bits_hex(bits: int) -> str:
    as_float = struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", as_float))[0]


def f64_hex(value: float) -> str:
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]


def i32(value: int) -> str:
    value &= 0xFFFFFFFF
    return str(value - (1 << 32) if value >= 1 << 31 else value)


def i64(value: int) -> str:
    value &= 0xFFFFFFFFFFFFFFFF
    return str(value - (1 << 64) if value >= 1 << 63 else value)


class Builder:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self._n = 0
        self.block = ""

    def tmp(self) -> str:
        self._n += 1
        return f"%t{self._n}"

    def label(self, hint: str = "b") -> str:
        self._n += 1
        return f"{hint}{self._n}"

    def emit(self, text: str) -> None:
        self.lines.append("  " + text)

    def op(self, text: str) -> str:
        """Emit `%tN = text` and return %tN."""
        t = self.tmp()
        self.lines.append(f"  {t} = {text}")
        return t

    def start(self, name: str) -> None:
        self.lines.append(f"{name}:")
        self.block = name

    # Conversions between the register file's i32 and typed values.
    def as_float(self, v: str) -> str:
        return self.op(f"bitcast i32 {v} to float")

    def from_float(self, v: str) -> str:
        return self.op(f"bitcast float {v} to i32")

    def pair(self, lo: str, hi: str) -> str:
        a = self.op(f"zext i32 {lo} to i64")
        b = self.op(f"zext i32 {hi} to i64")
        c = self.op(f"shl i64 {b}, 32")
        return self.op(f"or i64 {a}, {c}")

    def split(self, v: str) -> tuple[str, str]:
        lo = self.op(f"trunc i64 {v} to i32")
        s = self.op(f"lshr i64 {v}, 32")
        hi = self.op(f"trunc i64 {s} to i32")
        return lo, hi

    def select(self, cond: str, ty: str, a: str, b: str) -> str:
        return self.op(f"select i1 {cond}, {ty} {a}, {ty} {b}")

    def call(self, ret: str, name: str, args: str, attrs: str = "") -> str:
        if ret == "void":
            self.emit(f"call void {name}({args}){attrs}")
            return ""
        return self.op(f"call {ret} {name}({args}){attrs}")
