"""Run wave groups: waves that share a PC execute each instruction together, as one NumPy batch.

A group splits when its waves disagree on a scalar branch and groups merge again when they reach
the same PC. The group with the lowest PC runs first and stops as soon as it catches up with
another group, so structured code reconverges. `s_barrier` parks a group; when every live group is
parked, all of them pass (every wave of every workgroup has then arrived or ended).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from . import rt
from .memory import EmuError, Memory
from .operands import DPP8, DPP8_FI
from .ops import END, build
from .semantics import Uncovered


MUBUF_CACHE_OPS = {0x2B, 0x2C}  # BUFFER_GL0_INV, BUFFER_GL1_INV: no-ops here (the decoder lacks MUBUF)


class BudgetExceeded(EmuError):
    pass


class TimeLimitExceeded(EmuError):
    pass


CLOCK_EVERY = 1024  # instructions between looks at the clock (one look costs about one instruction's 1%)


@dataclass
class Context:
    mem: Memory
    lds: np.ndarray
    lds_size: int
    scratch: np.ndarray
    psize: int
    wave_base: int = 0
    image_base: int = 0  # device address of the code object's image (s_getpc_b64 answers in it)
    code_size: int = 0


class Group:
    """Waves at one PC. mode: the MODE register (round [3:0], denormals [7:4]), one per group."""
    __slots__ = ("s", "v", "scc", "pc", "wave", "wg", "ctx", "waiting", "mode", "ekey", "emask", "efull")

    def __init__(self, s, v, scc, pc, wave, wg, ctx, mode: int = 0xF0):
        self.s, self.v, self.scc, self.pc, self.wave, self.wg, self.ctx = s, v, scc, pc, wave, wg, ctx
        self.waiting = False
        self.mode = mode
        self.ekey = self.emask = None  # exec_mask's cache
        self.efull = False

    def set_mode(self, mode: int) -> None:
        self.mode = mode
        rt.set_mode(mode)

    def take(self, m: np.ndarray) -> "Group":
        return Group(self.s[:, m], self.v[:, m], self.scc[m], self.pc, self.wave[m], self.wg[m], self.ctx, self.mode)

    @staticmethod
    def merge(groups: list["Group"]) -> "Group":
        g0 = groups[0]
        g = Group(np.concatenate([x.s for x in groups], axis=1), np.concatenate([x.v for x in groups], axis=1),
                  np.concatenate([x.scc for x in groups]), g0.pc, np.concatenate([x.wave for x in groups]),
                  np.concatenate([x.wg for x in groups]), g0.ctx, g0.mode)
        g.waiting = g0.waiting
        return g


@dataclass
class Program:
    """Decoded and built instructions of one code object, by address (filled lazily)."""
    code: bytes
    cache: dict[int, tuple] = field(default_factory=dict)

    def at(self, pc: int):
        hit = self.cache.get(pc)
        if hit is not None:
            return hit
        from tinygrad.renderer.amd import decode_inst

        if not 0 <= pc < len(self.code) - 3:
            raise EmuError(f"jump to {pc:#x}, outside the code")
        word = int.from_bytes(self.code[pc: pc + 4], "little")
        if word >> 26 == 0b111000 and (word >> 18) & 0xFF in MUBUF_CACHE_OPS:  # buffer_gl0_inv / gl1_inv
            hit = self.cache[pc] = ((lambda g, nxt=pc + 8: nxt), "buffer cache invalidate")
            return hit
        try:
            inst = decode_inst(self.code[pc: pc + 16])
        except Exception as e:  # noqa: BLE001 - the decoder raises plain errors for unknown words
            raise Uncovered(f"instruction at {pc:#x}: cannot decode ({e})") from None
        inst = _dpp8(inst, self.code[pc: pc + 16])
        try:
            fn = build(inst, pc, inst.size())
        except Uncovered as e:
            raise Uncovered(f"instruction at {pc:#x}: {e}") from None
        hit = (fn, inst)
        self.cache[pc] = hit
        return hit


def _dpp8(inst, data: bytes):
    """The decoder marks DPP8 by src0 == 249 (CDNA's SDWA); on RDNA3 it is DPP8 (DPP8_FI: fetch inactive)."""
    import sys

    cls = type(inst)
    src0 = getattr(inst, "src0", None)
    if cls.__name__ in ("VOP1", "VOP2", "VOPC") and src0 is not None and src0.offset in (DPP8, DPP8_FI):
        variant = getattr(sys.modules[cls.__module__], cls.__name__ + "_DPP8", None)
        if variant is not None:
            out = variant.from_bytes(data)
            out.fi = 1 if src0.offset == DPP8_FI else 0
            return out
    return inst


_PROGRAMS: dict[bytes, Program] = {}


def program(code: bytes) -> Program:
    p = _PROGRAMS.get(code)
    if p is None:
        p = _PROGRAMS[code] = Program(code)
    return p


def run(groups: list[Group], prog: Program, budget: int, deadline: float | None = None) -> int:
    """Run until every wave ends; return the wave-instructions executed. Past `budget` wave-instructions
    BudgetExceeded; past `deadline` (time.monotonic()) TimeLimitExceeded."""
    executed = 0
    steps = 0
    live = list(groups)
    while live:
        ready = [g for g in live if not g.waiting]
        if not ready:
            for g in live:
                g.waiting = False
            ready = live
        pc = min(g.pc for g in ready)
        mode = next(g.mode for g in ready if g.pc == pc)
        same = [g for g in ready if g.pc == pc and g.mode == mode]  # MODE is per group: equal ones merge
        g = Group.merge(same) if len(same) > 1 else same[0]
        live = [x for x in live if not any(x is y for y in same)]
        others = [x.pc for x in live if not x.waiting]
        limit = min(others) if others else 1 << 62
        W = g.s.shape[1]
        at = prog.at
        rt.set_mode(g.mode)
        while True:
            fn, inst = at(g.pc)
            try:
                r = fn(g)
            except Uncovered as e:
                raise Uncovered(f"instruction at {g.pc:#x}: {e}") from None
            except EmuError:
                raise
            except IndexError as e:  # the register files are as large as the kernel descriptor says
                raise EmuError(f"instruction at {g.pc:#x} ({inst!r}) failed: IndexError: {e} (the kernel descriptor "
                               f"allocates {g.v.shape[0]} VGPRs and {g.s.shape[0]} SGPRs: does it use more?)") from e
            except Exception as e:  # noqa: BLE001 - name the instruction that broke
                raise EmuError(f"instruction at {g.pc:#x} ({inst!r}) failed: {type(e).__name__}: {e}") from e
            executed += W
            steps += 1
            if deadline is not None and steps % CLOCK_EVERY == 0 and time.monotonic() > deadline:
                raise TimeLimitExceeded(f"time limit reached after {executed} wave-instructions (at {g.pc:#x}); "
                                        f"a runaway loop?")
            if type(r) is int:
                g.pc = r
                if executed > budget:
                    raise BudgetExceeded(f"instruction budget of {budget} wave-instructions exhausted "
                                         f"(at {g.pc:#x}); a runaway loop?")
                if r >= limit:
                    live.append(g)
                    break
                continue
            if r == END:
                break
            if r[0] == "split":
                _, m, t, f = r
                a, b = g.take(m), g.take(~m)
                a.pc, b.pc = t, f
                live += [a, b]
                break
            if r[0] == "barrier":
                g.pc = r[1]
                g.waiting = True
                live.append(g)
                break
    return executed
