"""Unsigned division whose operands LLVM 15/16 thinks fit in 24 bits because they have many sign
bits (-1, a sign-extended short, -lane): the AMDGPU back end (AMDGPUCodeGenPrepare::expandDivRem24
and AMDGPUTargetLowering::LowerDIVREM24) then divides in float after uitofp, and 0xffffffff
becomes 2^32 (fuzz r2:1142: 0xffffffffu % lane gave 31 - lane). Fixed upstream in LLVM 20
(llvm-project #118928/#119325) and for the DAG path in #196418; later LLVM also narrowed the float
path to 23/22 bits, as v_rcp_f32's error made 0xbf2758 / 0xbf2759 give 1 (#202753, #209711). A known silent wrong answer of the
rules path on clang 15/16 (issue 21): strict xfail, so the test fails the day a fix lands and the
mark must go."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from tests.emu.conftest import needs_amd
from tests.translate.conftest import cass_cc_build, run_translated

SOURCE = r"""
extern "C" __global__ void udiv_signbits(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, d = (in[t] & 31u) | 1u;
  out[t * 6 + 0] = 0xffffffffu % d;
  out[t * 6 + 1] = 0xffffffffu / d;
  out[t * 6 + 2] = (unsigned)(short)in[t + 64] / (in[t + 128] & 255u | 1u);
  out[t * 6 + 3] = (0u - (t & 255u)) % d;
  unsigned long long w = (unsigned long long)(long long)(int)in[t + 64] / (unsigned long long)d;
  out[t * 6 + 4] = (unsigned)w;
  out[t * 6 + 5] = (unsigned)(w >> 32);
}
"""


@needs_amd
@pytest.mark.parametrize("opt", ["-O3", "-G"])
def test_unsigned_division_with_many_sign_bits(tmp_path, opt) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(7)
    inp = rng.integers(0, 1 << 32, 256, dtype=np.uint64).astype(np.uint32)
    out = run_translated(SOURCE, tmp_path, "udiv_signbits", (1, 1, 1), (64, 1, 1),
                         [inp, np.zeros(64 * 6, np.uint32)], opt)[1].reshape(64, 6)
    want = np.zeros((64, 6), np.uint64)
    for t in range(64):
        d = (int(inp[t]) & 31) | 1
        short = int(inp[t + 64]) & 0xFFFF
        short_u32 = (short - 0x10000 if short >> 15 else short) & 0xFFFFFFFF
        int_u64 = (int(inp[t + 64]) - (1 << 32) if int(inp[t + 64]) >> 31 else int(inp[t + 64])) & (2**64 - 1)
        w = int_u64 // d
        want[t] = [0xFFFFFFFF % d, 0xFFFFFFFF // d, short_u32 // ((int(inp[t + 128]) & 255) | 1),
                   ((0 - (t & 255)) & 0xFFFFFFFF) % d, w & 0xFFFFFFFF, w >> 32]
    assert (out == want).all(), [(t, s, hex(out[t, s]), hex(want[t, s])) for t, s in zip(*np.nonzero(out != want))][:8]


@needs_amd
def test_division_by_a_constant_keeps_its_multiply(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The guard hides only the dividend where the divisor is a constant: x / 10u stays a
    multiply-high (no float reciprocal, no integer-division loop)."""
    co_path = tmp_path / "c.co"
    cass_cc_build('extern "C" __global__ void by10(const unsigned* in, unsigned* out) '
                  "{ out[threadIdx.x] = in[threadIdx.x] / 10u + 0xffffffffu % 7u; }", co_path, "-cubin", "-arch=sm_90")
    listing = subprocess.run(["llvm-objdump-15", "-d", str(co_path)], capture_output=True, text=True, check=True).stdout
    assert "v_mul_hi_u32" in listing and "v_rcp_iflag_f32" not in listing
