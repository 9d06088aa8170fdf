"""Helpers the translated pseudocode calls (`R.` in pcode.py's output): typed NumPy arithmetic.

Values are NumPy arrays or scalars carrying their dtype, or plain Python numbers (untyped literals,
which take the other operand's type). Binary operations promote like C: float wins, then width,
then unsigned at equal width.
"""
from __future__ import annotations

import math
import threading

import numpy as np

from . import fp

PI = math.pi
INF = math.inf
NAN = math.nan

DT = {"u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
      "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
      "b8": np.uint8, "b16": np.uint16, "b32": np.uint32, "b64": np.uint64,
      "f16": np.float16, "f32": np.float32, "f64": np.float64, "u1": np.uint32, "b1": np.uint32,
      "u24": np.uint32, "i24": np.int32}
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
SINT = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}
FLT = {2: np.float16, 4: np.float32, 8: np.float64}


def u32(v: int) -> np.uint32:
    return np.uint32(v & 0xFFFFFFFF)


def u64(v: int) -> np.uint64:
    return np.uint64(v & 0xFFFFFFFFFFFFFFFF)


def i64(v: int) -> np.int64:
    return np.int64(v)


def f32(v: float) -> np.float32:
    return np.float32(v)


def _dtype(x):
    return x.dtype if isinstance(x, (np.ndarray, np.generic)) else None


def _as(x, dt: np.dtype):
    """x (a Python number or array) as dtype dt, wrapping integers."""
    if isinstance(x, (bool, np.bool_)):
        return dt.type(int(x)) if not isinstance(x, np.ndarray) else x.astype(dt)
    if isinstance(x, int):
        if dt.kind == "f":
            return dt.type(x)
        bits = dt.itemsize * 8
        return np.array(x & ((1 << bits) - 1), dtype=UINT[dt.itemsize]).view(dt)[()]
    if isinstance(x, float):
        return dt.type(x) if dt.kind == "f" else np.float64(x)
    if x.dtype == dt:
        return x
    return x.astype(dt)


def _promote(a: np.dtype, b: np.dtype) -> np.dtype:
    if a == b:
        return a
    if a.kind == "b":
        return b if b.kind != "b" else a
    if b.kind == "b":
        return a
    if a.kind == "f" or b.kind == "f":
        size = max(x.itemsize for x in (a, b) if x.kind == "f")
        return np.dtype(FLT[size])
    if a.itemsize != b.itemsize:
        return a if a.itemsize > b.itemsize else b
    return a if a.kind == "u" else b


def co(a, b):
    da, db = _dtype(a), _dtype(b)
    if da is None and db is None:
        return a, b
    if da is None:
        if isinstance(a, float) and db.kind != "f":
            return np.float64(a), b.astype(np.float64)
        return _as(a, db if db.kind != "b" else np.dtype(np.int64)), b
    if db is None:
        if isinstance(b, float) and da.kind != "f":
            return a.astype(np.float64), np.float64(b)
        return a, _as(b, da if da.kind != "b" else np.dtype(np.int64))
    dt = _promote(da, db)
    return _as(a, dt), _as(b, dt)


# The MODE register's rounding fields as the running group set them (executor / s_setreg), per
# thread (launches may run in threads side by side): round[4] for f32, round[8] for f64 and f16,
# 0 being round-to-nearest-even; directed is True when any of them is not.
class _Mode(threading.local):
    round = {2: 0, 4: 0, 8: 0}
    directed = False


MODE = _Mode()


def set_mode(mode: int) -> None:
    f32, f64 = mode & 3, (mode >> 2) & 3
    if f32 or f64 or MODE.directed:
        MODE.round = {2: f64, 4: f32, 8: f64}
        MODE.directed = bool(f32 or f64)


def _directed(a) -> int:
    """The rounding mode for a float operation on a (0 for integers or nearest-even)."""
    dt = _dtype(a)
    return MODE.round.get(dt.itemsize, 0) if dt is not None and dt.kind == "f" else 0


def add(a, b):
    a, b = co(a, b)
    if MODE.directed and _directed(a):
        return fp.add_mode(a, b, _directed(a))
    return a + b


def sub(a, b):
    a, b = co(a, b)
    if MODE.directed and _directed(a):
        return fp.add_mode(a, -b, _directed(a))
    return a - b


def mul(a, b):
    a, b = co(a, b)
    if MODE.directed and _directed(a):
        return fp.mul_mode(a, b, _directed(a))
    return a * b


