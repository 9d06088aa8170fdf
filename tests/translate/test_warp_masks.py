"""Warp functions with a partial mask (issue 21): CUDA's __reduce_*_sync, __match_*_sync and votes
take only the mask's lanes; HIP 5.2's helpers and votes once took the whole wave, a silent wrong
answer. Translated by the rules, built for gfx1100 and run on the emulator against numpy."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cass_cc.translate.identity import rules_identity
from cass_cc.util import sha256_hex
from tests.conftest import SHARED_CACHE, built_once
from tests.emu.conftest import needs_amd
from tests.translate.conftest import cass_cc_build, kernel_named

SOURCE = r"""
// out[12 * lane + k]: half warps (mask 0x0000ffff / 0xffff0000), even lanes (0x55555555), the whole warp
__global__ void masks(const int* v, int* out) {
  int lane = threadIdx.x;
  int x = v[lane];
  int* o = out + 12 * lane;
  unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  o[0] = __reduce_add_sync(half, x);
  o[1] = (int)__reduce_max_sync(half, (unsigned)x);
  o[2] = __reduce_min_sync(0xffffffffu, x);
  if (lane % 2 == 0) {
    o[3] = __reduce_add_sync(0x55555555u, x);
    o[4] = (int)__match_any_sync(0x55555555u, x & 3);
    o[5] = (int)__ballot_sync(0x55555555u, x > 0);
    o[6] = __any_sync(0x55555555u, x > 40) | __all_sync(0x55555555u, x > -100) << 1;
  } else {
    o[3] = o[4] = o[5] = o[6] = -1;
  }
  int same = 0;
  unsigned m = __match_all_sync(half, x >= -1000, &same);
  o[7] = (int)(m == half) | same << 1;
  int differ = 1;  // lanes disagree: 0 and no predicate (the helper once skipped shuffles, reading stale lanes)
  unsigned wide = (lane & 1) ? (unsigned)(long long)((double)x * 3.0) : 0u;  // as the fuzz kernel: many lanes agree
  o[8] = (int)__match_all_sync(0xffffffffu, wide, &differ) | differ << 1;
  // arguments of other types convert as to CUDA's overloads (int, unsigned): a char sums as an int,
  // blockDim.x is an unsigned (the helpers were once templates: a char sum wrapped, blockDim.x failed)
  o[9] = __reduce_add_sync(half, (signed char)x);
  o[10] = (int)__reduce_and_sync(0xffffffffu, blockDim.x);
  o[11] = (int)__match_any_sync(0xffffffffu, blockDim.x) + (int)__match_any_sync(half, (short)(x & 1));
}
"""


@pytest.fixture(scope="module")
def code_object() -> Path:
    from cass_cc.emu import load

    key = sha256_hex(SOURCE, rules_identity())[:20]
    return load(built_once(SHARED_CACHE / "warp-masks", "masks.co", key,
                           lambda p: cass_cc_build(SOURCE, p, "-cubin", "-arch=sm_80")))


@needs_amd
def test_partial_masks_take_only_their_lanes(code_object) -> None:  # type: ignore[no-untyped-def]
    from cass_cc.emu import launch

    rng = np.random.default_rng(21)
    v = rng.integers(-50, 50, 32).astype(np.int32)
    assert len(set(v.tolist())) > 1
    out = launch(code_object, kernel_named(code_object, "masks"), 1, 32, [v, np.zeros(12 * 32, np.int32)])[1]
    out = out.reshape(32, 12)
    lanes = np.arange(32)
    even = lanes % 2 == 0
    for lane in range(32):
        half = lanes < 16 if lane < 16 else lanes >= 16
        row = out[lane]
        assert row[0] == v[half].sum(), lane
        assert row[1] == v[half].astype(np.uint32).max().astype(np.int32), lane
        assert row[2] == v.min(), lane
        assert row[7] == 3, lane
        assert row[8] == 0, lane  # the 32 values are not all equal
        assert row[9] == v[half].sum(), lane
        assert row[10] == 32, lane
        parity = half & ((v & 1) == (v[lane] & 1))
        assert row[11] == np.int32(np.uint32((0xffffffff + sum(1 << int(k) for k in np.flatnonzero(parity))) % 2**32)), lane
        if lane % 2:
            assert list(row[3:7]) == [-1] * 4
            continue
        assert row[3] == v[even].sum()
        peers = even & ((v & 3) == (v[lane] & 3))
        assert row[4] == np.int32(np.uint32(sum(1 << int(k) for k in np.flatnonzero(peers))))
        assert row[5] == np.int32(np.uint32(sum(1 << int(k) for k in np.flatnonzero(even & (v > 0)))))
        assert row[6] == int((v[even] > 40).any()) | int((v[even] > -100).all()) << 1
