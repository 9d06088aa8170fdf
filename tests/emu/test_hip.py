"""Every HIP kernel in kernels.hip, built by clang for gfx1100, run on the emulator against NumPy."""
from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu import launch
from tests.emu.cases import CASES
from tests.emu.conftest import needs_amd

pytestmark = needs_amd


def check(case, args, outs) -> None:
    buffers = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]
    got = dict(zip(buffers, outs))
    for idx, want in case.ref(args).items():
        g = got[idx]
        if isinstance(want, str):  # "permutation": every ticket handed out once
            assert np.array_equal(np.sort(g), np.arange(g.size)), f"{case.name}: arg {idx} is not a permutation"
            continue
        assert g.shape == want.shape
        if case.tol:
            bad = np.nonzero(~np.isclose(g, want, rtol=case.tol, atol=case.tol))[0]
        else:
            bad = np.nonzero(g != want)[0]
        assert bad.size == 0, f"{case.name}: arg {idx} differs at {bad[:5]}: got {g[bad[:5]]}, want {want[bad[:5]]}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hip_kernel(hip_co, case):
    args = case.make(np.random.default_rng(7))
    outs = launch(hip_co, case.name, case.grid, case.block, args, shared=case.shared)
    check(case, args, outs)


def test_enough_kernels():
    assert len(CASES) >= 30


def test_inputs_not_modified_and_outputs_fresh(hip_co):
    a = np.arange(100, dtype=np.float32)
    b = np.ones(100, np.float32)
    c = np.full(100, -1, np.float32)
    _, _, out = launch(hip_co, "vadd", 1, 128, [a, b, c, 100])
    assert np.array_equal(out, a + 1) and np.all(c == -1)


def test_partial_last_block_leaves_tail(hip_co):
    n = 300  # 2 blocks of 256: the second one is mostly past n
    a, b = np.ones(n + 20, np.float32), np.ones(n + 20, np.float32)
    c = np.zeros(n + 20, np.float32)
    out = launch(hip_co, "vadd", 2, 256, [a, b, c, n])[2]
    assert np.all(out[:n] == 2) and np.all(out[n:] == 0)