def div(a, b):
    a, b = co(a, b)
    dt = _dtype(a)
    if dt is None:
        return a / b if isinstance(a, float) or isinstance(b, float) else int(a / b) if b else 0
    if dt.kind == "f":
        return np.divide(a, b)
    safe = np.where(b == 0, 1, b)
    q = np.abs(a.astype(np.int64) if dt.kind == "i" else a) // np.abs(safe.astype(np.int64) if dt.kind == "i" else safe)
    if dt.kind == "i":
        q = np.where((a < 0) != (safe < 0), -q, q)
    return np.where(b == 0, 0, q).astype(dt)


def mod(a, b):
    a, b = co(a, b)
    if _dtype(a) is None:
        return int(math.fmod(a, b))
    return np.fmod(a, np.where(b == 0, 1, b))


def pow(a, b):  # noqa: A001 - the pseudocode's **
    if isinstance(a, (float, np.floating)) and float(a) == 2.0:  # 2.0 ** n: exact power of two
        one = (_dtype(a) or np.dtype(np.float32)).type(1.0)
        return np.ldexp(one, _as(b, np.dtype(np.int32)) if _dtype(b) is not None or isinstance(b, int) else b)
    a, b = co(a, b)
    return np.power(a, b)


def _shift_amount(x, n):
    dt = _dtype(x)
    if dt is None:
        return int(n)
    return _as(n, dt)


def shl(a, n):
    if _dtype(a) is None and _dtype(n) is None:
        return a << n
    if _dtype(a) is None:
        a = _as(a, np.dtype(np.int64))
    return np.left_shift(a, _shift_amount(a, n))


def shr(a, n):
    if _dtype(a) is None and _dtype(n) is None:
        return a >> n
    if _dtype(a) is None:
        a = _as(a, np.dtype(np.int64))
    return np.right_shift(a, _shift_amount(a, n))


def band(a, b):
    a, b = co(a, b)
    return a & b


def bor(a, b):
    a, b = co(a, b)
    return a | b


def bxor(a, b):
    a, b = co(a, b)
    return a ^ b


def eq(a, b):
    a, b = co(a, b)
    return a == b


def ne(a, b):
    a, b = co(a, b)
    return a != b


def lg(a, b):
    """The pseudocode's `<>`: less or greater. For floats it is ordered (false when either is
    NaN, as V_CMP_LG_F32 and the `!(a <> b)` of V_CMP_NLG_F32 need); for integers it is `!=`."""
    a, b = co(a, b)
    return (a < b) | (a > b)


def lt(a, b):
    a, b = co(a, b)
    return a < b


def le(a, b):
    a, b = co(a, b)
    return a <= b


def gt(a, b):
    a, b = co(a, b)
    return a > b


def ge(a, b):
    a, b = co(a, b)
    return a >= b


def cond(x):
    if isinstance(x, (bool, np.bool_)):
        return x
    if isinstance(x, (int, float)):
        return bool(x)
    if x.dtype == bool:
        return x
    return x != 0


def land(a, b):
    if a is True:
        return cond(b)
    if b is True:
        return cond(a)
    if a is False or b is False:
        return False
    return np.logical_and(cond(a), cond(b))


def lor(a, b):
    if a is False:
        return cond(b)
    if b is False:
        return cond(a)
    if a is True or b is True:
        return True
    return np.logical_or(cond(a), cond(b))


def lnot(a):
    if isinstance(a, bool):
        return not a
    return np.logical_not(cond(a))


def none(p) -> bool:
    return not np.any(p)


def neg(a):
    if _dtype(a) is None:
        return -a
    if a.dtype.kind == "u":
        return (0 - a.astype(SINT[a.itemsize] if isinstance(a, np.ndarray) else a.dtype)).astype(a.dtype) if False else np.negative(a)
    return np.negative(a)


def bnot(a):
    if _dtype(a) is None:
        return ~a
    if a.dtype == bool:
        return np.logical_not(a)
    return np.invert(a)


def where(c, a, b):
    c = cond(c)
    if isinstance(c, (bool, np.bool_)) and not isinstance(c, np.ndarray):
        return a if c else b
    a, b = co(a, b)
    return np.where(c, a, b)


def sel(p, new, old):
    """Predicated assignment: new where p, else old."""
    if p is True:
        return new
    if p is False:
        return old
    new, old = co(new, old)
    return np.where(p, new, old)


