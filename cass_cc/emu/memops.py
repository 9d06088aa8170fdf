"""Memory instructions: SMEM, GLOBAL/FLAT/SCRATCH (loads, stores, atomics) and DS (LDS, permutes).

Every access goes through a bounds check first (memory.Memory.check for global memory, the
workgroup's LDS size for DS, the lane's private size for scratch); nothing is read or written
when any active lane is out of bounds.
"""
from __future__ import annotations

import numpy as np

from .memory import PRIVATE_APERTURE, SHARED_APERTURE, MemoryFault, gather, scatter
from .atomics import ordered_rmw
from .operands import M0, NULL, VGPR0, exec_mask
from .semantics import Uncovered

# a FLAT/GLOBAL/SCRATCH saddr of NULL means no scalar base; 125 (M0 on gfx11, NULL's code before)
# is read that way too
SADDR_OFF = (NULL, M0)
SIZES = {"U8": 1, "I8": 1, "U16": 2, "I16": 2, "B8": 1, "B16": 2, "B32": 4, "B64": 8, "B96": 12, "B128": 16}


def _sext13(x: int) -> int:
    return (x ^ 0x1000) - 0x1000


# ---- SMEM --------------------------------------------------------------------------------------

def smem(inst, pc: int, nxt: int):
    name = inst.op_name
    if name in ("S_DCACHE_INV", "S_GL1_INV", "S_ICACHE_INV"):
        return lambda g: nxt
    if not name.startswith("S_LOAD_B"):
        raise Uncovered(f"{name}: not covered")
    n = int(name[len("S_LOAD_B"):]) // 32
    base = inst.sbase.offset
    off = (inst.offset ^ 0x100000) - 0x100000
    soff = inst.soffset.offset
    sdata = inst.sdata.offset

    def run(g):
        W = g.s.shape[1]
        addr = g.s[base].astype(np.uint64) | (g.s[base + 1].astype(np.uint64) << np.uint64(32))
        addr = addr + np.uint64(off & 0xFFFFFFFFFFFFFFFF) if off >= 0 else addr - np.uint64(-off)
        if soff != NULL:
            addr = addr + g.s[soff].astype(np.uint64)
        addr = addr & ~np.uint64(3)
        o = g.ctx.mem.check(addr, 4 * n, pc, lambda k: (int(g.wave[k]), 0), "scalar load")
        vals = gather(g.ctx.mem.arena, o, 4 * n)
        g.s[sdata: sdata + n] = vals.T
        return nxt
    return run


# ---- GLOBAL / FLAT / SCRATCH -------------------------------------------------------------------

def _kind(name: str) -> tuple[str, str]:
    """(LOAD|STORE|ATOMIC, rest) from GLOBAL_LOAD_B32 and friends."""
    rest = name.split("_", 1)[1]
    verb, _, tail = rest.partition("_")
    return verb, tail


def _vaddr(inst, base: str, pc: int):
    saddr = inst.saddr.offset
    off = _sext13(inst.offset) if base != "FLAT" else inst.offset & 0xFFF
    addr = inst.addr.offset - VGPR0
    if base == "SCRATCH":
        sve = bool(getattr(inst, "sve", 0))

        def scratch_addr(g):
            a = np.full(g.v[0].shape, off, np.int64)
            if saddr not in SADDR_OFF:
                a = a + g.s[saddr].astype(np.int64)[:, None]
            if sve:
                a = a + g.v[addr].astype(np.int64)
            return a
        return scratch_addr
    if saddr in SADDR_OFF:
        def flat_addr(g):
            a = g.v[addr].astype(np.uint64) | (g.v[addr + 1].astype(np.uint64) << np.uint64(32))
            return a + np.uint64(off) if off >= 0 else a - np.uint64(-off)
        return flat_addr

    def saddr_addr(g):
        s = g.s[saddr].astype(np.uint64) | (g.s[saddr + 1].astype(np.uint64) << np.uint64(32))
        a = s[:, None] + g.v[addr].astype(np.uint64)
        return a + np.uint64(off) if off >= 0 else a - np.uint64(-off)
    return saddr_addr


