"""Floating point on the emulator: IEEE division and sqrt through clang's v_div_scale/fmas/fixup
sequences, fma rounded once, the descriptor's flush-to-zero, rounding modes switched at run time
(s_setreg, s_round_mode) and calls (s_swappc_b64 / s_setpc_b64). References are NumPy or exact
rational arithmetic (fractions) rounded here, independently of cass_cc.emu.fp."""
from __future__ import annotations

import struct
from fractions import Fraction

import numpy as np
import pytest

from cass_cc.emu import fp, launch, load
from tests.emu.conftest import needs_amd

RNE, RUP, RDN, RTZ = 0, 1, 2, 3


@pytest.fixture(scope="module")
def fp_cos():
    from tests.emu.build import hip_fp_code_objects

    plain, ftz = hip_fp_code_objects()
    return load(plain), load(ftz)


@pytest.fixture(scope="module")
def fp_mc():
    from tests.emu.build import mc_code_object

    return load(mc_code_object("kernels_fp_mc.s"))


def same_bits(got, want) -> np.ndarray:
    """Indices where got and want differ bit for bit (any NaN equals any NaN)."""
    u = np.uint64 if got.dtype == np.float64 else np.uint32
    return np.nonzero((got.view(u) != want.view(u)) & ~(np.isnan(got) & np.isnan(want)))[0]


def wide(rng, n, dtype):
    """Floats over every exponent, subnormals, zeros, infinities and NaNs (random bit patterns)."""
    u = np.uint64 if dtype == np.float64 else np.uint32
    bits = rng.integers(0, np.iinfo(u).max, n, dtype=u, endpoint=True)
    return bits.view(dtype)


SPECIAL32 = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -3e-39, 1e30, -1e-37, 3.0, 1e38, -2.5e-38, 1.4e-45,
                      3.4e38, -1.17e-38, 7.0], np.float32)


