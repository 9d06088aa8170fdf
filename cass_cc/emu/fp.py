"""Exactly rounded floating-point helpers over NumPy arrays (all lanes at once).

- fma for f16/f32 through float64: the product is exact there, the sum is rounded to odd
  (two-sum error term), so the final rounding to the narrow type is the only one.
- fma, add and mul for f64 with a rounding mode: error-free transformations (two-sum, Dekker's
  two-product) give the exact error; round-to-nearest-even fma uses Boldo and Melquiond's
  round-to-odd sum of three; directed modes step one ulp by the error's sign. Lanes outside the
  range where those transformations are exact (huge or tiny operands, results near the
  subnormal range, scaled results) are computed with Python fractions and rounded by hand.
- flush of f32 subnormals (the descriptor's or MODE's FTZ).

Rounding modes are the hardware's MODE encoding: 0 nearest even, 1 toward +inf, 2 toward -inf,
3 toward zero.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

RNE, RUP, RDN, RTZ = 0, 1, 2, 3
SPLIT = 134217729.0  # 2**27 + 1 (Veltkamp)
FORMATS = {np.dtype(np.float64): (53, -1022, 1023), np.dtype(np.float32): (24, -126, 127),
           np.dtype(np.float16): (11, -14, 15)}


def two_sum(a, b):
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def _split(a):
    c = SPLIT * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def _odd(s, e):
    """Round-to-odd of s + e, where s = RN(s + e) and e is the exact error."""
    inexact = e != 0
    bits = s.view(np.uint64)
    away = inexact & ((e < 0) != (s < 0))  # s was rounded away from zero: step back toward it
    z = np.where(away, bits - np.uint64(1), bits)
    return np.where(inexact, z | np.uint64(1), bits).view(np.float64)


def narrow(x, dtype, mode: int = RNE):
    """float64 x rounded to dtype (f32/f16) in mode (x already rounded to odd where inexact)."""
    dtype = np.dtype(dtype).type
    r = x.astype(dtype)
    if mode == RNE:
        return r
    back = r.astype(np.float64)
    with np.errstate(invalid="ignore"):
        if mode == RUP:
            r = np.where(back < x, np.nextafter(r, dtype(np.inf)), r)
        elif mode == RDN:
            r = np.where(back > x, np.nextafter(r, dtype(-np.inf)), r)
        else:
            r = np.where(np.abs(back) > np.abs(x), np.nextafter(r, dtype(0)), r)
    return r.astype(dtype)


def _zero_down(out, a, b):
    """Rounding toward -inf, an exact zero sum is -0 unless both addends are +0 (IEEE 754)."""
    both_pos_zero = (a == 0) & (b == 0) & ~np.signbit(a) & ~np.signbit(b)
    return np.where((out == 0) & ~both_pos_zero, -np.abs(out), out).astype(out.dtype)


def add_mode(a, b, mode: int):
    """a + b for float arrays of one type, rounded in a directed mode."""
    dt = np.result_type(a, b)
    if dt == np.float64:
        return add64(a, b, mode)
    with np.errstate(all="ignore"):
        s, e = two_sum(np.asarray(a, np.float64), np.asarray(b, np.float64))
        ok = np.isfinite(s)
        out = narrow(np.where(ok, _odd(np.where(ok, s, 0.0), np.where(ok, e, 0.0)), s), dt, mode)
        return _zero_down(out, a, b) if mode == RDN else out


def mul_mode(a, b, mode: int):
    dt = np.result_type(a, b)
    if dt == np.float64:
        return mul64(a, b, mode)
    with np.errstate(all="ignore"):
        return narrow(np.asarray(a, np.float64) * np.asarray(b, np.float64), dt, mode)  # exact in float64


MID32 = np.uint64(0x10000000)  # float64 bits below a float32 ulp, at the midpoint between two float32s
LOW32 = np.uint64(0x1FFFFFFF)


def fma_narrow(a, b, c, dtype, scale=None, mode: int = RNE):
    """fma(a, b, c) [* 2**scale] for f16/f32 operands, rounded once to dtype."""
    a64, b64, c64 = (np.asarray(x, np.float64) for x in (a, b, c))
    with np.errstate(all="ignore"):
        if scale is None and mode == RNE and np.dtype(dtype) == np.float32:
            # Fast form: the float64 sum rounds to float32 correctly unless it landed exactly on a
            # float32 midpoint (or in the subnormal range); only then is the exact path needed.
            s = a64 * b64 + c64
            bits = s.view(np.uint64)
            if not (((bits & LOW32) == MID32) | ((np.abs(s) < 2.0 ** -125) & (s != 0))).any():
                return s.astype(np.float32)
        p = a64 * b64  # exact: at most 48 significant bits
        s, e = two_sum(p, c64)
        ok = np.isfinite(s) & np.isfinite(e)
        r = np.where(ok, _odd(np.where(ok, s, 0.0), np.where(ok, e, 0.0)), s)
        if scale is not None:
            r = np.ldexp(r, np.asarray(scale, np.int32))  # exact in float64 for f32-range values
        out = narrow(r, dtype, mode)
        return _zero_down(out, p, c64) if mode == RDN else out


# ---- exact rounding of rationals -----------------------------------------------------------------

def round_fraction(x: Fraction, dtype, mode: int = RNE) -> float:
    """The value x rounded to dtype (a NumPy float type) in the given mode, as a Python float."""
    dt = np.dtype(dtype)
    prec, emin, emax = FORMATS[dt]
    if x == 0:
        return 0.0
    neg = x < 0
    m = -x if neg else x
    e = m.numerator.bit_length() - m.denominator.bit_length()
    if Fraction(2) ** e > m:
        e -= 1
    q = max(e, emin) - (prec - 1)  # exponent of one ulp
    scaled = m / Fraction(2) ** q if q >= 0 else m * Fraction(2) ** -q
    n, rem = divmod(scaled.numerator, scaled.denominator)
    if rem:
        up = {RNE: 2 * rem > scaled.denominator or (2 * rem == scaled.denominator and n & 1),
              RUP: not neg, RDN: neg, RTZ: False}[mode]
        n += int(up)
    if n >= 1 << prec:
        n >>= 1
        q += 1
    if q + prec - 1 > emax:  # overflow
        to_inf = mode == RNE or (mode == RUP and not neg) or (mode == RDN and neg)
        big = float(np.finfo(dt).max)
        v = float("inf") if to_inf else big
        return -v if neg else v
    v = float(dt.type(np.ldexp(float(n), q)))
    return -v if neg else v


def _frac(v: float) -> Fraction:
    return Fraction(v)


def _special(a, b, c, mode: int) -> float:
    """fma with an infinite or NaN operand: NumPy's IEEE arithmetic gets these right, but for
    finite a and b with an infinite c: the exact product is finite, so the result is c even where
    a * b rounded alone would overflow to the opposite infinity (NaN from inf - inf)."""
    if np.isfinite(a) and np.isfinite(b) and np.isinf(c):
        return float(c)
    with np.errstate(all="ignore"):
        return float(np.float64(a) * np.float64(b) + np.float64(c))


def fma_scalar(a: float, b: float, c: float, dtype, mode: int = RNE, scale: int = 0) -> float:
    if not (np.isfinite(a) and np.isfinite(b) and np.isfinite(c)):
        return float(dtype(_special(a, b, c, mode)))
    exact = _frac(a) * _frac(b) + _frac(c)
    if exact == 0:  # signed zero as IEEE says: the sign of the exact product-sum's zero
        p0 = (a < 0 or (a == 0 and np.signbit(a))) != (b < 0 or (b == 0 and np.signbit(b)))
        if a * b == 0 and c == 0:
            neg = p0 and np.signbit(c) if mode != RDN else (p0 or np.signbit(c))
        else:
            neg = mode == RDN
        return -0.0 if neg else 0.0
    if scale:
        exact *= Fraction(2) ** scale
    return round_fraction(exact, dtype, mode)


# ---- f64 ---------------------------------------------------------------------------------------

def _slow(out, lanes, fn):
    """Fill out[lanes] with fn(k) per flat lane index k (the rare exact fallback)."""
    for k in np.flatnonzero(lanes):
        out.flat[k] = fn(k)
    return out


def _bm(a, b, c):
    """Boldo-Melquiond: RN(a * b + c) from a round-to-odd partial sum (exact in range)."""
    uh, ul = two_prod(a, b)
    th, tl = two_sum(c, ul)
    sh, sl = two_sum(uh, th)
    return sh + _odd(*two_sum(sl, tl))


def fma64(a, b, c, mode: int = RNE, scale=None):
    """Exactly rounded fma(a, b, c) [* 2**scale] on float64 arrays.

    The product's exponent is taken out first (a, b scaled to [0.5, 1), c by the same power of
    two), so operands of any size take the fast path; lanes where that scaling is not exact (c
    far above or below the product), where the result is subnormal or overflows, and directed
    modes go through fractions."""
    a, b, c = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64), np.asarray(c, np.float64))
    with np.errstate(all="ignore"):
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        zero_product = (a == 0) | (b == 0)
        ma, ea = np.frexp(a)
        mb, eb = np.frexp(b)
        k = (ea + eb).astype(np.int64)
        kc = np.clip(k, -4000, 4000).astype(np.int32)
        c2 = np.ldexp(c, -kc)
        r = np.ldexp(_bm(ma, mb, c2), kc)
        ac2 = np.abs(c2)
        ok = ((c == 0) | ((ac2 > 2.0 ** -900) & (ac2 < 2.0 ** 900))) & (np.abs(r) >= 2.0 ** -1020) & np.isfinite(r)
        plain = zero_product | ~finite  # IEEE arithmetic is exact here (or gives the special value)
        r = np.where(plain, a * b + c, r)
        # finite a, b: the exact product is finite, so an infinite c is the result even where a * b
        # alone overflows to the other infinity (fuzz r3:8871: fma(huge, huge, -inf) is -inf, not NaN)
        r = np.where(np.isfinite(a) & np.isfinite(b) & np.isinf(c), c, r)
        r = np.where((r == 0) & ~plain, a * b + c, r)  # an exact zero sum: IEEE's sign rules
        slow = ~ok & ~plain
        if mode != RNE:
            slow = ~plain | (zero_product & finite)
        elif scale is not None:
            slow = slow | ((np.broadcast_to(scale, a.shape) != 0) & finite)
    if slow.any():
        r = np.array(r, np.float64)
        fa, fb, fc = a.reshape(-1), b.reshape(-1), c.reshape(-1)
        sc = None if scale is None else np.broadcast_to(scale, a.shape).reshape(-1)
        _slow(r, slow, lambda k: fma_scalar(float(fa[k]), float(fb[k]), float(fc[k]), np.float64, mode,
                                            0 if sc is None else int(sc[k])))
    return r


def _step(s, e, mode: int):
    """Round s + e (s = RN of it, e exact error) in a directed mode."""
    if mode == RNE:
        return s
    up = {RUP: e > 0, RDN: np.zeros(np.shape(e), bool), RTZ: (e > 0) & (s < 0)}[mode]
    down = {RUP: np.zeros(np.shape(e), bool), RDN: e < 0, RTZ: (e < 0) & (s > 0)}[mode]
    r = np.where(up, np.nextafter(s, np.inf), s)
    return np.where(down, np.nextafter(s, -np.inf), r)


def add64(a, b, mode: int):
    with np.errstate(all="ignore"):
        s, e = two_sum(np.asarray(a, np.float64), np.asarray(b, np.float64))
        fin = np.isfinite(s) & np.isfinite(e)
        out = np.where(fin, _step(s, np.where(fin, e, 0.0), mode), s)
        if mode != RNE:  # overflow to inf is rounded to the largest finite value toward zero-ish modes
            out = _overflow(out, np.asarray(a, np.float64), np.asarray(b, np.float64), mode, "add")
        return _zero_down(out, np.asarray(a, np.float64), np.asarray(b, np.float64)) if mode == RDN else out


def mul64(a, b, mode: int):
    a, b = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64))
    if mode == RNE:
        with np.errstate(all="ignore"):
            return a * b
    with np.errstate(all="ignore"):
        return np.where((a == 0) | (b == 0), a * b, fma64(a, b, np.zeros_like(a), mode))  # zero products keep their sign


def _overflow(out, a, b, mode, kind):
    bad = np.isinf(out) & np.isfinite(a) & np.isfinite(b)
    if bad.any():
        out = np.array(out)
        fa, fb = np.broadcast_arrays(a, b)
        fa, fb = fa.reshape(-1), fb.reshape(-1)
        _slow(out, bad, lambda k: round_fraction(_frac(float(fa[k])) + _frac(float(fb[k])), np.float64, mode))
    return out


# ---- flush to zero -------------------------------------------------------------------------------

def flush32(x):
    """f32 subnormals -> signed zero (an array of float32)."""
    x = np.asarray(x)
    if x.dtype != np.float32:
        return x
    tiny = (np.abs(x) < np.float32(1.1754944e-38)) & (x != 0)
    if not tiny.any():
        return x
    return np.where(tiny, np.copysign(np.float32(0), x), x).astype(np.float32)