def view(x, t: str):
    """`x.t`: reinterpret x's bits as type t (truncating or zero-extending)."""
    dt = np.dtype(DT[t])
    if isinstance(x, float) or (_dtype(x) is not None and x.dtype.kind == "f" and t[0] == "f" and False):
        return dt.type(x)
    if isinstance(x, (bool, int, np.bool_)):
        x = np.uint64(int(x) & 0xFFFFFFFFFFFFFFFF)
    a = x
    if a.dtype == bool:
        a = a.astype(np.uint32)
    if a.dtype.itemsize != dt.itemsize:
        a = a.view(UINT[a.dtype.itemsize]).astype(UINT[dt.itemsize])
    if a.dtype != dt:
        a = a.view(dt)
    if t in ("u24", "i24"):
        a = a & 0xFFFFFF if t == "u24" else ((a.view(np.uint32) << 8).view(np.int32) >> 8)
    elif t in ("u1", "b1"):
        a = a & 1
    return a


def cvt(x, t: str):
    """`N'T(x)` and typed assignment: convert the value of x to type t."""
    dt = np.dtype(DT[t])
    if isinstance(x, (bool, np.bool_)) and not isinstance(x, np.ndarray):
        return dt.type(int(x))
    if isinstance(x, (int, float)):
        return _as(x, dt)
    if x.dtype == dt:
        return x
    if x.dtype.kind == "f" and dt.kind in "iu":
        with np.errstate(invalid="ignore"):
            return x.astype(np.int64).astype(dt) if dt.kind == "u" else x.astype(dt)
    return x.astype(dt)


def cvt_n(x, bits: int, signed: bool):
    """Conversion to an odd width (1, 24, 65 bits): mask (and sign-extend)."""
    v = cvt(x, "i64" if signed else "u64")
    mask = (1 << bits) - 1
    v = v & _as(mask, np.dtype(v.dtype) if _dtype(v) is not None else np.dtype(np.uint64))
    return v


def sized(value: int, bits: int):
    return np.uint64(value & ((1 << bits) - 1))


def _unsigned(x):
    if isinstance(x, (bool, int, np.bool_)):
        return np.uint64(int(x) & 0xFFFFFFFFFFFFFFFF)
    if x.dtype == bool:
        return x.astype(np.uint32)
    return x.view(UINT[x.dtype.itemsize]) if x.dtype.kind != "u" else x


def bits(x, hi, lo):
    u = _unsigned(x)
    hi, lo = int(hi), int(lo)
    if hi < lo:  # reversed range: bit reverse
        width = lo - hi + 1
        out = np.zeros_like(u)
        one = u.dtype.type(1)
        for i in range(width):
            out = out | (((u >> u.dtype.type(i)) & one) << u.dtype.type(width - 1 - i))
        return out
    width = hi - lo + 1
    v = u >> u.dtype.type(lo) if lo else u
    if width < u.dtype.itemsize * 8:
        v = v & u.dtype.type((1 << width) - 1)
    return v


def bit(x, i):
    u = _unsigned(x)
    if isinstance(i, (int, np.integer)) and not isinstance(i, np.ndarray):
        return (u >> u.dtype.type(int(i))) & u.dtype.type(1)
    return (u >> _as(i, u.dtype)) & u.dtype.type(1)


def setbits(x, hi, lo, v):
    hi, lo = int(hi), int(lo)
    if x is None:
        x = np.uint32(0) if hi < 32 else np.uint64(0)
    u = _unsigned(x)
    if hi >= u.dtype.itemsize * 8:
        u = u.astype(np.uint64)
    dt = u.dtype.type
    width = hi - lo + 1
    mask = dt(((1 << width) - 1) << lo)
    vb = _unsigned(v).astype(u.dtype) if _dtype(v) is not None else dt(int(v) & ((1 << width) - 1))
    return (u & ~mask) | ((vb << dt(lo)) & mask)


def put(container, value):
    """Store value's bits into container (keeping the container's upper bits when value is narrower)."""
    if container is None or _dtype(container) is None:
        return value
    cb, vb = container.dtype.itemsize, value.dtype.itemsize if _dtype(value) is not None else 8
    if vb >= cb:
        return value
    u = _unsigned(container)
    low = _unsigned(value).astype(u.dtype)
    mask = u.dtype.type((1 << (vb * 8)) - 1)
    return (u & ~mask) | low


def cat(*parts):
    out = None
    total = 0
    for p in reversed(parts):
        u = _unsigned(p)
        w = u.dtype.itemsize * 8
        if total + w > 64:
            raise ValueError("concatenation wider than 64 bits")
        u = u.astype(np.uint64)
        out = u if out is None else out | (u << np.uint64(total))
        total += w
    return out


# ---- functions the pseudocode calls -------------------------------------------------------------

