"""Vectorised atomics (cass_cc.emu.atomics) against one lane at a time, in lane order."""
from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu.atomics import ordered_rmw, step


def one_by_one(view, idx, new, cmp, op):
    olds = np.empty(idx.size, view.dtype)
    for k in range(idx.size):
        olds[k] = view[idx[k]]
        view[idx[k]] = step(op, view[idx[k]: idx[k] + 1], new[k: k + 1], (cmp if cmp is not None else new)[k: k + 1])[0]
    return olds


@pytest.mark.parametrize("op", ["ADD", "SUB", "MIN", "MAX", "AND", "OR", "XOR", "SWAP", "CMPSWAP", "INC", "DEC", "CSUB"])
@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.uint64])
def test_ordered_rmw_matches_lane_order(op, dtype):
    rng = np.random.default_rng(11)
    # one hot address (a long segment), a few shared ones (short segments) and private ones
    idx = np.concatenate([np.zeros(40, np.int64), rng.integers(1, 6, 60), np.arange(10, 40)])
    rng.shuffle(idx)
    new = rng.integers(0, 9, idx.size).astype(dtype)
    cmp = rng.integers(0, 9, idx.size).astype(dtype) if op == "CMPSWAP" else None
    start = rng.integers(0, 9, 64).astype(dtype)
    a, b = start.copy(), start.copy()
    with np.errstate(all="ignore"):
        want = one_by_one(a, idx, new, cmp, op)
        got = ordered_rmw(b, idx, new, cmp, op)
    assert np.array_equal(got, want) and np.array_equal(a, b)


def test_float_add_rounds_in_lane_order():
    rng = np.random.default_rng(12)
    new = (rng.standard_normal(1000) * 10.0 ** rng.integers(-6, 6, 1000)).astype(np.float32)
    idx = np.zeros(1000, np.int64)
    view = np.zeros(1, np.float32)
    olds = ordered_rmw(view, idx, new, None, "ADD")
    acc = np.float32(0)
    for k, x in enumerate(new):
        assert olds[k] == acc
        acc = np.float32(acc + x)
    assert view[0] == acc


def test_cas_loop_one_winner_per_value():
    view = np.array([5], np.int32)
    cmp = np.array([5, 5, 6, 5, 7, 6], np.int32)
    new = np.array([6, 9, 7, 1, 8, 2], np.int32)
    seen = ordered_rmw(view, np.zeros(6, np.int64), new, cmp, "CMPSWAP")
    assert seen.tolist() == [5, 6, 6, 7, 7, 8] and view[0] == 8