class _Space:
    """Where a set of lane addresses lands: global arena, LDS or scratch, as flat arena offsets."""

    @staticmethod
    def resolve(g, base: str, a: np.ndarray, mask: np.ndarray, nbytes: int, pc: int, what: str):
        """-> list of (arena, offsets, lane selector) for the active lanes."""
        W = a.shape[0]
        if base == "GLOBAL" and mask.all():
            aa = a.reshape(-1)
            where = lambda k: (int(g.wave[k // 32]), k % 32)  # noqa: E731
            return [(g.ctx.mem.arena, g.ctx.mem.check(aa, nbytes, pc, where, what), FULL)]
        wi, li = np.nonzero(mask)
        aa = a[wi, li]
        if base == "SCRATCH":
            return [(g.ctx.scratch, _scratch_off(g, aa, wi, li, nbytes, pc, what), (wi, li))]
        if base == "FLAT":
            hi = (aa >> np.uint64(32)).astype(np.int64)
            parts = []
            for sel, space in ((hi == SHARED_APERTURE, "lds"), (hi == PRIVATE_APERTURE, "scratch"),
                               ((hi != SHARED_APERTURE) & (hi != PRIVATE_APERTURE), "global")):
                if not sel.any():
                    continue
                w2, l2, a2 = wi[sel], li[sel], aa[sel]
                low = (a2 & np.uint64(0xFFFFFFFF)).astype(np.int64)
                if space == "lds":
                    parts.append((g.ctx.lds, _lds_off(g, low, w2, l2, nbytes, pc, what), (w2, l2)))
                elif space == "scratch":
                    parts.append((g.ctx.scratch, _scratch_off(g, low, w2, l2, nbytes, pc, what), (w2, l2)))
                else:
                    parts.append((g.ctx.mem.arena, g.ctx.mem.check(a2, nbytes, pc, _where(g, w2, l2), what), (w2, l2)))
            return parts
        del W
        return [(g.ctx.mem.arena, g.ctx.mem.check(aa, nbytes, pc, _where(g, wi, li), what), (wi, li))]


FULL = "all lanes"


def _where(g, wi, li):
    return lambda k: (int(g.wave[wi[k]]), int(li[k]))


def get(arr: np.ndarray, sel):
    return arr.reshape(-1) if sel is FULL else arr[sel]


def put(arr: np.ndarray, sel, vals) -> None:
    if sel is FULL:
        arr[...] = vals.reshape(arr.shape)
    else:
        arr[sel] = vals


def _scratch_off(g, a, wi, li, nbytes, pc, what):
    size = g.ctx.psize
    a = np.asarray(a).astype(np.int64)
    bad = (a < 0) | (a + nbytes > size)
    if bad.any():
        k = int(np.argmax(bad))
        raise MemoryFault("scratch", pc, int(li[k]), int(g.wave[wi[k]]), int(a[k]), nbytes, what)
    return ((g.wave[wi].astype(np.int64) - g.ctx.wave_base) * 32 + li) * size + a


def _lds_off(g, a, wi, li, nbytes, pc, what):
    size = g.ctx.lds_size
    a = np.asarray(a).astype(np.int64)
    bad = (a < 0) | (a + nbytes > size)
    if bad.any():
        k = int(np.argmax(bad))
        raise MemoryFault("LDS", pc, int(li[k]), int(g.wave[wi[k]]), int(a[k]), nbytes, what)
    return g.wg[wi].astype(np.int64) * size + a


def _lds_full(g, a, wg_base, nbytes, pc, what):
    """LDS offsets for all lanes of all waves (a: (W, 32) addresses), checked with one min/max."""
    if a.min() < 0 or a.max() + nbytes > g.ctx.lds_size:
        W = a.shape[0]
        return _lds_off(g, a.reshape(-1), np.repeat(np.arange(W), 32), np.tile(np.arange(32), W), nbytes, pc, what)
    return (a + wg_base).reshape(-1)


def _load_value(raw: np.ndarray, tail: str) -> np.ndarray:
    if tail.startswith("I8"):
        return raw.astype(np.uint8).view(np.int8).astype(np.int32).view(np.uint32)
    if tail.startswith("I16"):
        return raw.astype(np.uint16).view(np.int16).astype(np.int32).view(np.uint32)
    return raw


def vmem(inst, base: str, pc: int, nxt: int):
    name = inst.op_name
    verb, tail = _kind(name)
    addr_of = _vaddr(inst, base, pc)
    if verb == "LOAD":
        d16 = tail.startswith("D16")
        t = tail.split("_")[-1]
        hi = "_HI_" in tail
        if t not in SIZES or "LDS" in tail or "ADDTID" in tail:
            raise Uncovered(f"{name}: not covered")
        nbytes = SIZES[t]
        vd = inst.vdst.offset - VGPR0

        def load(g):
            mask = exec_mask(g)
            if not mask.any():
                return nxt
            a = addr_of(g)
            for arena, off, sel in _Space.resolve(g, base, a, mask, nbytes, pc, "load"):
                vals = gather(arena, off, nbytes)
                if nbytes < 4:
                    v = _load_value(vals, tail.replace("D16_", "").replace("HI_", ""))
                    if d16:
                        old = get(g.v[vd], sel)
                        v = (old & np.uint32(0xFFFF)) | (v << np.uint32(16)) if hi else (old & np.uint32(0xFFFF0000)) | (v & np.uint32(0xFFFF))
                    put(g.v[vd], sel, v)
                elif sel is FULL:
                    g.v[vd: vd + nbytes // 4] = vals.T.reshape(nbytes // 4, *g.v.shape[1:])
                else:
                    for k in range(nbytes // 4):
                        put(g.v[vd + k], sel, vals[:, k])
            return nxt
        return load
    if verb == "STORE":
        t = tail.split("_")[-1]
        hi = "_HI_" in tail
        if t not in SIZES or "ADDTID" in tail:
            raise Uncovered(f"{name}: not covered")
        nbytes = SIZES[t]
        vs = inst.data.offset - VGPR0

        def store(g):
            mask = exec_mask(g)
            if not mask.any():
                return nxt
            a = addr_of(g)
            parts = _Space.resolve(g, base, a, mask, nbytes, pc, "store")
            for arena, off, sel in parts:
                if nbytes < 4:
                    v = get(g.v[vs], sel)
                    scatter(arena, off, (v >> np.uint32(16)) if hi else v, nbytes)
                else:
                    vals = np.stack([get(g.v[vs + k], sel) for k in range(nbytes // 4)], axis=1)
                    scatter(arena, off, vals, nbytes)
            return nxt
        return store
    if verb == "ATOMIC":
        return _atomic(inst, base, tail, name, addr_of, pc, nxt)
    raise Uncovered(f"{name}: not covered")


def _atomic_fn(opname: str, t: str):
    """(old, data, data2) -> new for one atomic, on NumPy scalars of the right type."""
    return {
        "ADD": lambda o, d, c: o + d, "SUB": lambda o, d, c: o - d, "CSUB": lambda o, d, c: o - d if o >= d else type(o)(0),
        "MIN": lambda o, d, c: min(o, d), "MAX": lambda o, d, c: max(o, d),
        "AND": lambda o, d, c: o & d, "OR": lambda o, d, c: o | d, "XOR": lambda o, d, c: o ^ d,
        "SWAP": lambda o, d, c: d, "STOREXCHG": lambda o, d, c: d,
        "CMPSWAP": lambda o, d, c: d if o == c else o, "CMPSTORE": lambda o, d, c: d if o == c else o,
        "INC": lambda o, d, c: type(o)(0) if o >= d else o + type(o)(1),
        "DEC": lambda o, d, c: d if (o == 0 or o > d) else o - type(o)(1),
    }.get(opname)


DTYPES = {"U32": np.uint32, "I32": np.int32, "B32": np.uint32, "F32": np.float32,
          "U64": np.uint64, "I64": np.int64, "B64": np.uint64, "F64": np.float64}


def _atomic(inst, base: str, tail: str, name: str, addr_of, pc: int, nxt: int):
    opname, _, t = tail.rpartition("_")
    fn = _atomic_fn(opname, t)
    if fn is None or t not in DTYPES:
        raise Uncovered(f"{name}: not covered")
    dt = np.dtype(DTYPES[t])
    nbytes = dt.itemsize
    words = nbytes // 4
    cmp = opname in ("CMPSWAP",)
    vs = inst.data.offset - VGPR0
    vd = inst.vdst.offset - VGPR0
    ret = bool(inst.glc)
    return _atomic_run(base, opname, dt, nbytes, words, cmp, vs, vd, ret, addr_of, pc, nxt, "atomic")


def _atomic_run(base, opname, dt, nbytes, words, cmp, vs, vd, ret, addr_of, pc, nxt, what):
    def run(g):
        mask = exec_mask(g)
        if not mask.any():
            return nxt
        a = addr_of(g)
        for arena, off, sel in _Space.resolve(g, base, a, mask, nbytes, pc, what):
            data = np.stack([get(g.v[vs + k], sel) for k in range(words)], axis=1).copy().view(dt).reshape(-1)
            data2 = np.stack([get(g.v[vs + words + k], sel) for k in range(words)], axis=1).copy().view(dt).reshape(-1) if cmp else data
            view = arena.view(dt) if not (off % nbytes).any() else None
            if view is None:
                raise MemoryFault("global", pc, 0, int(g.wave[0]), int(off[0]), nbytes, "misaligned atomic")
            olds = ordered_rmw(view, off // nbytes, data, data2 if cmp else None, opname)
            if ret:
                raw = olds.view(np.uint32).reshape(-1, words)
                for k in range(words):
                    put(g.v[vd + k], sel, raw[:, k])
        return nxt
    return run


# ---- DS ----------------------------------------------------------------------------------------

def ds(inst, pc: int, nxt: int):
    name = inst.op_name
    addr_r = inst.addr.offset - VGPR0
    d0, d1, vd = inst.data0.offset - VGPR0, inst.data1.offset - VGPR0, inst.vdst.offset - VGPR0
    off0, off1 = inst.offset0, inst.offset1
    off = off0 | (off1 << 8)
    if name in ("DS_BPERMUTE_B32", "DS_PERMUTE_B32"):
        back = name == "DS_BPERMUTE_B32"

        def permute(g):
            W = g.s.shape[1]
            mask = exec_mask(g)
            lane = ((g.v[addr_r].astype(np.int64) + off) >> 2) & 31
            data = g.v[d0]
            rows = np.arange(W)[:, None]
            if back:
                vals = np.where(mask[rows, lane], data[rows, lane], 0).astype(np.uint32)
                np.copyto(g.v[vd], vals, where=mask)
            else:
                out = np.zeros((W, 32), np.uint32)
                wi, li = np.nonzero(mask)
                out[wi, lane[wi, li]] = data[wi, li]
                np.copyto(g.v[vd], out, where=mask)
            return nxt
        return permute
    if name == "DS_SWIZZLE_B32":  # its one source is the ADDR field (no DATA0: tinygrad's operand table)
        return _swizzle(off, addr_r, vd, nxt)
    if name.startswith(("DS_LOAD", "DS_STORE")) and "ADDTID" not in name and "XCHG" not in name:
        is_load = name.startswith("DS_LOAD")
        two = "2ADDR" in name
        t = name.split("_")[-1] if not name.endswith("_HI") else name.split("_")[-2]
        if "D16" in name:
            t = name.replace("_HI", "").split("_")[2]
        nbytes = SIZES.get(t)
        if nbytes is None:
            raise Uncovered(f"{name}: not covered")
        stride = (64 if "STRIDE64" in name else 1) * nbytes
        hi = name.endswith("_HI")
        d16 = "D16" in name
        return _ds_access(is_load, two, nbytes, stride, off, off0, off1, addr_r, d0, d1, vd, hi, d16, name, pc, nxt)
    # atomics
    parts = name.split("_")
    rtn = "RTN" in parts
    t = parts[-1]
    opname = "_".join(p for p in parts[1:-1] if p != "RTN")
    fn = _atomic_fn(opname, t)
    if fn is None or t not in DTYPES:
        raise Uncovered(f"{name}: not covered")
    dt = np.dtype(DTYPES[t])
    nbytes = dt.itemsize
    words = nbytes // 4
    cmp = opname == "CMPSTORE"

    def addr_of(g):
        return g.v[addr_r].astype(np.int64) + off

    def run(g):
        mask = exec_mask(g)
        if not mask.any():
            return nxt
        wi, li = np.nonzero(mask)
        o = _lds_off(g, addr_of(g)[wi, li], wi, li, nbytes, pc, "atomic")
        view = g.ctx.lds.view(dt)
        data = np.stack([g.v[d0 + k][wi, li] for k in range(words)], axis=1).copy().view(dt).reshape(-1)
        data2 = np.stack([g.v[d1 + k][wi, li] for k in range(words)], axis=1).copy().view(dt).reshape(-1) if cmp else data
        olds = ordered_rmw(view, o // nbytes, data2 if cmp else data, data if cmp else None, opname)
        if rtn:
            raw = olds.view(np.uint32).reshape(-1, words)
            for k in range(words):
                g.v[vd + k][wi, li] = raw[:, k]
        return nxt
    return run


def _ds_access(is_load, two, nbytes, stride, off, off0, off1, addr_r, d0, d1, vd, hi, d16, name, pc, nxt):
    offsets = [off0 * stride, off1 * stride] if two else [off]
    words = max(nbytes // 4, 1)
    signed = name.endswith(("_I8", "_I16")) or "_I8_" in name or "_I16_" in name

    def run(g):
        mask = exec_mask(g)
        if not mask.any():
            return nxt
        full = mask.all()
        if full:
            sel = FULL
            base = g.v[addr_r].astype(np.int64)
            wg_base = g.wg.astype(np.int64)[:, None] * g.ctx.lds_size
        else:
            wi, li = np.nonzero(mask)
            sel = (wi, li)
            base = get(g.v[addr_r], sel).astype(np.int64)
        lds = g.ctx.lds
        for k, o in enumerate(offsets):
            if full:
                # the address is 32-bit: vaddr + offset wraps (LLVM folds a negative base into the offset)
                loc = _lds_full(g, (base + o) & 0xFFFFFFFF if o else base, wg_base, nbytes, pc, "load" if is_load else "store")
            else:
                loc = _lds_off(g, (base + o) & 0xFFFFFFFF, wi, li, nbytes, pc, "load" if is_load else "store")
            if is_load:
                vals = gather(lds, loc, nbytes)
                if nbytes < 4:
                    v = vals
                    if signed:
                        v = _load_value(v, "I8" if nbytes == 1 else "I16")
                    if d16:
                        old = get(g.v[vd], sel)
                        v = (old & np.uint32(0xFFFF)) | (v << np.uint32(16)) if hi else (old & np.uint32(0xFFFF0000)) | (v & np.uint32(0xFFFF))
                    put(g.v[vd], sel, v)
                elif sel is FULL:
                    r = vd + k * words
                    g.v[r: r + words] = vals.T.reshape(words, *g.v.shape[1:])
                else:
                    for j in range(words):
                        put(g.v[vd + k * words + j], sel, vals[:, j])
            else:
                src = d0 if k == 0 else d1
                if nbytes < 4:
                    v = get(g.v[src], sel)
                    scatter(lds, loc, (v >> np.uint32(16)) if hi else v, nbytes)
                else:
                    vals = np.stack([get(g.v[src + j], sel) for j in range(words)], axis=1)
                    scatter(lds, loc, vals, nbytes)
        return nxt
    return run


def _swizzle(off: int, src_r: int, vd: int, nxt: int):
    lane = np.arange(32)
    if off & 0x8000:  # quad permute mode... (bit 15 set: QDMode)
        sel = [(off >> (2 * k)) & 3 for k in range(4)]
        src = (lane & ~3) | np.array([sel[ln & 3] for ln in range(32)])
    else:
        and_mask, or_mask, xor_mask = off & 0x1F, (off >> 5) & 0x1F, (off >> 10) & 0x1F
        src = (((lane & 0x1F) & and_mask) | or_mask) ^ xor_mask
        src = (lane & ~0x1F) | src

    def run(g):
        mask = exec_mask(g)
        x = g.v[src_r][:, src]
        vals = np.where(mask[:, src], x, 0).astype(np.uint32)
        np.copyto(g.v[vd], vals, where=mask)
        return nxt
    return run