@needs_amd
def test_f32_division_is_ieee(fp_cos):
    rng = np.random.default_rng(3)
    a = np.concatenate([np.repeat(SPECIAL32, SPECIAL32.size), wide(rng, 3840, np.float32)])
    b = np.concatenate([np.tile(SPECIAL32, SPECIAL32.size), wide(rng, 3840, np.float32)])
    # quotients that round to zero or up to the smallest normal (fuzz r4:1303: 24 * 2**-149 / 48 is
    # half the smallest subnormal, 0 by ties-to-even, not 2**-149)
    n = np.arange(1, 257, dtype=np.float32)
    a[256:512] = np.ldexp(n, -149)
    b[256:512] = np.float32(2) * n + np.float32(3) * (np.arange(256) % 2)
    a[512:768] = np.nextafter(np.ldexp(np.float32(1), -126), np.float32(0)) * np.arange(1, 257, dtype=np.float32) / 300
    b[512:768] = np.arange(1, 257, dtype=np.float32) / 300
    q = launch(fp_cos[0], "fdiv32", a.size // 256, 256, [a, b, np.zeros_like(a), a.size])[2]
    with np.errstate(all="ignore"):
        want = a / b
    bad = same_bits(q, want)
    assert bad.size == 0, [(a[k], b[k], q[k], want[k]) for k in bad[:5]]


@needs_amd
def test_f64_division_and_sqrt_are_ieee(fp_cos):
    rng = np.random.default_rng(4)
    x, y = wide(rng, 4096, np.float64), wide(rng, 4096, np.float64)
    x[:64] = np.ldexp(1.0, -1074) * np.arange(64)  # subnormal numerators, and denominators near the range ends
    y[64:128] = np.ldexp(3.0, -1060)
    y[128:192] = np.ldexp(1.5, 1020)
    x[192:256] = np.ldexp(np.arange(1.0, 65.0), -1074)  # quotients at half the smallest subnormal (0 by ties-to-even)
    y[192:256] = 2 * np.arange(1.0, 65.0)
    out = launch(fp_cos[0], "fdiv64", 16, 256, [x, y, np.zeros_like(x), np.zeros_like(x), x.size])
    with np.errstate(all="ignore"):
        wq, ws = x / y, np.sqrt(np.abs(x))
    for got, want in ((out[2], wq), (out[3], ws)):
        bad = same_bits(got, want)
        assert bad.size == 0, [(x[k], y[k], got[k], want[k]) for k in bad[:5]]


def round_f32(fr: Fraction) -> np.float32:
    """An exact rational rounded to the nearest float32 (ties to even), without double rounding."""
    x = float(fr)  # nearest double
    r = np.float32(x)
    if Fraction(x) != fr and Fraction(float(r)) != Fraction(x):
        lo, hi = sorted([r, np.nextafter(r, np.float32(np.inf) if float(r) < x else np.float32(-np.inf))], key=float)
        mid = (Fraction(float(lo)) + Fraction(float(hi))) / 2
        if Fraction(x) == mid:  # x sits on a float32 midpoint: the exact value decides
            r = hi if fr > mid else lo
    return r


def hard_fma_inputs(rng, n, dtype):
    """a, b, c with c close to -a*b (cancellation), plus plain random ones."""
    a = rng.uniform(-4, 4, n).astype(dtype)
    b = rng.uniform(-4, 4, n).astype(dtype)
    c = (-(a.astype(np.float64) * b)).astype(dtype)
    c[::3] = np.nextafter(c[::3], dtype(np.inf))
    c[1::3] = rng.uniform(-1e-3, 1e-3, c[1::3].size).astype(dtype)
    return a, b, c


@needs_amd
def test_fma_rounds_once(fp_cos):
    rng = np.random.default_rng(5)
    a, b, c = hard_fma_inputs(rng, 1024, np.float32)
    x, y, z = hard_fma_inputs(rng, 1024, np.float64)
    z[2::5] = np.ldexp(z[2::5], -1040)  # tiny addends, results near the subnormal range
    out = launch(fp_cos[0], "fma_both", 4, 256, [a, b, c, np.zeros_like(a), x, y, z, np.zeros_like(x), 1024])
    want32 = np.array([round_f32(Fraction(float(p)) * Fraction(float(q)) + Fraction(float(r))) for p, q, r in zip(a, b, c)],
                      np.float32)
    want64 = np.array([float(Fraction(p) * Fraction(q) + Fraction(r)) for p, q, r in zip(x, y, z)])
    assert same_bits(out[3], want32).size == 0
    assert same_bits(out[7], want64).size == 0


def directed(fr: Fraction, mode: int) -> float:
    """An exact rational rounded to float64 in a directed mode (from the nearest double, stepped)."""
    x = float(fr)
    if Fraction(x) == fr or mode == RNE:
        return x
    if mode == RUP or (mode == RTZ and fr < 0):
        return x if Fraction(x) > fr else float(np.nextafter(x, np.inf))
    return x if Fraction(x) < fr else float(np.nextafter(x, -np.inf))


def zero_sum_sign(x_neg: bool, x_zero: bool, y_neg: bool, y_zero: bool, mode: int) -> float:
    """IEEE 754's zero for a sum x + y that is exactly zero."""
    if x_zero and y_zero:
        neg = (x_neg and y_neg) if mode != RDN else (x_neg or y_neg)
    else:  # cancellation
        neg = mode == RDN
    return -0.0 if neg else 0.0


def ref_fma(p: float, q: float, r: float, mode: int) -> float:
    exact = Fraction(p) * Fraction(q) + Fraction(r)
    if exact == 0:
        return zero_sum_sign(bool(np.signbit(p)) != bool(np.signbit(q)), p == 0 or q == 0, bool(np.signbit(r)), r == 0, mode)
    return directed(exact, mode)


def ref_add(p: float, r: float, mode: int) -> float:
    exact = Fraction(p) + Fraction(r)
    return zero_sum_sign(bool(np.signbit(p)), p == 0, bool(np.signbit(r)), r == 0, mode) if exact == 0 else directed(exact, mode)


def ref_mul(p: float, q: float, mode: int) -> float:
    exact = Fraction(p) * Fraction(q)
    return (-0.0 if np.signbit(p) != np.signbit(q) else 0.0) if exact == 0 else directed(exact, mode)


def test_fma64_exact_over_the_whole_range():
    rng = np.random.default_rng(14)
    n = 600
    a = rng.uniform(1, 2, n) * np.exp2(rng.integers(-1000, 480, n).astype(float)) * rng.choice([-1, 1], n)
    b = rng.uniform(1, 2, n) * np.exp2(rng.integers(-1000, 480, n).astype(float))
    c = rng.uniform(1, 2, n) * np.exp2(rng.integers(-1070, 1000, n).astype(float)) * rng.choice([-1, 1], n)
    near = slice(0, n, 3)  # cancellation at every scale
    c[near] = -(a[near] * b[near]) * (1 + rng.choice([0, 2.0 ** -52, -2.0 ** -40], c[near].size))
    for mode in (RNE, RTZ):
        got = fp.fma64(a, b, c, mode)
        want = np.array([ref_fma(p, q, r, mode) for p, q, r in zip(a, b, c)])
        assert same_bits(got, want).size == 0, mode



@pytest.mark.parametrize("mode", [RNE, RTZ])
def test_fma_with_an_infinite_addend_is_the_addend_when_a_and_b_are_finite(mode):
    """The exact product of finite a and b is finite: fma(huge, huge, -inf) is -inf even where
    a * b alone overflows to +inf (fuzz r3:8871, r3:5003, r3:8030: the emulator gave NaN)."""
    a = np.array([1e300, -1e300, -4.89e295, 2.0, np.inf, 0.0])
    b = np.array([1e300, 1e300, -8.63e133, 3.0, 1.0, np.inf])
    c = np.array([-np.inf, np.inf, -np.inf, -np.inf, -np.inf, 1.0])
    got = fp.fma64(a, b, c, mode)
    assert np.array_equal(got[:4], c[:4]) and np.isnan(got[4]) and np.isnan(got[5])
    assert [fp.fma_scalar(float(p), float(q), float(r), np.float64, mode) for p, q, r in zip(a[:4], b[:4], c[:4])] == list(c[:4])

def test_fp_helpers_exact_in_every_mode():
    rng = np.random.default_rng(6)
    a, b, c = hard_fma_inputs(rng, 300, np.float64)
    a[-4:], b[-4:], c[-4:] = [-0.0, 0.0, -0.0, 2.0], [1.0, -1.0, 3.0, 0.5], [-0.0, -0.0, 0.0, -1.0]  # signed zeros
    a[:20] = np.ldexp(a[:20], 700)  # outside the fast path's range: the exact fallback
    for mode in (RNE, RUP, RDN, RTZ):
        got = fp.fma64(a, b, c, mode)
        want = [ref_fma(p, q, r, mode) for p, q, r in zip(a, b, c)]
        assert same_bits(got, np.array(want)).size == 0, mode
        got = fp.add_mode(a, c, mode) if mode else a + c
        assert same_bits(got, np.array([ref_add(p, r, mode) for p, r in zip(a, c)])).size == 0, mode
        got = fp.mul_mode(a, b, mode) if mode else a * b
        assert same_bits(got, np.array([ref_mul(p, q, mode) for p, q in zip(a, b)])).size == 0, mode


@needs_amd
def test_rounding_mode_set_by_s_setreg(fp_mc):
    rng = np.random.default_rng(8)
    a, b, c = hard_fma_inputs(rng, 64, np.float64)
    c[::4] = rng.uniform(-1, 1, 16)
    out = launch(fp_mc, "directed_f64", 1, 64, [a, b, c, np.zeros(64 * 12)])[3].reshape(64, 4, 3)
    for mode in (RNE, RUP, RDN, RTZ):
        want = np.array([[directed(Fraction(p) * Fraction(q) + Fraction(r), mode), directed(Fraction(p) + Fraction(r), mode),
                          directed(Fraction(p) * Fraction(q), mode)] for p, q, r in zip(a, b, c)])
        assert same_bits(out[:, mode].reshape(-1), want.reshape(-1)).size == 0, mode
    assert not np.array_equal(out[:, RUP], out[:, RDN])  # the modes did differ on these inputs


@needs_amd
def test_f32_rounding_by_s_round_mode_and_s_getreg(fp_mc):
    rng = np.random.default_rng(9)
    a = rng.uniform(-1, 1, 32).astype(np.float32)
    b = (rng.uniform(-1, 1, 32) * 1e-5).astype(np.float32)
    out, mode = launch(fp_mc, "round_mode_f32", 1, 32, [a, b, np.zeros(128, np.float32), np.zeros(32, np.int32)])[2:]
    out = out.reshape(32, 4)
    for k in range(4):
        want = []
        for p, q in zip(a, b):
            fr = Fraction(float(p)) + Fraction(float(q))
            r = round_f32(fr)
            if k and Fraction(float(r)) != fr:  # directed: the neighbour on the wanted side of the exact value
                lo = r if Fraction(float(r)) < fr else np.nextafter(r, np.float32(-np.inf))
                hi = r if Fraction(float(r)) > fr else np.nextafter(r, np.float32(np.inf))
                r = {RUP: hi, RDN: lo, RTZ: lo if fr > 0 else hi}[k]
            want.append(r)
        assert same_bits(out[:, k], np.array(want, np.float32)).size == 0, k
    assert np.all(mode == 3)  # MODE[3:0] after s_round_mode 3


@needs_amd
def test_waves_with_different_modes_do_not_merge(fp_mc):
    rng = np.random.default_rng(15)
    a = rng.uniform(-1, 1, 128).astype(np.float32)
    b = (rng.uniform(-1, 1, 128) * 1e-5).astype(np.float32)
    out = launch(fp_mc, "mode_per_wave", 4, 32, [a, b, np.zeros(128, np.float32)])[2]
    exact = [Fraction(float(p)) + Fraction(float(q)) for p, q in zip(a, b)]
    up = np.array([Fraction(float(o)) >= e for o, e in zip(out, exact)])
    down = np.array([Fraction(float(o)) <= e for o, e in zip(out, exact)])
    odd = np.repeat(np.arange(4) % 2 == 1, 32)
    assert up[odd].all() and down[~odd].all()
    assert not up[~odd].all() and not down[odd].all()  # inexact sums: the directions did differ


@needs_amd
def test_descriptor_flush_to_zero(fp_cos):
    a = np.array([1e-40, 3e-20, -1e-39, 2.0, 1.5e-38, 1.0], np.float32)
    b = np.array([1.0, 3e-20, 1e-45, 1e-40, -1.4e-38, -1e-38], np.float32)
    args = [a, b, np.zeros(18, np.float32), 6]
    kept = launch(fp_cos[0], "ftz_ops", 1, 32, args)[2].reshape(6, 3)
    flushed = launch(fp_cos[1], "ftz_ops", 1, 32, args)[2].reshape(6, 3)
    with np.errstate(all="ignore"):
        exact = np.stack([a * b, a + b, np.array([round_f32(Fraction(float(p)) * Fraction(float(q)) + Fraction(float(q)))
                                                 for p, q in zip(a, b)], np.float32)], axis=1)
    assert same_bits(kept.reshape(-1), exact.reshape(-1)).size == 0

    def ftz(x):
        return np.where(np.abs(x) < np.finfo(np.float32).tiny, np.copysign(np.float32(0), x), x).astype(np.float32)
    fa, fb = ftz(a), ftz(b)
    with np.errstate(all="ignore"):
        want = ftz(np.stack([fa * fb, fa + fb, (fa.astype(np.float64) * fb + fb).astype(np.float32)], axis=1))
    assert same_bits(flushed.reshape(-1), want.reshape(-1)).size == 0
    assert np.any(kept != flushed)


@needs_amd
def test_descriptor_flushes_f64(fp_mc):
    tiny = np.ldexp(1.0, -1040)  # subnormal
    a = np.array([tiny, 3.0, -tiny, 1e-200, 2.0 ** -1000, 1.5])
    b = np.array([1.0, tiny, 2.0, 1e-200, 2.0 ** -30, -2.5])
    out = launch(fp_mc, "flush_f64", 1, 6, [a, b, np.zeros(12)])[2].reshape(6, 2)

    def ftz(x):
        return np.where(np.abs(x) < np.finfo(np.float64).tiny, np.copysign(0.0, x), x)
    fa, fb = ftz(a), ftz(b)
    want = ftz(np.stack([fa * fb, fa + fb], axis=1))
    assert same_bits(out.reshape(-1), want.reshape(-1)).size == 0
    assert out[0, 1] == 1.0 and np.signbit(out[2, 0]) and out[4, 0] == 0.0  # inputs and results flushed


@needs_amd
def test_calls_through_swappc_and_setpc(fp_mc):
    x = np.arange(96, dtype=np.int32) * 2  # wave 1's lane 0 value is odd after +5 only for odd starts
    x[32] = 7
    out = launch(fp_mc, "calls", 1, 96, [x, np.zeros(96, np.int32)])[1]
    y = x + 5
    first = y.reshape(3, 32)[:, 0]
    factor = np.repeat(np.where(first & 1, 4, 3), 32)
    assert np.array_equal(out, y * factor)
    assert len(set(factor)) == 2  # the waves did take different call targets


def test_round_f32_reference_sane():
    assert round_f32(Fraction(1, 3)) == np.float32(1 / 3)
    assert struct.pack("<f", round_f32(Fraction(1) + Fraction(1, 2**24))) == struct.pack("<f", 1.0)  # tie to even
    assert round_f32(Fraction(1) + Fraction(1, 2**24) + Fraction(1, 2**60)) == np.nextafter(np.float32(1), np.float32(2))


def test_float_compares_with_nan(fp_mc):
    """The pseudocode's `<>` is ordered for floats (V_CMP_LG_F32 false with a NaN, V_CMP_NLG_F32
    true); it was read as `!=` once, which made clang's `!(a < b || a > b)` wrong on NaN."""
    nan = np.float32("nan")
    a = np.array([1, 1, 2, nan, nan, 0, -0.0, np.inf] * 4, np.float32)
    b = np.array([1, 2, 1, 1, nan, -0.0, 0, np.inf] * 4, np.float32)
    out = launch(fp_mc, "cmp_nan_f32", 1, 32, [a, b, np.zeros(32, np.uint32)])[2]
    with np.errstate(invalid="ignore"):
        bits = [(a < b) | (a > b), ~((a < b) | (a > b)), ~(a == b), a == b,
                ~np.isnan(a) & ~np.isnan(b), np.isnan(a) | np.isnan(b), a < b, ~(a >= b)]
    want = sum(b_.astype(np.uint32) << k for k, b_ in enumerate(bits))
    assert out.tolist() == want.tolist()


# 2/pi's fraction bits, 24 at a time (fdlibm's ipio2 table: an independent truth for the emulator's)
TWO_OVER_PI_24 = (
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163, 0xABDEBB, 0xC561B7,
    0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129, 0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C,
    0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11,
    0x8B5A0A, 0x6D1F6D, 0x367ECF, 0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7,
    0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3)


def test_trig_preop_gives_two_over_pi_in_53_bit_chunks():
    """V_TRIG_PREOP_F64 (issue 21: it stopped the emulator): chunk k of 2/pi for every segment the
    hardware has, and the shift a large operand's exponent adds."""
    from cass_cc.emu.semantics import semantics
    from tinygrad.runtime.autogen.amd.rdna3.ins import VOP3Op

    truth = 0
    for word in TWO_OVER_PI_24:
        truth = (truth << 24) | word
    bits = 24 * len(TWO_OVER_PI_24)
    op = semantics(VOP3Op.V_TRIG_PREOP_F64)
    one = np.array([1.0]).view(np.uint64)
    for seg in range(22):
        got = float(op(S0=one, S1=np.uint32(seg))["D0"][0])
        chunk = (truth >> (bits - 53 * (seg + 1))) & ((1 << 53) - 1)
        assert got == np.ldexp(float(chunk), -53 * (seg + 1)), seg
    huge = np.array([2.0 ** 60]).view(np.uint64)  # biased exponent 1083: 6 more bits skipped
    chunk = (truth >> (bits - 53 - 6)) & ((1 << 53) - 1)
    assert float(op(S0=huge, S1=np.uint32(0))["D0"][0]) == np.ldexp(float(chunk), -53 - 6)


def test_double_sin_cos_of_large_arguments(fp_cos):
    """The device library reduces large arguments with V_TRIG_PREOP_F64: results within 2 ulp
    of numpy's (which reduces exactly)."""
    plain, _ = fp_cos
    x = np.array([1e22, -3.5e15, 2.0 ** 60, 123456789.123, 1e300, 5.0, -0.5, 7.0e8], np.float64)
    out = launch(plain, "sincos_large", 1, 8, [x, np.zeros(16), x.size])[1]
    for got, want in ((out[0::2], np.sin(x)), (out[1::2], np.cos(x))):
        assert np.all(np.abs(got - want) <= 2 * np.spacing(np.abs(want))), (got, want)


def test_rndne_keeps_the_sign_and_rounds_ties_to_even():
    """V_RNDNE_F32/F64 (found by cass-data fuzz): the pseudocode's floor(x + 0.5) turned -0.3 and
    -0.0 into +0 and 0.49999997 into 1; the hardware rounds to nearest-even keeping the sign."""
    from cass_cc.emu.semantics import semantics
    from tinygrad.runtime.autogen.amd.rdna3.ins import VOP1Op

    x = np.array([-0.3, -0.0, 0.0, -0.5, 0.5, 1.5, 2.5, -2.5, 0.49999997, -0.49999997, 1e30, -np.inf, 8388609.0],
                 np.float32)
    for op, v in ((VOP1Op.V_RNDNE_F32_E32, x), (VOP1Op.V_RNDNE_F64_E32, x.astype(np.float64))):
        got = np.asarray(semantics(op)(S0=v.view(np.uint32 if v.dtype == np.float32 else np.uint64))["D0"], v.dtype)
        assert got.tobytes() == np.rint(v).tobytes(), (op, got)


def test_frexp_exponent_of_subnormals():
    """V_FREXP_EXP_I32_F64/F32 (found by cass-data fuzz): a subnormal's exponent is frexp's, not the
    biased field's (0 for all of them), or the device library's log of a subnormal is off by up to 36."""
    from cass_cc.emu.semantics import semantics
    from tinygrad.runtime.autogen.amd.rdna3.ins import VOP1Op

    d = np.array([5e-324, -1e-310, 2.2e-308, 1.0, 0.0, np.inf, np.nan, -3.0])
    want = np.where(np.isfinite(d), np.frexp(d)[1], 0)
    got = np.asarray(semantics(VOP1Op.V_FREXP_EXP_I32_F64_E32)(S0=d.view(np.uint64))["D0"]).astype(np.int64)
    assert list(got) == list(want)
    f = np.array([1e-45, -1e-40, 1.5, 0.0, np.inf], np.float32)
    got = np.asarray(semantics(VOP1Op.V_FREXP_EXP_I32_F32_E32)(S0=f.view(np.uint32))["D0"]).astype(np.int64)
    assert list(got) == list(np.where(np.isfinite(f), np.frexp(f)[1], 0))


@needs_amd
def test_device_library_log_and_rint_on_subnormals_and_signed_zeros(fp_cos):
    plain, _ = fp_cos
    x = np.array([-0.3, -0.0, 0.49999997, -1.5, 2.5, 7.0, -0.7, 0.3], np.float32)
    d = np.array([5e-324, 1e-310, 2.2e-308, 1e-300, 3.0, -0.4, 0.5, 2.5])
    out, dout = launch(plain, "round_frexp", 1, 8, [x, d, np.zeros(8, np.float32), np.zeros(16), 8])[2:4]
    assert out.tobytes() == np.rint(x).tobytes()
    assert dout[1::2].tobytes() == np.rint(d).tobytes()
    want = np.log(d[:4])
    assert np.all(np.abs(dout[0:8:2] - want) <= np.spacing(np.abs(want)))


def test_min_max_order_signed_zeros_and_quiet_signalling_nans():
    """V_MAX/V_MIN (found by cass-data fuzz: HIP's fmaxf(-0, +0) came out -0): AMD's pseudocode
    orders -0 < +0, and in IEEE mode a signalling NaN comes back quieted."""
    from cass_cc.emu.semantics import semantics
    from tinygrad.runtime.autogen.amd.rdna3.ins import VOP2Op, VOP3Op

    a = np.array([-0.0, 0.0, -0.0, 1.0, np.nan, 2.0], np.float32)
    b = np.array([0.0, -0.0, -0.0, np.nan, 3.0, -1.0], np.float32)
    bits = lambda r: np.asarray(r, np.float32).view(np.uint32).tolist()  # noqa: E731
    got = bits(semantics(VOP2Op.V_MAX_F32_E32)(S0=a.view(np.uint32), S1=b.view(np.uint32))["D0"])
    assert got == bits(np.array([0.0, 0.0, -0.0, 1.0, 3.0, 2.0], np.float32))
    got = bits(semantics(VOP2Op.V_MIN_F32_E32)(S0=a.view(np.uint32), S1=b.view(np.uint32))["D0"])
    assert got == bits(np.array([-0.0, -0.0, -0.0, 1.0, 3.0, -1.0], np.float32))
    snan = np.array([0x7F800001], np.uint32)
    assert bits(semantics(VOP2Op.V_MAX_F32_E32)(S0=snan, S1=np.array([1.0], np.float32).view(np.uint32))["D0"]) \
        == [0x7FC00001]
    d = np.array([-0.0, 5.0]), np.array([0.0, -7.0])
    got = np.asarray(semantics(VOP3Op.V_MAX_F64)(S0=d[0].view(np.uint64), S1=d[1].view(np.uint64))["D0"], np.float64)
    assert got.tobytes() == np.array([0.0, 5.0]).tobytes()


def test_float_conversions_quiet_signalling_nans():
    """In IEEE mode a conversion between float formats returns a quiet NaN (r2:155: numpy kept a half
    sNaN signalling through V_CVT_F32_F16, and the V_MAX_F32 clang put after it, which relies on
    that, turned fmaxf(255, NaN) into NaN)."""
    from cass_cc.emu.semantics import semantics
    from tinygrad.runtime.autogen.amd.rdna3.ins import VOP1Op, VOP3Op

    half_snan = np.array([0x7D19, 0x3C00], np.uint32)
    f = np.asarray(semantics(VOP1Op.V_CVT_F32_F16_E32)(S0=half_snan)["D0"], np.float32)
    assert f.view(np.uint32).tolist() == [0x7FE32000, 0x3F800000]
    got = np.asarray(semantics(VOP3Op.V_MAX_F32)(S0=np.float32([255.0, 255.0]).view(np.uint32),
                                                 S1=f.view(np.uint32))["D0"], np.float32)
    assert got.tolist() == [255.0, 255.0]
    f32_snan = np.array([0x7FA00001], np.uint32)
    h = np.asarray(semantics(VOP1Op.V_CVT_F16_F32_E32)(S0=f32_snan)["D0"], np.float16).view(np.uint16)
    assert h[0] & 0x7E00 == 0x7E00  # a quiet half NaN
    d = np.asarray(semantics(VOP1Op.V_CVT_F64_F32_E32)(S0=f32_snan)["D0"], np.float64).view(np.uint64)
    assert int(d[0]) >> 51 == 0xFFF
