"""A register array written at an index that is uniform but computed in a VGPR (__usad has no
scalar form): LLVM 15-18's AMDGPU back end writes it with v_movreld inside a waterfall loop, and
that path (SITargetLowering::emitIndirectDst) drops the part of the index it folded into a
subregister (llvm-project #98907): a double's high word was written over its low word (fuzz
r3:1675), a[u + 5] went to a[u]. The LLVM fixes plugin (cass_cc/toolchain/llvmfix.cpp) reads such an
index into an SGPR first."""
from __future__ import annotations

import numpy as np
import pytest

from tests.emu.conftest import needs_amd
from tests.translate.conftest import run_translated

SOURCE = r"""
extern "C" __global__ void indexed_insert(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned u = __usad(blockIdx.x, blockDim.x, 14u) & 15u;  // uniform, made by v_sad_u32
  double d[16];
  unsigned w[16];
  for (unsigned k = 0; k < 16u; ++k) {
    d[k] = (double)in[(t + k) & 63u] + 0.5;
    w[k] = in[(t + k + 7u) & 63u];
  }
  d[u] = (double)in[(t * 7u) & 63u] * 3.0;
  w[(u & 7u) + 5u] = in[(t * 5u) & 63u] * 3u;
  double s = d[t & 15u];
  unsigned g = blockIdx.x * blockDim.x + t;
  out[g * 3 + 0] = (unsigned)__double_as_longlong(s);
  out[g * 3 + 1] = (unsigned)(__double_as_longlong(s) >> 32);
  out[g * 3 + 2] = w[t & 15u];
}
"""


@needs_amd
@pytest.mark.parametrize("opt", ["-O3", "-G"])
def test_register_array_written_at_uniform_vgpr_index(tmp_path, opt) -> None:  # type: ignore[no-untyped-def]
    inp = np.random.default_rng(7).integers(0, 1 << 20, 64, dtype=np.uint32)
    block, blocks = 32, 2
    out = run_translated(SOURCE, tmp_path, "indexed_insert", (blocks, 1, 1), (block, 1, 1),
                         [inp, np.zeros(blocks * block * 3, np.uint32)], opt)[1].reshape(blocks * block, 3)
    got_d = out[:, :2].copy().view(np.float64)[:, 0]
    i = [int(x) for x in inp]
    bad = []
    for b in range(blocks):
        u = (abs(b - block) + 14) & 15
        for t in range(block):
            d = [i[(t + k) & 63] + 0.5 for k in range(16)]
            w = [i[(t + k + 7) & 63] for k in range(16)]
            d[u] = i[(t * 7) & 63] * 3.0
            w[(u & 7) + 5] = (i[(t * 5) & 63] * 3) & 0xFFFFFFFF
            g = b * block + t
            if got_d[g] != d[t & 15] or out[g, 2] != w[t & 15]:
                bad.append((b, t, got_d[g], d[t & 15], int(out[g, 2]), w[t & 15]))
    assert not bad, bad[:6]
