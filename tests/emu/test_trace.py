"""cass_cc.emu.trace follows one lane: its instructions, on/off, and its destination values."""
from __future__ import annotations

import io

import numpy as np

from cass_cc.emu import launch
from cass_cc.emu.trace import trace_lane
from tests.emu.conftest import needs_amd


@needs_amd
def test_trace_one_lane(hip_co):
    a = np.arange(40, dtype=np.float32)
    b = np.full(40, 0.5, np.float32)
    buf = io.StringIO()
    with trace_lane(37, buf):  # wave 1, lane 5
        out = launch(hip_co, "vadd", 1, 64, [a, b, np.zeros(40, np.float32), 40])[2]
    text = buf.getvalue()
    assert out[37] == 37.5
    assert "global_store" in text and "v_add_f32" in text
    assert f"{np.float32(37.5)!r}" in text  # the lane's sum, as its add left it
    store = [line for line in text.splitlines() if "global_store" in line]
    assert store and " on " in store[0]
    buf = io.StringIO()
    with trace_lane(45, buf):  # past n: the store runs with this lane off
        launch(hip_co, "vadd", 1, 64, [a, b, np.zeros(40, np.float32), 40])
    stores = [line for line in buf.getvalue().splitlines() if "global_store" in line]
    assert stores and all(" off " in line for line in stores)
