"""A gfx1100 (RDNA3, wave32) emulator: runs AMD code objects on the CPU with NumPy.

    from cass_cc.emu import launch
    out_a, out_b = launch("k.co", "vadd", grid=4, block=256, args=[a, b, c, n])[...]

See README.md in this folder for how it works and how to triage a failure.
"""
from __future__ import annotations

from .dispatch import Result, launch
from .loader import CodeObject, LoadError, load
from .memory import EmuError, MemoryFault
from .semantics import Uncovered

__all__ = ["launch", "load", "Result", "CodeObject", "EmuError", "MemoryFault", "Uncovered", "LoadError"]
