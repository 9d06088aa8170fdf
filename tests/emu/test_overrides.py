"""The hand-written fast forms in semantics.py give what AMD's pseudocode (translated by pcode.py)
gives, on random operands, carries and lane masks."""
from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu import rt
from cass_cc.emu.pcode import translate
from cass_cc.emu.semantics import OVERRIDES, _base_name

FAST = ["V_ADD_CO_U32", "V_ADD_CO_CI_U32_E32", "V_SUB_CO_U32", "V_SUBREV_CO_U32", "V_SUB_CO_CI_U32_E32",
        "V_SUBREV_CO_CI_U32_E32", "V_CNDMASK_B32_E32", "V_LSHLREV_B64", "V_LSHRREV_B64", "V_ASHRREV_I64",
        "V_FMAC_F32_E32", "V_FMA_F32"]


def _pcode(name: str):
    from tinygrad.runtime.autogen.amd.rdna3.str_pcode import PCODE

    text = next(t for op, t in PCODE.items() if op.name == name)
    scope = {"R": rt, "np": np}
    exec(compile(translate(text, "op"), name, "exec"), scope)
    return scope["op"]


@pytest.mark.parametrize("name", FAST)
def test_fast_form_equals_pseudocode(name):
    rng = np.random.default_rng(13)
    W = 6
    if name.startswith(("V_FMA",)):
        vals = [rng.uniform(-3, 3, (W, 32)).astype(np.float32).view(np.uint32) for _ in range(3)]
    else:
        vals = [rng.integers(0, 2**32, (W, 32), dtype=np.uint64).astype(np.uint32) for _ in range(3)]
        vals[1][:, :4] = 0xFFFFFFFF  # carries out of all-ones
        vals[0][:, 4:8] = vals[1][:, 4:8]  # equal operands: borrow only with a carry in
    kw = {"S0": vals[0], "S1": vals[1], "S2": vals[2], "D0": vals[2],
          "VCC": rng.integers(0, 2**32, (W, 1), dtype=np.uint64).astype(np.uint32), "laneId": rt.LANES}
    if "64" in name and ("SHR" in name or "LSHL" in name or "ASHR" in name):
        kw["S1"] = vals[1].astype(np.uint64) << np.uint64(32) | vals[2].astype(np.uint64)
        kw["S0"] = vals[0] % np.uint32(80)
    if name == "V_FMA_F32":
        kw.pop("D0")
    want = _pcode(name)(**kw)
    got = OVERRIDES[_base_name(name)](**kw)
    for key in want:
        if key == "D0" or key.startswith("lane:"):
            w, g = np.broadcast_to(want[key], (W, 32)), np.broadcast_to(got[key], (W, 32))
            if key == "D0":
                w = w.view(np.uint64 if w.dtype.itemsize == 8 else np.uint32) if w.dtype.kind != "b" else w
                g = g.view(np.uint64 if g.dtype.itemsize == 8 else np.uint32) if g.dtype.kind != "b" else g
            assert np.array_equal(np.asarray(w).astype(np.uint64), np.asarray(g).astype(np.uint64)), f"{name} {key}"


SALU = ["S_AND_B32", "S_OR_B32", "S_XOR_B32", "S_AND_NOT1_B32", "S_OR_NOT1_B32", "S_AND_SAVEEXEC_B32",
        "S_OR_SAVEEXEC_B32", "S_XOR_SAVEEXEC_B32", "S_AND_NOT1_SAVEEXEC_B32", "S_ADD_U32", "S_ADD_I32", "S_SUB_U32",
        "S_SUB_I32", "S_CSELECT_B32", "S_MOV_B32", "S_LSHL_B32", "S_LSHR_B32", "S_ASHR_I32", "S_CMP_EQ_U32",
        "S_CMP_LG_I32", "S_CMP_GT_I32", "S_CMP_GE_U32", "S_CMP_LT_I32", "S_CMP_LE_U32"]


@pytest.mark.parametrize("name", SALU)
def test_scalar_fast_form_equals_pseudocode(name):
    rng = np.random.default_rng(16)
    W = 64
    edges = np.array([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 31, 32, 33], np.uint32)
    s0 = np.concatenate([np.repeat(edges, 8), rng.integers(0, 2**32, W, dtype=np.uint64).astype(np.uint32)])
    s1 = np.concatenate([np.tile(edges, 8), rng.integers(0, 2**32, W, dtype=np.uint64).astype(np.uint32)])
    kw = {"S0": s0, "S1": s1, "SCC": (rng.random(s0.size) < 0.5).astype(np.uint32),
          "EXEC": rng.integers(0, 2**32, s0.size, dtype=np.uint64).astype(np.uint32)}
    want = _pcode(name)(**kw)
    got = OVERRIDES[name](**kw)
    assert set(want) <= set(got), name
    for key in want:
        w = np.broadcast_to(np.asarray(want[key]), s0.shape).astype(np.int64) & 0xFFFFFFFF
        g = np.broadcast_to(np.asarray(got[key]), s0.shape).astype(np.int64) & 0xFFFFFFFF
        if key == "SCC":
            w, g = w != 0, g != 0
        assert np.array_equal(w, g), f"{name} {key}"
