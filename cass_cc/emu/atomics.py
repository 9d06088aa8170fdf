"""Read-modify-write atomics over many lanes at once, with the results of one-lane-at-a-time order.

Lanes act in order (waves in group order, lanes 0..31 within a wave): each sees what the lanes
before it left, and gets back the value it saw. Lanes are sorted by address (stably, so order is
kept within an address); an address's lanes form a segment. Segments are run side by side, one
rank at a time (the first lane of every segment, then the second, ...), and a long segment (many
lanes on one address, e.g. a global counter) on its own: with the ufunc's accumulate for add, min,
max, and, or, xor (sequential, so float sums round as one lane after another would), or by jumping
from one successful compare to the next for compare-and-swap.
"""
from __future__ import annotations

import numpy as np

ACCUMULATE = {"ADD": np.add, "MIN": np.minimum, "MAX": np.maximum, "AND": np.bitwise_and, "OR": np.bitwise_or,
              "XOR": np.bitwise_xor}
LONG = 8  # segments at least this long are run on their own


def step(op: str, old, new, cmp):
    """The value one lane leaves (vectorised over segments)."""
    if op in ACCUMULATE:
        return ACCUMULATE[op](old, new)
    if op == "SUB":
        return old - new
    if op in ("SWAP", "STOREXCHG"):
        return new
    if op in ("CMPSWAP", "CMPSTORE"):
        return np.where(old == cmp, new, old)
    if op == "CSUB":
        return np.where(old >= new, old - new, np.zeros_like(old))
    if op == "INC":
        return np.where(old >= new, np.zeros_like(old), old + old.dtype.type(1))
    if op == "DEC":
        return np.where((old == 0) | (old > new), new, old - old.dtype.type(1))
    raise KeyError(op)


def ordered_rmw(view: np.ndarray, idx: np.ndarray, new: np.ndarray, cmp: np.ndarray | None, op: str) -> np.ndarray:
    """Apply op at view[idx[k]] for k in order; return the value each lane saw."""
    n = idx.size
    olds = np.empty(n, view.dtype)
    if n == 0:
        return olds
    if cmp is None:
        cmp = new
    order = np.argsort(idx, kind="stable")
    sidx = idx[order]
    starts = np.flatnonzero(np.concatenate(([True], sidx[1:] != sidx[:-1])))
    if starts.size == n:  # every lane on its own address
        old = view[idx]
        olds[:] = old
        view[idx] = step(op, old, new, cmp)
        return olds
    lengths = np.diff(np.append(starts, n))
    with np.errstate(all="ignore"):
        for s in starts[lengths >= LONG]:
            ln = lengths[np.searchsorted(starts, s)]
            lanes = order[s: s + ln]
            olds[lanes] = _one_address(view, int(sidx[s]), new[lanes], cmp[lanes], op)
        short = lengths < LONG
        if short.any():
            st, ls = starts[short], lengths[short]
            for r in range(int(ls.max())):
                live = ls > r
                lanes = order[st[live] + r]
                at = idx[lanes]
                old = view[at]
                olds[lanes] = old
                view[at] = step(op, old, new[lanes], cmp[lanes])
    return olds


def _one_address(view: np.ndarray, at: int, new: np.ndarray, cmp: np.ndarray, op: str) -> np.ndarray:
    """The lanes of one address, in order: what each saw."""
    first = view[at]
    if op in ACCUMULATE:
        acc = ACCUMULATE[op].accumulate(np.concatenate((np.asarray([first], view.dtype), new.astype(view.dtype))))
        view[at] = acc[-1]
        return acc[:-1]
    if op in ("SWAP", "STOREXCHG"):
        view[at] = new[-1]
        return np.concatenate((np.asarray([first], view.dtype), new[:-1]))
    if op in ("CMPSWAP", "CMPSTORE"):
        seen = np.empty(new.size, view.dtype)
        cur, pos = first, 0
        while pos < new.size:
            hits = np.flatnonzero(cmp[pos:] == cur)
            k = pos + int(hits[0]) if hits.size else new.size
            seen[pos: k + 1] = cur  # the failing lanes up to the hit, and the hit itself, saw cur
            if k < new.size:
                cur = new[k]
            pos = k + 1
        view[at] = cur
        return seen
    seen = np.empty(new.size, view.dtype)
    cur = np.asarray([first], view.dtype)
    for k in range(new.size):
        seen[k] = cur[0]
        cur = step(op, cur, new[k: k + 1], cmp[k: k + 1])
    view[at] = cur[0]
    return seen
