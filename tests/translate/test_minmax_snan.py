"""fmaxf/fminf of three values with a signalling NaN (issue 21, fuzz r3:1689): CUDA ignores a NaN
operand, and LLVM 15 merged fmaxf(c, fmaxf(a, b)) into one v_max3_f32 without first quieting a
and b, so in IEEE mode the signalling NaN came out. The LLVM fixes plugin canonicalizes min/max
operands (cass_cc/toolchain/llvmfix.cpp). Against Python's reading of CUDA's rule, on the emulator."""
from __future__ import annotations

import math

import numpy as np
import pytest

from tests.emu.conftest import needs_amd
from tests.translate.conftest import run_translated

SOURCE = r"""
extern "C" __global__ void mm3(const float* a, const float* b, const float* c, float* out) {
  unsigned t = threadIdx.x;
  out[4 * t] = fmaxf(c[t], fmaxf(a[t], b[t]));
  out[4 * t + 1] = fminf(c[t], fminf(a[t], b[t]));
  out[4 * t + 2] = fmaxf(fmaxf(a[t], b[t]), c[t]);
  out[4 * t + 3] = fmax((double)c[t], fmax((double)a[t], (double)b[t])) > 0.0 ? 1.0f : 0.0f;
}
"""
SNAN, QNAN = 0x7FA00001, 0x7FC00000


def _pick(op, *xs: float) -> float:  # type: ignore[no-untyped-def]
    """CUDA's fmaxf/fminf: a NaN operand is ignored; all NaN gives NaN."""
    vals = [x for x in xs if not math.isnan(x)]
    return op(vals) if vals else math.nan


@needs_amd
@pytest.mark.parametrize("opt", ["-O3", "-G"])
def test_three_way_min_max_ignore_signalling_nans(tmp_path, opt) -> None:  # type: ignore[no-untyped-def]
    words = [SNAN, QNAN, 0x41D80000, 0xC0400000, 0x00000000, 0x80000000, 0x3F800000, 0xFF800001]  # 27, -3, +-0, 1, -sNaN
    rng = np.random.default_rng(9)
    cols = [np.array([words[i] for i in rng.integers(0, len(words), 64)], np.uint32) for _ in range(3)]
    cols[0][:4], cols[1][:4], cols[2][:4] = [SNAN, SNAN, QNAN, 0x41D80000], [QNAN, 0x3F800000, SNAN, SNAN], [0x41D80000] * 4
    a, b, c = (x.view(np.float32) for x in cols)
    out = run_translated(SOURCE, tmp_path, "mm3", 1, 64, [a, b, c, np.zeros(4 * 64, np.float32)], opt)[3].reshape(64, 4)
    for t in range(64):
        xs = [float(a[t]), float(b[t]), float(c[t])]
        big, small = _pick(max, *xs), _pick(min, *xs)
        for slot, want in ((0, big), (1, small), (2, big)):
            got = float(out[t, slot])
            assert (math.isnan(got) and math.isnan(want)) or got == want, (t, slot, [hex(w) for w in (cols[0][t], cols[1][t], cols[2][t])], got)
        assert out[t, 3] == (1.0 if big > 0 else 0.0), t
