"""Run one kernel of a code object on planned inputs (cass_cc.sass.inputs): the plan's buffers
are placed in a fresh Memory, the parameter block is packed with CUDA's offsets and passed as
the explicit kernel arguments (the hidden ones come from the code object's metadata).

    from cass_cc.emu.planned import run_planned
    before, after = run_planned(code_object, "_Z6vecaddPKfS0_Pfi", plan)

Used by cass_data's prove stage to run clang's kernel and the lifter's kernel on the same inputs.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .dispatch import launch
from .loader import CodeObject
from .memory import EmuError, Memory

if TYPE_CHECKING:
    import numpy as np

    from cass_cc.sass.inputs import Plan

BUDGET = 50_000_000  # wave-instructions per launch


class LayoutMismatch(EmuError):
    """The code object lays the kernel's arguments out differently from the plan."""


def check_layout(co: CodeObject, kernel: str, plan: Plan, exact: bool) -> None:
    """The packed parameter block must fit before the first hidden argument; with exact=True the
    explicit arguments must sit at the plan's offsets and sizes (a HIP kernel built by clang)."""
    k = co.kernel(kernel)
    if not k.args:
        raise LayoutMismatch(f"{kernel}: no argument metadata in the code object")
    hidden = [a.offset for a in k.args if a.kind.startswith("hidden_")]
    if hidden and min(hidden) < plan.param_size:
        raise LayoutMismatch(f"{kernel}: hidden arguments start at {min(hidden)}, inside the {plan.param_size}-byte "
                             "parameter block")
    if exact:
        have = [(a.offset, a.size) for a in k.args if not a.kind.startswith("hidden_")]
        want = [(a.offset, a.size) for a in plan.args]
        if have != want:
            raise LayoutMismatch(f"{kernel}: arguments at {have}, CUDA's at {want}")


def run_planned(co: CodeObject, kernel: str, plan: Plan, budget: int = BUDGET,
                exact_layout: bool = False) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(inputs, buffers after the run), both in the plan's buffer order. Raises EmuError (a
    fault, an uncovered instruction, the budget) or LayoutMismatch."""
    from cass_cc.sass.inputs import make_buffers, pack

    check_layout(co, kernel, plan, exact_layout)
    bufs = make_buffers(plan)
    mem = Memory()
    addrs = [mem.alloc(b.nbytes, f"arg {a.offset}: {a.type}", b) for a, b in zip(plan.buffers, bufs)]
    launch(co, kernel, plan.grid, plan.block, [], shared=plan.shared, budget=budget, memory=mem,
           kernarg=pack(plan, addrs))
    import numpy as np

    after = [np.frombuffer(mem.read(addr, b.nbytes), b.dtype).copy() for addr, b in zip(addrs, bufs)]
    return bufs, after
