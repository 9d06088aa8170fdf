"""64-bit multiplication whose operands' low words LLVM 15 thinks fit in signed 24 bits (-1, a
sign-extended short, a word of one): the AMDGPU back end splits the multiply into 32-bit halves and
AMDGPUTargetLowering::performMulLoHiCombine takes the unsigned low-word product to
v_mul_hi_i32_i24, a signed high half (fixed by llvm-project #105831, August 2024). Fuzz r3:1053:
in[__umulhi(0xffffffff, i) & 1023] read in[-1], the & 1023 dropped as i < 7. The LLVM fixes plugin
(cass_cc/toolchain/llvmfix.cpp) hides such words from the back end."""
from __future__ import annotations

import numpy as np
import pytest

from tests.emu.conftest import needs_amd
from tests.translate.conftest import run_translated

SOURCE = r"""
extern "C" __global__ void wide_mul(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, x = in[t] & 7u, last = 0;
  for (unsigned i = 0; i <= x; ++i)  // only the last load stays: its index is i's product, not i's
    last = in[__umulhi(0xffffffffu, i) & 1023u];
  out[t * 8 + 0] = last;
  unsigned s = (unsigned)(short)in[t + 64];
  unsigned long long y = (unsigned long long)(long long)(short)in[t + 128];
  unsigned long long p = (unsigned long long)s * y;
  out[t * 8 + 1] = (unsigned)(p >> 32);
  unsigned long long h = __umul64hi(y, (unsigned long long)x);
  out[t * 8 + 2] = (unsigned)h;
  out[t * 8 + 3] = (unsigned)(h >> 32);
  out[t * 8 + 4] = (unsigned)__mul64hi((long long)(int)s, (long long)x);
  unsigned long long o;
  out[t * 8 + 5] = __builtin_mul_overflow((unsigned long long)s, y, &o);
  out[t * 8 + 6] = (unsigned)(o >> 32);
  out[t * 8 + 7] = (unsigned)(((unsigned long long)x * 0xffffffffffc00001ull) >> 32);
}
"""


def _sext16(v: int) -> int:
    v &= 0xFFFF
    return v - 0x10000 if v >> 15 else v


@needs_amd
@pytest.mark.parametrize("opt", ["-O3", "-G"])
def test_wide_multiply_of_words_with_many_sign_bits(tmp_path, opt) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(5)
    inp = rng.integers(0, 1 << 32, 1024, dtype=np.uint64).astype(np.uint32)
    out = run_translated(SOURCE, tmp_path, "wide_mul", (1, 1, 1), (64, 1, 1),
                         [inp, np.zeros(64 * 8, np.uint32)], opt)[1].reshape(64, 8)
    m32, m64 = (1 << 32) - 1, (1 << 64) - 1
    want = np.zeros((64, 8), np.uint64)
    for t in range(64):
        x = int(inp[t]) & 7
        s = _sext16(int(inp[t + 64]))
        y = _sext16(int(inp[t + 128])) & m64
        p = ((s & m32) * y) & m64
        h = (y * x) >> 64
        last = int(inp[((x * m32) >> 32) & 1023])
        want[t] = [last, p >> 32, h & m32, h >> 32, ((s * x) >> 64) & m32, int((s & m32) * y > m64), p >> 32,
                   (((x * 0xFFFFFFFFFFC00001) & m64) >> 32)]
    assert (out == want).all(), [(t, s, hex(out[t, s]), hex(want[t, s])) for t, s in zip(*np.nonzero(out != want))][:8]
