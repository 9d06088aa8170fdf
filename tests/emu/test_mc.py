"""llvm-mc kernels (kernels_mc.s): DPP8, DPP16, permlanes, readlane/writelane, VOPD, scalar branches,
EXEC masking, barriers; each equal to a NumPy reference."""
from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu import launch
from tests.emu.conftest import needs_amd

pytestmark = needs_amd

X = np.arange(32, dtype=np.int32) * 3 - 40
LANE = np.arange(32)
ROW = LANE & ~15


def _row_shr_add(x):
    prev = np.where((LANE & 15) >= 1, x[np.maximum(LANE - 1, 0)], 0)
    return prev + x


def _readlane(x):
    out = x.copy()
    out[0], out[31] = x[5], x[0]
    return out


def _sad(x):
    u = x.view(np.uint32).astype(np.int64)
    v = (u * 3) & 0xFFFFFFFF
    byte = lambda a, k: (a >> (8 * k)) & 0xFF  # noqa: E731
    sad8 = sum(np.abs(byte(u, k) - byte(v, k)) for k in range(4)) + 7
    m = 0x00FF0102
    msad = sum(np.where(byte(m, k) == 0, 0, np.abs(byte(u, k) - byte(m, k))) for k in range(4))
    sad32 = np.abs(u - 100)
    return ((sad8 + msad + sad32) & 0xFFFFFFFF).astype(np.uint32).view(np.int32)


EXPECT = {
    "dpp8_reverse": lambda x: x[(LANE & ~7) | (7 - (LANE & 7))],
    "dpp16_quad_perm": lambda x: x[(LANE & ~3) | (3 - (LANE & 3))],
    "dpp16_row_shr_add": _row_shr_add,
    "dpp16_row_mirror": lambda x: x[ROW + 15 - (LANE & 15)],
    "dpp16_row_share": lambda x: x[ROW + 3],
    "permlane16_reverse": lambda x: x[ROW + 15 - (LANE & 15)],
    "permlanex16_swap": lambda x: x[LANE ^ 16],
    "readlane_writelane": _readlane,
    "scalar_loop": lambda x: x + 55,
    "exec_abs": np.abs,
    "vccz_cndmask": lambda x: np.where(x < 10, 9, 7) + 100,
    "salu_bits": lambda x: x + ((8 << 4) | 4),
    # issue 21: V_SWAP_B32 writes both operands; S_BITSET0/1; the VOP3 clamp bit saturates an integer add
    "swap_b32": lambda x: x,
    "bitset": lambda x: (x.astype(np.int64) + 0x80000008).astype(np.uint32).view(np.int32),
    "sad": lambda x: _sad(x),
    # found by cass-data fuzz: clang indexes a small local array in VGPRs through M0 (V_MOVREL*)
    # v5 = x (D+2); v6 = v5 (S+1); + v3 + v4 = x+3; v5 = v4 (_2: D+2, S+1) = 2: x+5; v4 = v4 (SD+1): x+7
    "movrel": lambda x: x + 7,
    "div_fmas_neg": lambda x: x,
    # issue 23 (hipCUB's WarpReduce on gfx1100): DS_SWIZZLE_B32 reads its ADDR field; it read DATA0
    "swizzle_broadcast": lambda x: x[(LANE & ~31) | 15],
    "swizzle_swap16": lambda x: x[LANE ^ 16],
    "swizzle_quad_perm": lambda x: x[(LANE & ~3) | (3 - (LANE & 3))],
    "clamp_add": lambda x: np.minimum(x.view(np.uint32).astype(np.int64) + 0xFFFFFFF0, 0xFFFFFFFF).astype(np.uint32).view(np.int32),
}


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_mc_kernel(mc_co, name):
    out = launch(mc_co, name, 1, 32, [X, np.zeros(32, np.int32)])[1]
    assert np.array_equal(out, EXPECT[name](X).astype(np.int32)), f"{name}: {out}"


def test_packed_half_lane_selects_and_negation(mc_co):
    """VOP3P op_sel/op_sel_hi/neg_lo/neg_hi and V_PK_MAX_F16 (the emulator once ignored the selects
    and negations, so clang's __hsub2 added; found beside cass-data fuzz): each lane hi - lo, then
    max with 1.0 broadcast from the constant's low half, then + x."""
    rng = np.random.default_rng(7)
    x = rng.uniform(-8, 8, 64).astype(np.float16)
    out = launch(mc_co, "pk_f16", 1, 32, [x.view(np.int32), np.zeros(32, np.int32)])[1].view(np.float16)
    lo, hi = x[0::2], x[1::2]
    d = (hi.astype(np.float32) - lo.astype(np.float32)).astype(np.float16)
    m = np.maximum(d, np.float16(1.0))
    want = np.empty(64, np.float16)
    want[0::2] = (m.astype(np.float32) + lo.astype(np.float32)).astype(np.float16)
    want[1::2] = (m.astype(np.float32) + hi.astype(np.float32)).astype(np.float16)
    assert out.tobytes() == want.tobytes(), (out, want)


def test_vopd(mc_co):
    f = np.linspace(-2, 2, 32).astype(np.float32)
    out = launch(mc_co, "vopd_add_mul", 1, 32, [f, np.zeros(32, np.float32)])[1]
    assert np.array_equal(out, (f + f) + f * f)


def test_two_waves_meet_at_barrier(mc_co):
    x = np.arange(64, dtype=np.int32) * 7
    out = launch(mc_co, "lds_barrier_swap", 3, 64, [x, np.zeros(64, np.int32)])[1]
    assert np.array_equal(out, x[::-1])


def test_lds_address_wraps_at_32_bits(mc_co):
    # v5 = 4 * (63 - tid) - 64 is "negative" for the upper lanes; + offset:64 wraps back (LLVM folds this way)
    x = np.arange(64, dtype=np.int32) * 3
    out = launch(mc_co, "lds_wrapped_address", 1, 64, [x, np.zeros(64, np.int32)])[1]
    assert np.array_equal(out, x[::-1])


def test_vccz_branch_not_taken_when_no_lane_below(mc_co):
    x = np.full(32, 50, np.int32)
    out = launch(mc_co, "vccz_cndmask", 1, 32, [x, np.zeros(32, np.int32)])[1]
    assert np.all(out == 7)
