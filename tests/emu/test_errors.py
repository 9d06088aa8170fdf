"""Runs that must stop with a clear reason: an uncovered instruction, an out-of-bounds access,
a runaway kernel; the process goes on after each."""
from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu import EmuError, MemoryFault, Uncovered, launch
from cass_cc.emu.executor import BudgetExceeded
from tests.emu.conftest import needs_amd

pytestmark = needs_amd


def test_uncovered_instruction_is_named(mc_co):
    with pytest.raises(Uncovered) as e:
        launch(mc_co, "uncovered", 1, 32, [])
    msg = str(e.value)
    assert "V_CVT_PK_NORM_I16_F32" in msg and "instruction at 0x" in msg


def test_out_of_bounds_store_reported_and_process_lives(hip_co):
    n = 64
    a, b = np.ones(n, np.float32), np.ones(n, np.float32)
    c = np.zeros(n - 8, np.float32)  # 8 elements short: lanes 56.. store past the end
    with pytest.raises(MemoryFault) as e:
        launch(hip_co, "vadd", 1, 64, [a, b, c, n])
    err = e.value
    assert err.space == "global" and err.wave * 32 + err.lane == 56  # the first thread past the end
    assert "out-of-bounds" in str(err) and f"{err.pc:#x}" in str(err)
    # nothing half-done stops the next launch
    out = launch(hip_co, "vadd", 1, 64, [a, b, np.zeros(n, np.float32), n])[2]
    assert np.all(out == 2)


def test_out_of_bounds_lds_reported(hip_co):
    x = np.arange(64, dtype=np.int32)
    with pytest.raises(MemoryFault) as e:  # dynamic LDS smaller than the block needs
        launch(hip_co, "dyn_lds_reverse", 1, 64, [x, np.zeros(64, np.int32)], shared=128)
    assert e.value.space == "LDS"


def test_budget_stops_runaway_kernel(mc_co):
    with pytest.raises(BudgetExceeded, match="budget"):
        launch(mc_co, "spin", 1, 32, [], budget=10_000)


def test_wrong_argument_count(hip_co):
    with pytest.raises(EmuError, match="takes 4 arguments"):
        launch(hip_co, "vadd", 1, 32, [np.zeros(4, np.float32)])


def test_unknown_kernel(hip_co):
    with pytest.raises(EmuError, match="no kernel 'nope'"):
        launch(hip_co, "nope", 1, 32, [])
