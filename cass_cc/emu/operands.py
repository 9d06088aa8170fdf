"""Reading and writing instruction operands on a wave group (all waves x 32 lanes at once).

A group holds SGPRs as `s[NUM_SREGS, W]` (a row per scalar register code: s[VCC_LO], s[M0],
s[EXEC_LO], ...), VGPRs as `v[N, W, 32]` and SCC as `scc[W]`, all uint32. Vector reads return
(W, 32) or, for scalar and constant sources, something that broadcasts to it; 64-bit operands are
read as uint64.
"""
from __future__ import annotations

import struct

import numpy as np

from .memory import PRIVATE_APERTURE, SHARED_APERTURE, EmuError

LANE = np.arange(32, dtype=np.uint32)

# gfx11 operand codes: the 8-bit scalar and 9-bit source fields (names as LLVM's and tinygrad's
# dsl.py spell them). A 64-bit register is its _LO code and the next.
VCC_LO = 106
NULL = 124  # reads 0; writes are dropped
M0 = 125
EXEC_LO = 126
NUM_SREGS = 128  # codes below are scalar registers
INT_ZERO = 128  # inline integers: INT_ZERO + n is n (0..64), INT_POS_LAST + n is -n (1..16)
INT_POS_LAST = 192
INT_NEG_LAST = 208
DPP8 = 233  # src0 of a VOP1/VOP2/VOPC word with a DPP8 lane select (DPP8_FI: inactive lanes fetched)
DPP8_FI = 234
SRC_SHARED_BASE = 235
SRC_SHARED_LIMIT = 236
SRC_PRIVATE_BASE = 237
SRC_PRIVATE_LIMIT = 238
FLOAT_CONSTS = {240: 0.5, 241: -0.5, 242: 1.0, 243: -1.0, 244: 2.0, 245: -2.0, 246: 4.0, 247: -4.0}
INV_2PI = 248  # 1/(2 pi), INV_2PI_BITS in each width
FLOAT_CODES = range(min(FLOAT_CONSTS), INV_2PI + 1)  # the inline floats
SRC_VCCZ = 251
SRC_EXECZ = 252
SRC_SCC = 253
LITERAL = 255
VGPR0 = 256  # 9-bit source fields: VGPR0 + n is vn
VDST_HI16 = 0x80  # VOP1/VOP2 16-bit destinations: this bit of the VGPR number picks the high half

INV_2PI_BITS = {16: 0x3118, 32: 0x3E22F983, 64: 0x3FC45F306DC9C882}


def exec_mask(g) -> np.ndarray:
    """(W, 32) bools of EXEC, cached on the group until EXEC changes (g.efull: every lane on)."""
    e = g.s[EXEC_LO]
    k = g.ekey
    if k is not None and k.shape == e.shape and (k == e).all():
        return g.emask
    g.emask = ((e[:, None] >> LANE) & np.uint32(1)).astype(bool)
    g.ekey = e.copy()
    g.efull = bool((e == 0xFFFFFFFF).all())
    return g.emask


def const_bits(off: int, bits: int, is_float: bool, literal: int | None, signed: bool = False):
    """The raw bits of an inline constant or literal (a NumPy scalar), or None for a register."""
    if INT_ZERO <= off <= INT_NEG_LAST:
        n = off - INT_ZERO if off <= INT_POS_LAST else -(off - INT_POS_LAST)
        return np.uint64(n & (2**64 - 1)) if bits == 64 else np.uint32(n & 0xFFFFFFFF)
    if off in FLOAT_CODES:
        if off == INV_2PI:
            if bits == 64:
                return np.uint64(INV_2PI_BITS[64])
            return np.uint32(INV_2PI_BITS[16 if bits == 16 and is_float else 32])
        val = FLOAT_CONSTS[off]
        if bits == 64:
            return np.uint64(struct.unpack("<Q", struct.pack("<d", val))[0])
        if bits == 16 and is_float:
            return np.uint32(np.float16(val).view(np.uint16))
        return np.uint32(struct.unpack("<I", struct.pack("<f", val))[0])
    if off == LITERAL:
        lit = literal or 0
        if bits == 64:
            if is_float:
                return np.uint64(lit << 32)
            if signed and lit & 0x80000000:
                return np.uint64(lit | 0xFFFFFFFF00000000)
            return np.uint64(lit)
        return np.uint32(lit)
    if off == NULL:
        return np.uint64(0) if bits == 64 else np.uint32(0)
    if off == SRC_SHARED_BASE:
        return np.uint64(SHARED_APERTURE << 32) if bits == 64 else np.uint32(SHARED_APERTURE)
    if off == SRC_PRIVATE_BASE:
        return np.uint64(PRIVATE_APERTURE << 32) if bits == 64 else np.uint32(PRIVATE_APERTURE)
    if off in (SRC_SHARED_LIMIT, SRC_PRIVATE_LIMIT):
        ap = SHARED_APERTURE if off == SRC_SHARED_LIMIT else PRIVATE_APERTURE
        return np.uint64((ap << 32) | 0xFFFFFFFF) if bits == 64 else np.uint32(ap)
    return None


