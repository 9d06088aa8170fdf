"""Follow one lane through a run: every instruction its wave executes, whether the lane was on,
and what the instruction left in its destination registers for that lane.

    from cass_cc.emu import launch
    from cass_cc.emu.trace import trace_lane
    with trace_lane(20):  # global lane id: wave 0, lane 20
        launch(co, "kernel", grid, block, args)

Instructions already built in this process are traced too (the wrappers are removed at exit).
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator, TextIO

import numpy as np

from . import executor
from .operands import EXEC_LO, VGPR0


def _describe(g, inst, k: int, lane: int) -> str:
    d = getattr(inst, "vdst", None) or getattr(inst, "sdst", None) or getattr(inst, "sdata", None)
    if d is None:
        return ""
    off = d.offset
    if off >= VGPR0:
        r = off - VGPR0
        if r + 1 >= g.v.shape[0]:
            return f"v{r}={int(g.v[r][k, lane]):08x}"
        lo, hi = int(g.v[r][k, lane]), int(g.v[r + 1][k, lane])
        return f"v{r}={lo:08x} v{r + 1}={hi:08x} (f32 {np.uint32(lo).view(np.float32)!r})"
    if off < EXEC_LO:
        return f"s{off}={int(g.s[off][k]):08x} s{off + 1}={int(g.s[off + 1][k]):08x} scc={int(g.scc[k])}"
    return ""


@contextmanager
def trace_lane(lane: int, out: TextIO = sys.stdout) -> Iterator[None]:
    """Print the instructions of global lane `lane` (wave lane // 32) while the block runs."""
    wave, ln = divmod(lane, 32)
    original = executor.Program.at

    def at(self, pc):
        fn, inst = original(self, pc)

        def traced(g, fn=fn, inst=inst, pc=pc):
            r = fn(g)
            hit = np.flatnonzero(g.wave == wave)
            if hit.size:
                k = int(hit[0])
                on = (int(g.s[EXEC_LO][k]) >> ln) & 1
                out.write(f"{pc:#08x} {'on ' if on else 'off'} {str(inst)[:100]}  {_describe(g, inst, k, ln) if on else ''}\n")
            return r
        return traced, inst

    executor.Program.at = at
    try:
        yield
    finally:
        executor.Program.at = original
