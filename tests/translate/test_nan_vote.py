"""A warp vote on a NaN test, __ballot_sync/__any_sync/__all_sync(m, isnan(x)) with x a double or a
half: InstCombine turns the vote of `fcmp uno x, 0.0` into llvm.amdgcn.fcmp(x, 0.0, uno), which
LLVM 15's AMDGPU back end cannot select ("Cannot select: i32 = SETCC ..., setuo"; fuzz r3:82, 247,
727, 1650, 1686); the ordered form (a vote of !isnan(x)) likewise. The LLVM fixes plugin
(cass_cc/toolchain/llvmfix.cpp) rewrites it into masks of x une x / x oeq x."""
from __future__ import annotations

import numpy as np
import pytest

from tests.emu.conftest import needs_amd
from tests.translate.conftest import run_translated

SOURCE = r"""
#include <cuda_fp16.h>
extern "C" __global__ void nan_votes(const unsigned long long* in, unsigned* out) {
  unsigned t = threadIdx.x;
  double a = __longlong_as_double((long long)in[t]), b = __longlong_as_double((long long)in[t + 64]);
  __half h = __ushort_as_half((unsigned short)in[t + 128]);
  float f = __uint_as_float((unsigned)in[t + 192]);
  unsigned* o = out + t * 10;
  o[0] = __ballot_sync(0xffffffffu, isnan(a));
  o[1] = __any_sync(0xffffffffu, isnan(a));
  o[2] = __all_sync(0xffffffffu, !isnan(b));
  o[3] = __ballot_sync(0xffffffffu, isnan(a) || isnan(b));
  o[4] = __ballot_sync(0xffffffffu, !isnan(a) && !isnan(b));
  o[5] = __ballot_sync(0xffffffffu, __hisnan(h));
  o[6] = __any_sync(0xffffffffu, __hisnan(h));
  o[7] = __ballot_sync(0xffffffffu, isnan(f));
  o[8] = 7u;
  o[9] = 7u;
  if (t & 1u) {
    o[8] = __ballot_sync(0xaaaaaaaau, isnan(b));
    o[9] = __all_sync(0xaaaaaaaau, !__hisnan(h));
  }
}
"""


def _inputs() -> np.ndarray:
    rng = np.random.default_rng(11)
    x = rng.integers(0, 1 << 64, 256, dtype=np.uint64)
    nan64 = [0x7FF8000000000000, 0xFFF0000000000001, 0x7FF0000000000001, 0xFFFFFFFFFFFFFFFF]
    not64 = [0x7FF0000000000000, 0xFFF0000000000000, 0x0000000000000001, 0]  # infinities, denormal, zero
    x[:128] &= np.uint64(0xBFFFFFFFFFFFFFFF)  # exponent below all-ones: no NaN unless placed
    for k, lane in enumerate([3, 9, 20, 31]):  # NaNs in warp 0 of a; warp 1 of a has none
        x[lane] = nan64[k]
    for k, lane in enumerate([34, 40, 50, 61]):
        x[lane] = not64[k]
    for k, lane in enumerate([64 + 40, 64 + 41, 64 + 63, 64 + 50]):  # NaNs of b in warp 1 only
        x[lane] = nan64[k]
    x[128:] &= np.uint64(0xFFFF)
    x[128:192] &= np.uint64(0xBBFF)  # half exponent below all-ones
    for lane, v in [(5, 0x7E00), (7, 0xFC01), (33, 0x7BFF), (35, 0x7C00), (36, 0xFC00)]:  # NaNs; others
        x[128 + lane] = v
    x[192:] &= np.uint64(0xBFFFFFFF)
    x[192 + 12] = 0x7FC00000
    x[192 + 44] = 0xFF800001
    return x


def _expected(x: np.ndarray) -> np.ndarray:
    a = x[:64].view(np.float64)
    b = x[64:128].view(np.float64)
    h = (x[128:192] & np.uint64(0xFFFF)).astype(np.uint16).view(np.float16)
    f = (x[192:] & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.float32)
    want = np.zeros((64, 10), np.uint64)

    def mask(bits: np.ndarray, w: int, lanes: int = 0xFFFFFFFF) -> int:
        return sum(1 << i for i in range(32) if bits[w * 32 + i] and lanes >> i & 1)

    for w in range(2):
        an, bn, hn, fn = np.isnan(a), np.isnan(b), np.isnan(h), np.isnan(f)
        odd = 0xAAAAAAAA
        row = [mask(an, w), int(an[w * 32:w * 32 + 32].any()), int(not bn[w * 32:w * 32 + 32].any()),
               mask(an | bn, w), mask(~an & ~bn, w), mask(hn, w), int(hn[w * 32:w * 32 + 32].any()), mask(fn, w)]
        for t in range(w * 32, w * 32 + 32):
            odd_lane = t & 1
            want[t] = row + [mask(bn, w, odd) if odd_lane else 7,
                             int(not any(hn[w * 32 + i] for i in range(32) if odd >> i & 1)) if odd_lane else 7]
    return want


@needs_amd
@pytest.mark.parametrize("opt", ["-O3", "-G"])
def test_vote_on_nan_test(tmp_path, opt) -> None:  # type: ignore[no-untyped-def]
    x = _inputs()
    out = run_translated(SOURCE, tmp_path, "nan_votes", (1, 1, 1), (64, 1, 1),
                         [x.view(np.uint32).copy(), np.zeros(64 * 10, np.uint32)], opt)[1].reshape(64, 10)
    want = _expected(x)
    # the inputs reach both answers of each vote
    assert {int(want[0, 1]), int(want[32, 1])} == {0, 1} and {int(want[0, 2]), int(want[32, 2])} == {0, 1}
    assert {int(want[0, 6]), int(want[32, 6])} == {0, 1}
    assert (out == want).all(), [(t, s, hex(out[t, s]), hex(want[t, s])) for t, s in zip(*np.nonzero(out != want))][:8]