def reader(off: int, bits: int, vector: bool, is_float: bool = False, literal: int | None = None,
           signed: bool = False, pc: int = 0):
    """A function g -> operand value (uint32 or uint64) for source encoding `off`."""
    c = const_bits(off, bits, is_float, literal, signed)
    if c is not None:
        return lambda g: c
    if off >= VGPR0:
        r = off - VGPR0
        if bits == 64:
            return lambda g: g.v[r].astype(np.uint64) | (g.v[r + 1].astype(np.uint64) << np.uint64(32))
        return lambda g: g.v[r]
    if off == SRC_SCC:
        return (lambda g: g.scc[:, None]) if vector else (lambda g: g.scc)
    if off in (SRC_VCCZ, SRC_EXECZ):  # 1 where the mask is all zeros
        m = VCC_LO if off == SRC_VCCZ else EXEC_LO
        return (lambda g: (g.s[m] == 0).astype(np.uint32)[:, None]) if vector else (lambda g: (g.s[m] == 0).astype(np.uint32))
    if off < NUM_SREGS:
        if bits == 64:
            if vector:
                return lambda g: (g.s[off].astype(np.uint64) | (g.s[off + 1].astype(np.uint64) << np.uint64(32)))[:, None]
            return lambda g: g.s[off].astype(np.uint64) | (g.s[off + 1].astype(np.uint64) << np.uint64(32))
        return (lambda g: g.s[off][:, None]) if vector else (lambda g: g.s[off])
    raise EmuError(f"instruction at {pc:#x}: source operand {off} not supported")


def write_sgpr(g, off: int, value, bits: int) -> None:
    if off == NULL or off >= NUM_SREGS:  # a constant: nothing to write
        return
    val = np.asarray(value)
    if bits == 64:
        v64 = np.broadcast_to(val.astype(np.uint64), g.s[off].shape) if val.dtype != np.uint64 else np.broadcast_to(val, g.s[off].shape)
        g.s[off] = (v64 & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        g.s[off + 1] = (v64 >> np.uint64(32)).astype(np.uint32)
    else:
        if val.dtype.itemsize != 4 or val.dtype.kind != "u":
            val = _bits32(val)
        g.s[off] = val.reshape(val.shape[:1]) if val.ndim > 1 else val


def _bits32(val: np.ndarray) -> np.ndarray:
    if val.dtype == bool:
        return val.astype(np.uint32)
    size = val.dtype.itemsize
    u = val.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[size]) if val.dtype.kind != "u" else val
    return u.astype(np.uint32)


def to_bits(val, bits: int) -> np.ndarray:
    """A result value as raw uint32/uint64 bits."""
    val = np.asarray(val)
    if val.dtype == bool:
        val = val.astype(np.uint32)
    size = val.dtype.itemsize
    if val.dtype.kind != "u":
        val = val.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[size])
    want = np.uint64 if bits == 64 else np.uint32
    return val.astype(want, copy=False) if val.dtype != want else val


def write_vgpr(g, r: int, value, mask: np.ndarray, bits: int, hi16: bool = False) -> None:
    val = to_bits(value, bits)
    if bits == 64:
        lo = (val & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        hi = (val >> np.uint64(32)).astype(np.uint32)
        if mask is g.emask and g.efull:
            g.v[r], g.v[r + 1] = lo, hi
        else:
            np.copyto(g.v[r], lo, where=mask)
            np.copyto(g.v[r + 1], hi, where=mask)
        return
    if bits == 16:
        v16 = val & np.uint32(0xFFFF)
        old = g.v[r]
        merged = (old & np.uint32(0x0000FFFF)) | (v16 << np.uint32(16)) if hi16 else (old & np.uint32(0xFFFF0000)) | v16
        np.copyto(g.v[r], merged, where=mask)
        return
    if mask is g.emask and g.efull:
        g.v[r] = val
    else:
        np.copyto(g.v[r], val, where=mask)


def pack_lanes(bits: np.ndarray, W: int) -> np.ndarray:
    """(W, 32) bools -> (W,) uint32 masks."""
    b = bits if bits.shape == (W, 32) else np.broadcast_to(bits, (W, 32))
    return np.packbits(np.ascontiguousarray(b), axis=1, bitorder="little").view(np.uint32).reshape(W)
