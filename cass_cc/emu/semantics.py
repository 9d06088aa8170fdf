"""Per-opcode semantics: AMD's pseudocode compiled once per process, plus hand-written overrides.

`semantics(op)` returns a Python function taking the operands by name (pcode.REGS) and returning a
dict of results. It comes from OVERRIDES when the pseudocode cannot be vectorised (IEEE min/max
written with lambdas, 65-bit multiply-adds, bit loops that NumPy does in one call), else from the
pseudocode through pcode.translate, compiled on first use and cached. An opcode with neither raises
Uncovered naming it.
"""
from __future__ import annotations

import numpy as np

from . import rt
from .memory import EmuError
from .pcode import Unsupported, translate


class Uncovered(EmuError):
    pass


_CACHE: dict[str, object] = {}


def _pcode_table() -> dict[str, str]:
    from tinygrad.runtime.autogen.amd.rdna3.str_pcode import PCODE

    return {f"{type(op).__name__}.{op.name}": text for op, text in PCODE.items()}


_TABLE: dict[str, str] | None = None


def key(op) -> str:
    return f"{type(op).__name__}.{op.name}"


def semantics(op):
    """The function for an opcode enum member (VOP2Op.V_ADD_F32_E32, ...)."""
    k = key(op)
    fn = _CACHE.get(k)
    if fn is not None:
        return fn
    base = _base_name(op.name)
    if base in OVERRIDES:
        fn = OVERRIDES[base]
    else:
        global _TABLE
        if _TABLE is None:
            _TABLE = _pcode_table()
        text = _TABLE.get(k)
        if text is None:
            raise Uncovered(f"{op.name}: no pseudocode for this opcode")
        try:
            src = translate(text, "op")
        except Unsupported as e:
            raise Uncovered(f"{op.name}: pseudocode not supported by the emulator ({e})") from None
        scope: dict = {"R": rt, "np": np}
        exec(compile(src, f"<pcode {op.name}>", "exec"), scope)
        fn = scope["op"]
    _CACHE[k] = fn
    return fn


