"""Device memory the emulator owns: one byte arena for global allocations, checked on every access.

Addresses handed to kernels are GLOBAL_BASE + arena offset. Allocations are 256-byte aligned with
a gap between them, so an access that runs off one buffer hits no other. Every access is checked
against the allocation table (one searchsorted per instruction, all lanes at once); a bad one raises
MemoryFault naming the instruction address, the lane and the address.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GLOBAL_BASE = 0x7F00_0000_0000
SHARED_APERTURE = 0x1_0000  # high 32 bits of flat addresses that hit LDS
PRIVATE_APERTURE = 0x2_0000  # high 32 bits of flat addresses that hit scratch
ALIGN = 256
GAP = 256
# Host memory one run may take for device memory, LDS and scratch (bytes). Sizes come from code
# objects and launches; past this a run is refused instead of exhausting the host.
MEMORY_BUDGET = 4 << 30


class EmuError(Exception):
    """A run stopped: uncovered instruction, memory fault, budget, bad launch."""


class MemoryBudgetExceeded(EmuError):
    pass


class MemoryFault(EmuError):
    def __init__(self, space: str, pc: int, lane: int, wave: int, address: int, size: int, what: str):
        self.space, self.pc, self.lane, self.wave, self.address = space, pc, lane, wave, address
        super().__init__(f"out-of-bounds {space} {what} of {size} bytes at address {address:#x} "
                         f"(instruction at {pc:#x}, wave {wave}, lane {lane})")


@dataclass
class Allocation:
    name: str
    start: int  # device address
    size: int


class Memory:
    def __init__(self, budget: int = MEMORY_BUDGET) -> None:
        self.arena = np.zeros(0, np.uint8)
        self.allocs: list[Allocation] = []
        self._starts = np.zeros(0, np.uint64)
        self._ends = np.zeros(0, np.uint64)
        self.used = 0
        self.budget = budget
        self.reserved = 0  # host arrays beside the arena (LDS, scratch) that count against the budget

    def reserve(self, nbytes: int, what: str) -> None:
        """Count nbytes of host memory for `what` against the budget, or MemoryBudgetExceeded."""
        if self.used + self.reserved + nbytes > self.budget:
            raise MemoryBudgetExceeded(f"{what} needs {nbytes} bytes; with {self.used + self.reserved} in use "
                                       f"that is past the emulator's memory budget of {self.budget} bytes")
        self.reserved += nbytes

    def release(self, nbytes: int) -> None:
        self.reserved -= nbytes

    def alloc(self, size: int, name: str = "", data: bytes | np.ndarray | None = None) -> int:
        off = self.used
        size = max(int(size), 1)
        used = off + (size + ALIGN - 1) // ALIGN * ALIGN + GAP
        if used + self.reserved > self.budget:
            raise MemoryBudgetExceeded(f"allocating {size} bytes for {name or 'a buffer'} goes past the emulator's "
                                       f"memory budget of {self.budget} bytes ({off + self.reserved} in use)")
        self.used = used
        if self.used > self.arena.size:
            grown = np.zeros(max(self.used, min(self.arena.size * 2, self.budget)), np.uint8)
            grown[: self.arena.size] = self.arena
            self.arena = grown
        addr = GLOBAL_BASE + off
        self.allocs.append(Allocation(name, addr, size))
        self._starts = np.array([a.start for a in self.allocs], np.uint64)
        self._ends = np.array([a.start + a.size for a in self.allocs], np.uint64)
        if data is not None:
            self.write(addr, data)
        return addr

    def write(self, addr: int, data: bytes | np.ndarray) -> None:
        raw = np.frombuffer(bytes(data), np.uint8) if not isinstance(data, np.ndarray) else data.reshape(-1).view(np.uint8)
        off = addr - GLOBAL_BASE
        self.arena[off: off + raw.size] = raw

    def read(self, addr: int, size: int) -> bytes:
        off = addr - GLOBAL_BASE
        return self.arena[off: off + size].tobytes()

    def check(self, addr: np.ndarray, size: int, pc: int, where, what: str) -> np.ndarray:
        """Arena offsets of the addresses (uint64 array), or MemoryFault for the first bad one.

        where(k) -> (wave, lane) of the k-th address, for the report."""
        a = addr.astype(np.uint64, copy=False)
        if not len(self.allocs) or a.size == 0:
            if a.size:
                w, ln = where(0)
                raise MemoryFault("global", pc, ln, w, int(a[0]), size, what)
            return a.astype(np.int64)
        lo, hi = a.min(), a.max()
        i = int(np.searchsorted(self._starts, lo, side="right")) - 1
        if not (i >= 0 and hi + np.uint64(size) <= self._ends[i]):  # not all in one allocation: check each
            j = np.searchsorted(self._starts, a, side="right").astype(np.int64) - 1
            jc = np.clip(j, 0, len(self.allocs) - 1)
            ok = (j >= 0) & (a + np.uint64(size) <= self._ends[jc])
            if not ok.all():
                k = int(np.argmin(ok))
                w, ln = where(k)
                raise MemoryFault("global", pc, ln, w, int(a[k]), size, what)
        return (a - np.uint64(GLOBAL_BASE)).astype(np.int64)

    def buffer(self, addr: int) -> Allocation:
        for a in self.allocs:
            if a.start == addr:
                return a
        raise KeyError(hex(addr))


def gather(arena: np.ndarray, off: np.ndarray, nbytes: int) -> np.ndarray:
    """Read nbytes at each offset; returns uint32 (N, max(1, nbytes // 4)) for >= 4 bytes, else uint32 (N,)."""
    if nbytes >= 4:
        n = nbytes // 4
        if not (off & 3).any():
            words = arena.view(np.uint32)
            if n == 1:
                return words[off >> 2][:, None]
            if not (off % nbytes).any():  # naturally aligned: one row per lane
                rows = words[: words.size // n * n].reshape(-1, n)
                return rows[off // nbytes]
            idx = (off >> 2)[:, None] + np.arange(n)
            return words[idx]
        idx = off[:, None] + np.arange(nbytes)
        return arena[idx].copy().view(np.uint32).reshape(-1, n)
    idx = off[:, None] + np.arange(nbytes)
    b = arena[idx].astype(np.uint32)
    out = b[:, 0]
    for k in range(1, nbytes):
        out = out | (b[:, k] << np.uint32(8 * k))
    return out


def scatter(arena: np.ndarray, off: np.ndarray, values: np.ndarray, nbytes: int) -> None:
    """Write values (uint32 (N, nbytes // 4) or (N,) for < 4 bytes) at each offset; later lanes win."""
    if nbytes >= 4:
        n = nbytes // 4
        vals = values.reshape(-1, n).astype(np.uint32, copy=False)
        if not (off & 3).any():
            words = arena.view(np.uint32)
            if n == 1:
                words[off >> 2] = vals[:, 0]
            elif not (off % nbytes).any():
                words[: words.size // n * n].reshape(-1, n)[off // nbytes] = vals
            else:
                words[(off >> 2)[:, None] + np.arange(n)] = vals
            return
        arena[off[:, None] + np.arange(nbytes)] = np.ascontiguousarray(vals).view(np.uint8).reshape(-1, nbytes)
        return
    v = values.astype(np.uint32)
    for k in range(nbytes):
        arena[off + k] = ((v >> np.uint32(8 * k)) & np.uint32(0xFF)).astype(np.uint8)