def _f(x):
    return x if _dtype(x) is not None else np.float64(x)


def fn_fma(a, b, c):
    """fma rounded once, in the MODE's rounding for its type."""
    a, b = co(a, b)
    a, c = co(a, c)
    b, c = co(b, c)
    dt = _dtype(a) or np.dtype(np.float64)
    mode = _directed(a) if MODE.directed else 0
    if dt.itemsize <= 4:
        return fp.fma_narrow(a, b, c, dt, mode=mode)
    return fp.fma64(a, b, c, mode)


def fn_sqrt(x):
    with np.errstate(invalid="ignore"):
        return np.sqrt(_f(x))


def fn_trunc(x):
    return np.trunc(_f(x))


def fn_floor(x):
    return np.floor(_f(x))


def fn_fract(x):
    x = _f(x)
    return x - np.floor(x)


def fn_log2(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log2(_f(x))


def fn_pow(a, b):
    if _dtype(b) is not None and b.dtype.kind == "f":
        return np.exp2(b) if float(a) == 2.0 else np.power(_as(a, b.dtype), b)
    return np.power(_f(a), b)


def fn_sin(x):
    return np.sin(_f(x))


def fn_cos(x):
    return np.cos(_f(x))


def fn_abs(x):
    return np.abs(x) if _dtype(x) is not None else abs(x)


def fn_sign(x):
    return np.signbit(_f(x))


def fn_isNAN(x):
    return np.isnan(_f(x))


def fn_isINF(x):
    return np.isinf(_f(x))


def _quiet_bit(x):
    x = _f(x)
    u = _unsigned(x)
    q = {2: 1 << 9, 4: 1 << 22, 8: 1 << 51}[x.dtype.itemsize]
    return (u & u.dtype.type(q)) != 0


def fn_isQuietNAN(x):
    return np.isnan(_f(x)) & _quiet_bit(x)


def fn_isSignalNAN(x):
    return np.isnan(_f(x)) & ~_quiet_bit(x)


def fn_cvtToQuietNAN(x):
    x = _f(x)
    u = _unsigned(x)
    q = {2: 1 << 9, 4: 1 << 22, 8: 1 << 51}[x.dtype.itemsize]
    return (u | u.dtype.type(q)).view(x.dtype)


def fn_exponent(x):
    x = _f(x)
    u = _unsigned(x).astype(np.int64)
    shift, mask = {2: (10, 0x1F), 4: (23, 0xFF), 8: (52, 0x7FF)}[x.dtype.itemsize]
    return ((u >> shift) & mask).astype(np.int32)


def fn_mantissa(x):
    m, _ = np.frexp(_f(x))
    return m


def fn_ldexp(x, e):
    x = _f(x)
    return np.ldexp(x, _as(e, np.dtype(np.int32)) if not isinstance(e, np.ndarray) else e.astype(np.int32)).astype(x.dtype)


def fn_isEven(x):
    return np.fmod(_f(x), 2.0) == 0


def fn_signext(x):
    return x


def fn_signext_from_bit(x, n):
    x = _as(x, np.dtype(np.int64)) if _dtype(x) is None else x
    dt = x.dtype
    w = dt.itemsize * 8
    s = _as(n, np.dtype(np.int64)) if _dtype(n) is None else n.astype(np.int64)
    v = x.astype(np.int64)
    sh = np.where(s == 0, 0, 64 - s)
    out = np.where(s == 0, 0, (v << sh) >> sh)
    return out.astype(SINT[dt.itemsize]) if w < 64 else out


def _conv(x, src: str, dst: str):
    v = cvt(view(x, src) if _dtype(x) is not None else x, src)
    if dst[0] == "f":
        # in IEEE mode a conversion between float formats quiets a signalling NaN (numpy keeps it
        # signalling, and a later V_MAX then gave NaN where max(255, NaN) is 255: r2:155)
        with np.errstate(invalid="ignore"):
            out = np.asarray(v).astype(DT[dst])
        if out.dtype in _QUIET and np.asarray(v).dtype.kind == "f":
            ut, qbit = _QUIET[out.dtype]
            out = np.where(np.isnan(out), (out.view(ut) | ut(qbit)).view(out.dtype), out)
        return out if out.ndim else out[()]
    # float -> int saturates, NaN -> 0
    dt = np.dtype(DT[dst])
    info = np.iinfo(dt)
    if np.dtype(v.dtype).kind == "f":
        with np.errstate(invalid="ignore"):
            f = np.nan_to_num(v.astype(np.float64), nan=0.0)
            return np.clip(np.trunc(f), info.min, info.max).astype(dt)
    return v.astype(dt)


def _make_conv(src: str, dst: str):
    return lambda x: _conv(x, src, dst)


for _s, _d in [("f32", "f16"), ("f16", "f32"), ("f32", "i32"), ("f32", "u32"), ("i32", "f32"), ("u32", "f32"),
               ("f64", "i32"), ("f64", "u32"), ("i32", "f64"), ("u32", "f64"), ("f64", "f32"), ("f32", "f64"),
               ("u16", "f16"), ("i16", "f16"), ("f16", "u16"), ("f16", "i16"), ("f16", "f64"), ("f64", "f16"),
               ("u8", "u32")]:
    globals()[f"fn_{_s}_to_{_d}"] = _make_conv(_s, _d)


def fn_u32_to_u16(x):
    return cvt(x, "u16")


def fn_i32_to_i16(x):
    return cvt(x, "i16")


def fn_min(a, b):
    a, b = co(a, b)
    return np.minimum(a, b)


def fn_max(a, b):
    a, b = co(a, b)
    return np.maximum(a, b)


def fn_countbits(x):
    u = _unsigned(x)
    return np.bitwise_count(u).astype(np.int32)


LANES = np.arange(32, dtype=np.uint32)[None, :]


def lane_old(x, lane):
    """The current per-lane bit of a mask register (False when the operation did not pass it)."""
    return False if x is None else bit(x, lane) != 0


def _mk_minmax(kind: str, t: str, n: int):
    fn = np.minimum if kind == "min" else np.maximum

    def f(*xs):
        vals = [view(x, t) if _dtype(x) is not None else _as(x, np.dtype(DT[t])) for x in xs[:n]]
        out = vals[0]
        for v in vals[1:]:
            out = fn(out, v)
        return out
    return f


for _k in ("min", "max"):
    for _t in ("i32", "u32", "i16", "u16"):
        globals()[f"fn_v_{_k}_{_t}"] = _mk_minmax(_k, _t, 2)
        globals()[f"fn_v_{_k}3_{_t}"] = _mk_minmax(_k, _t, 3)


_QUIET = {np.dtype(np.float16): (np.uint16, 0x0200), np.dtype(np.float32): (np.uint32, 0x00400000),
          np.dtype(np.float64): (np.uint64, 0x0008000000000000)}


def ieee_minmax(kind: str, a, b):
    """V_MIN/V_MAX in IEEE mode, as AMD's pseudocode says: a signalling NaN comes back quieted,
    a quiet NaN yields the other operand, and -0 < +0 (max(-0, +0) = +0, min = -0; numpy's
    fmax/fmin may answer either zero)."""
    a, b = np.asarray(a), np.asarray(b)
    ut, qbit = _QUIET[a.dtype]
    with np.errstate(invalid="ignore"):
        r = (np.fmin if kind == "min" else np.fmax)(a, b)
        both_zero = (a == 0) & (b == 0)
        neg = (np.signbit(a) | np.signbit(b)) if kind == "min" else (np.signbit(a) & np.signbit(b))
        r = np.where(both_zero, np.where(neg, -np.zeros_like(r), np.zeros_like(r)), r)
        quiet = lambda x: (x.view(ut) | ut(qbit)).view(x.dtype)  # noqa: E731
        s_a = np.isnan(a) & ((a.view(ut) & ut(qbit)) == 0)
        s_b = np.isnan(b) & ((b.view(ut) & ut(qbit)) == 0)
        r = np.where(s_b, quiet(np.broadcast_to(b, r.shape).copy()), r)
        r = np.where(s_a, quiet(np.broadcast_to(a, r.shape).copy()), r)
    return r.astype(a.dtype)


def _mk_ieee_minmax(kind: str, t: str, n: int):
    def f(*xs):
        vals = [view(x, t) if _dtype(x) is not None else _as(x, np.dtype(DT[t])) for x in xs[:n]]
        out = vals[0]
        for v in vals[1:]:
            out = ieee_minmax(kind, out, v)
        return out
    return f


# the pseudocode of V_MAXMIN/V_MINMAX_F32/F16 calls v_min_f32 and v_max_f32 as functions
for _k in ("min", "max"):
    for _t in ("f16", "f32", "f64"):
        globals()[f"fn_v_{_k}_{_t}"] = _mk_ieee_minmax(_k, _t, 2)
        globals()[f"fn_v_{_k}3_{_t}"] = _mk_ieee_minmax(_k, _t, 3)