def _base_name(name: str) -> str:
    for suffix in ("_E32", "_E64"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


# ---- overrides ---------------------------------------------------------------------------------

def _f32(x):
    return rt.view(x, "f32")


def _minmax(kind: str, t: str):
    fn = np.fmin if kind == "min" else np.fmax

    def op(S0=None, S1=None, **_):
        a, b = rt.view(S0, t), rt.view(S1, t)
        with np.errstate(invalid="ignore"):
            return {"D0": rt.put(None, fn(a, b))}
    return op


def _minmax3(kind: str, t: str):
    fn = np.fmin if kind == "min" else np.fmax

    def op(S0=None, S1=None, S2=None, **_):
        a, b, c = rt.view(S0, t), rt.view(S1, t), rt.view(S2, t)
        with np.errstate(invalid="ignore"):
            return {"D0": fn(fn(a, b), c)}
    return op


def _med3_f32(S0=None, S1=None, S2=None, **_):
    a, b, c = _f32(S0), _f32(S1), _f32(S2)
    with np.errstate(invalid="ignore"):
        return {"D0": np.fmax(np.fmin(a, b), np.fmin(np.fmax(a, b), c))}


def _mad_u64_u32(S0=None, S1=None, S2=None, **_):
    p = rt.view(S0, "u32").astype(np.uint64) * rt.view(S1, "u32").astype(np.uint64)
    c = rt.view(S2, "u64")
    s = p + c
    return {"D0": s, "lane:D1": s < p}


def _mad_i64_i32(S0=None, S1=None, S2=None, **_):
    p = rt.view(S0, "i32").astype(np.int64) * rt.view(S1, "i32").astype(np.int64)
    s = p.view(np.uint64) + rt.view(S2, "u64")
    return {"D0": s, "lane:D1": np.zeros(np.shape(s), bool)}


def _bcnt(t: str, scc: bool):
    def op(S0=None, D0=None, S1=None, **_):
        n = np.bitwise_count(rt.view(S0, t)).astype(np.uint32)
        if not scc:  # v_bcnt_u32_b32 adds S1
            return {"D0": n + rt.view(S1, "u32")}
        return {"D0": n, "SCC": (n != 0).astype(np.uint32)}
    return op


def _ctz(t: str, scc: bool):
    bits = 32 if t == "u32" else 64

    def op(S0=None, **_):
        u = rt.view(S0, t)
        low = u & (~u + u.dtype.type(1))  # lowest set bit
        n = np.where(u == 0, -1, np.log2(np.where(low == 0, 1, low).astype(np.float64)).astype(np.int64)).astype(np.int32)
        out = {"D0": n.view(np.uint32)}
        return out
    return op


def _clz(t: str):
    def op(S0=None, **_):
        u = rt.view(S0, t)
        width = u.dtype.itemsize * 8
        hi = np.floor(np.log2(np.where(u == 0, 1, u).astype(np.float64))).astype(np.int64)
        # float64 cannot hold every 64-bit value: fix up by checking the bit
        n = np.where(u == 0, -1, width - 1 - hi).astype(np.int32)
        return {"D0": n.view(np.uint32)}
    return op


def _readfirstlane(S0=None, EXEC=None, **_):
    exec_ = np.asarray(EXEC).reshape(-1).astype(np.uint32)
    low = exec_ & (~exec_ + np.uint32(1))
    lane = np.where(exec_ == 0, 0, np.log2(np.where(low == 0, 1, low)).astype(np.int64))
    s0 = np.broadcast_to(S0, (exec_.size, 32))
    return {"D0": s0[np.arange(exec_.size), lane]}


def _cvt_pk_rtz(S0=None, S1=None, **_):
    def rtz16(x):
        x = _f32(x)
        h = x.astype(np.float16)
        back = h.astype(np.float32)
        over = np.abs(back) > np.abs(x)
        toward = np.where(over & np.isfinite(x), np.nextafter(h, np.float16(0)), h)
        return toward.view(np.uint16).astype(np.uint32)
    return {"D0": rtz16(S0) | (rtz16(S1) << np.uint32(16))}


def _div_scale(t: str):
    def op(S0=None, S1=None, S2=None, **_):
        # Scaling only matters near the float range limits; ordinary inputs pass through unscaled.
        return {"D0": rt.view(S0, "u32" if t == "f32" else "u64"), "lane:VCC": np.zeros(np.shape(S0), bool)}
    return op


def _div_fixup(t: str):
    def op(S0=None, S1=None, S2=None, **_):
        q, d, n = rt.view(S0, t), rt.view(S1, t), rt.view(S2, t)
        with np.errstate(all="ignore"):
            exact = n / d
        special = ~np.isfinite(q) | (d == 0) | np.isinf(d) | np.isinf(n) | np.isnan(n) | np.isnan(d)
        return {"D0": np.where(special, exact, q).astype(q.dtype)}
    return op


def _div_fmas(t: str):
    def op(S0=None, S1=None, S2=None, VCC=None, **_):
        r = rt.fn_fma(rt.view(S0, t), rt.view(S1, t), rt.view(S2, t))
        scale = np.where(rt.bit(VCC, rt.LANES) != 0, 2.0 ** (32 if t == "f32" else 64), 1.0) if VCC is not None else 1.0
        return {"D0": (r * scale).astype(r.dtype)}
    return op


def _sat_pk_u8_i16(S0=None, **_):
    u = rt.view(S0, "u32")
    lo = np.clip(rt.view(u & np.uint32(0xFFFF), "u16").view(np.int16).astype(np.int32), 0, 255).astype(np.uint32)
    hi = np.clip(rt.view(u >> np.uint32(16), "u16").view(np.int16).astype(np.int32), 0, 255).astype(np.uint32)
    return {"D0": lo | (hi << np.uint32(8))}


def _perm_b32(S0=None, S1=None, S2=None, **_):
    data = (rt.view(S0, "u32").astype(np.uint64) << np.uint64(32)) | rt.view(S1, "u32").astype(np.uint64)
    sel = rt.view(S2, "u32")
    out = np.zeros(np.broadcast_shapes(np.shape(data), np.shape(sel)), np.uint32)
    for k in range(4):
        s = ((sel >> np.uint32(8 * k)) & np.uint32(0xFF)).astype(np.uint64)
        byte = (data >> (np.minimum(s, 7) * np.uint64(8))) & np.uint64(0xFF)
        sign = lambda b: ((data >> np.uint64(b)) & np.uint64(1)) * np.uint64(0xFF)  # noqa: E731
        byte = np.where(s == 8, sign(15), byte)
        byte = np.where(s == 9, sign(31), byte)
        byte = np.where(s == 10, sign(47), byte)
        byte = np.where(s == 11, sign(63), byte)
        byte = np.where(s == 12, 0, byte)
        byte = np.where(s >= 13, 0xFF, byte)
        out |= byte.astype(np.uint32) << np.uint32(8 * k)
    return {"D0": out}


def _lshl_or(S0=None, S1=None, S2=None, **_):
    return {"D0": (rt.view(S0, "u32") << (rt.view(S1, "u32") & np.uint32(31))) | rt.view(S2, "u32")}


OVERRIDES = {
    "V_MIN_F32": _minmax("min", "f32"), "V_MAX_F32": _minmax("max", "f32"),
    "V_MIN_F16": _minmax("min", "f16"), "V_MAX_F16": _minmax("max", "f16"),
    "V_MIN_F64": _minmax("min", "f64"), "V_MAX_F64": _minmax("max", "f64"),
    "S_MIN_F32": _minmax("min", "f32"), "S_MAX_F32": _minmax("max", "f32"),
    "V_MIN3_F32": _minmax3("min", "f32"), "V_MAX3_F32": _minmax3("max", "f32"),
    "V_MED3_F32": _med3_f32,
    "V_MAD_U64_U32": _mad_u64_u32, "V_MAD_I64_I32": _mad_i64_i32,
    "S_BCNT1_I32_B32": _bcnt("u32", True), "S_BCNT1_I32_B64": _bcnt("u64", True),
    "V_BCNT_U32_B32": _bcnt("u32", False),
    "S_CTZ_I32_B32": _ctz("u32", False), "S_CTZ_I32_B64": _ctz("u64", False), "V_CTZ_I32_B32": _ctz("u32", False),
    "S_CLZ_I32_U32": _clz("u32"), "V_CLZ_I32_U32": _clz("u32"),
    "V_READFIRSTLANE_B32": _readfirstlane,
    "V_CVT_PK_RTZ_F16_F32": _cvt_pk_rtz,
    "V_DIV_SCALE_F32": _div_scale("f32"), "V_DIV_SCALE_F64": _div_scale("f64"),
    "V_DIV_FIXUP_F32": _div_fixup("f32"), "V_DIV_FIXUP_F64": _div_fixup("f64"),
    "V_DIV_FMAS_F32": _div_fmas("f32"), "V_DIV_FMAS_F64": _div_fmas("f64"),
    "V_SAT_PK_U8_I16": _sat_pk_u8_i16, "V_PERM_B32": _perm_b32, "V_LSHL_OR_B32": _lshl_or,
}
