"""Turn one decoded instruction into a closure `run(g) -> next` over a wave group.

`next` is the next PC (int), END, or a tuple: ("split", take_mask, pc_if, pc_else) for a scalar
branch the waves of a group disagree on, ("barrier", pc) for s_barrier.
Built once per instruction address and cached by the executor.
"""
from __future__ import annotations

import numpy as np

from . import memops, rt
from .memory import PRIVATE_APERTURE, SHARED_APERTURE, EmuError
from .operands import (EXEC_LO, FLOAT_CODES, LANE, M0, NULL, NUM_SREGS, VCC_LO, VDST_HI16, VGPR0, const_bits, exec_mask,
                       pack_lanes, reader, to_bits, write_sgpr, write_vgpr)
from .semantics import Uncovered, semantics

END = "end"
FLOAT_FMTS = {"FMT_NUM_F16": 16, "FMT_NUM_F32": 32, "FMT_NUM_F64": 64, "FMT_NUM_BF16": 16}
LANES2 = LANE[None, :]


def _operand_info(op) -> dict[str, tuple[int, bool, bool]]:
    """field -> (bits, is_float, is_signed) from tinygrad's operand table."""
    from tinygrad.runtime.autogen.amd.rdna3.operands import OPERANDS

    info = {}
    for name, (fmt, bits, _kind) in OPERANDS.get(op, {}).items():
        info[name] = (bits, fmt.name in FLOAT_FMTS, "_I" in fmt.name)
    return info


def build(inst, pc: int, size: int):
    cls = type(inst).__name__
    base = cls.split("_")[0]
    nxt = pc + size
    if base == "SOPP":
        return _sopp(inst, pc, nxt)
    if base in ("SOP1", "SOP2", "SOPC", "SOPK"):
        return _salu(inst, base, pc, nxt)
    if base == "SMEM":
        return memops.smem(inst, pc, nxt)
    if base in ("GLOBAL", "FLAT", "SCRATCH"):
        return memops.vmem(inst, base, pc, nxt)
    if base == "DS":
        return memops.ds(inst, pc, nxt)
    if base == "VOPD":
        return _vopd(inst, pc, nxt)
    if base in ("VOP1", "VOP2", "VOP3", "VOPC", "VOP3SD", "VOP3P"):
        return _valu(inst, cls, pc, nxt)
    raise Uncovered(f"{getattr(inst, 'op_name', cls)}: {cls} instructions are not covered")


# ---- scalar ------------------------------------------------------------------------------------

def _sopp(inst, pc: int, nxt: int):
    name = inst.op_name
    simm = inst.simm16
    target = nxt + ((simm ^ 0x8000) - 0x8000) * 4
    if name == "S_ENDPGM" or name == "S_CODE_END":
        return lambda g: END
    if name == "S_BRANCH":
        return lambda g: target
    conds = {
        "S_CBRANCH_SCC0": lambda g: g.scc == 0, "S_CBRANCH_SCC1": lambda g: g.scc != 0,
        "S_CBRANCH_VCCZ": lambda g: g.s[VCC_LO] == 0, "S_CBRANCH_VCCNZ": lambda g: g.s[VCC_LO] != 0,
        "S_CBRANCH_EXECZ": lambda g: g.s[EXEC_LO] == 0, "S_CBRANCH_EXECNZ": lambda g: g.s[EXEC_LO] != 0,
    }
    if name in conds:
        test = conds[name]

        def branch(g):
            c = test(g)
            if c.all():
                return target
            if not c.any():
                return nxt
            return ("split", c, target, nxt)
        return branch
    if name == "S_BARRIER":
        return lambda g: ("barrier", nxt)
    if name in ("S_NOP", "S_WAITCNT", "S_WAITCNT_DEPCTR", "S_DELAY_ALU", "S_CLAUSE", "S_SENDMSG", "S_SENDMSGHALT",
                "S_SET_INST_PREFETCH_DISTANCE", "S_SETPRIO", "S_SLEEP", "S_ICACHE_INV", "S_WAITCNT_VSCNT",
                "S_WAITCNT_VMCNT", "S_WAITCNT_EXPCNT", "S_WAITCNT_LGKMCNT", "S_TTRACEDATA", "S_WAIT_IDLE",
                "S_WAIT_EVENT", "S_SETKILL", "S_VERSION"):
        return lambda g: nxt
    if name == "S_ROUND_MODE":  # MODE[3:0]
        return lambda g: (g.set_mode((g.mode & ~0xF) | (simm & 0xF)), nxt)[1]
    if name == "S_DENORM_MODE":  # MODE[7:4]
        return lambda g: (g.set_mode((g.mode & ~0xF0) | ((simm & 0xF) << 4)), nxt)[1]
    raise Uncovered(f"{name}: not covered")


def _salu(inst, base: str, pc: int, nxt: int):
    op = inst.op
    name = inst.op_name
    info = _operand_info(op)
    lit = getattr(inst, "literal", None)
    if base == "SOPK":
        if name in ("S_WAITCNT_VSCNT", "S_WAITCNT_VMCNT", "S_WAITCNT_EXPCNT", "S_WAITCNT_LGKMCNT", "S_VERSION"):
            return lambda g: nxt
        if name == "S_CALL_B64":
            raise Uncovered(f"{name}: calls are not covered")
    if name == "S_GETPC_B64":
        d = inst.sdst.offset

        def getpc(g):
            write_sgpr(g, d, np.full(g.s.shape[1], g.ctx.image_base + nxt, np.uint64), 64)
            return nxt
        return getpc
    if name in ("S_SETPC_B64", "S_SWAPPC_B64"):
        return _jump(inst, name, pc, nxt)
    if name in ("S_SETREG_B32", "S_SETREG_IMM32_B32", "S_GETREG_B32"):
        return _hwreg(inst, name, pc, nxt)
    if name == "S_RFE_B64":
        raise Uncovered(f"{name}: traps are not covered")
    fn = semantics(op)
    dbits = info.get("sdst", (32, False, False))[0]
    srcs = {}
    if base in ("SOP1", "SOP2", "SOPC"):
        srcs["S0"] = reader(inst.ssrc0.offset, info.get("ssrc0", (32,))[0], False, info.get("ssrc0", (0, False))[1], lit, pc=pc)
    if base in ("SOP2", "SOPC"):
        srcs["S1"] = reader(inst.ssrc1.offset, info.get("ssrc1", (32,))[0], False, info.get("ssrc1", (0, False))[1], lit, pc=pc)
    dst = inst.sdst.offset if base != "SOPC" else None
    if dst is not None and dst < NUM_SREGS:
        srcs["D0"] = reader(dst, dbits, False, pc=pc)
    if base == "SOPK":
        srcs["S0"] = srcs.get("D0") or (lambda g: np.uint32(0))
    simm16 = np.uint32(inst.simm16) if base == "SOPK" else None
    simm32 = np.uint32(lit) if lit is not None else None
    uses_exec = "EXEC" in name or "SAVEEXEC" in name or "WREXEC" in name

    def run(g):
        kw = {k: f(g) for k, f in srcs.items()}
        out = fn(SCC=g.scc, SIMM16=simm16, SIMM32=simm32, EXEC=g.s[EXEC_LO] if uses_exec else None, **kw)
        if "D0" in out and dst is not None:
            write_sgpr(g, dst, out["D0"], dbits)
        if "SCC" in out:
            g.scc = np.broadcast_to(to_bits(out["SCC"], 32), g.scc.shape).copy()
        if "EXEC" in out:
            g.s[EXEC_LO] = np.broadcast_to(to_bits(out["EXEC"], 32), g.scc.shape)
        return nxt
    return run


def _jump(inst, name: str, pc: int, nxt: int):
    """s_setpc_b64 / s_swappc_b64: jump to a device address in the code object's image (calls
    write the return address, also an image address, to sdst). Waves going to different places
    split: the first target's waves go, the others run this instruction again, so only the
    going waves get the return address (sdst may be the target's own registers:
    `s_swappc_b64 s[30:31], s[30:31]`)."""
    src = inst.ssrc0.offset
    dst = inst.sdst.offset if name == "S_SWAPPC_B64" else None

    def jump(g):
        lo, hi = g.s[src].copy(), g.s[src + 1].copy()
        first = (int(hi[0]) << 32) | int(lo[0])
        same = (lo == lo[0]) & (hi == hi[0])
        if dst is not None:
            ret = g.ctx.image_base + nxt
            g.s[dst] = np.where(same, ret & 0xFFFFFFFF, g.s[dst])
            g.s[dst + 1] = np.where(same, ret >> 32, g.s[dst + 1])
        target = first - g.ctx.image_base
        if not 0 <= target < g.ctx.code_size:
            raise EmuError(f"jump to {first:#x}, outside the code object (instruction at {pc:#x})")
        if same.all():
            return target
        return ("split", same, target, pc)
    return jump


HW_MODE = 1
HW_SH_MEM_BASES = 15  # [15:0] private and [31:16] shared aperture, the high 16 bits of their high dwords
SH_MEM_BASES = ((SHARED_APERTURE >> 16) << 16) | (PRIVATE_APERTURE >> 16)


def _hwreg(inst, name: str, pc: int, nxt: int):
    """s_setreg / s_getreg on the MODE register (rounding and denormal modes, as the FP helpers
    read them); SH_MEM_BASES reads the apertures (older clang finds the stack's flat address
    through it); other hardware registers are not covered."""
    simm = inst.simm16
    reg, off, size = simm & 0x3F, (simm >> 6) & 0x1F, ((simm >> 11) & 0x1F) + 1
    mask = ((1 << size) - 1) << off
    if name == "S_GETREG_B32":
        d = inst.sdst.offset
        if reg not in (HW_MODE, HW_SH_MEM_BASES):
            raise Uncovered(f"{name}: hardware register {reg} not covered (only MODE and SH_MEM_BASES)")

        def getreg(g):
            val = (g.mode if reg == HW_MODE else SH_MEM_BASES) & mask
            write_sgpr(g, d, np.full(g.s.shape[1], val >> off, np.uint32), 32)
            return nxt
        return getreg
    if reg != HW_MODE:
        raise Uncovered(f"{name}: hardware register {reg} not covered (only MODE)")
    if name == "S_SETREG_IMM32_B32":
        value = ((inst.literal or 0) << off) & mask

        def setreg_imm(g):
            g.set_mode((g.mode & ~mask) | value)
            return nxt
        return setreg_imm
    src = inst.sdst.offset  # s_setreg_b32 reads its "destination" field

    def setreg(g):
        vals = g.s[src]
        if not (vals == vals[0]).all():
            raise Uncovered(f"{name}: waves of one group set different modes")
        g.set_mode((g.mode & ~mask) | ((int(vals[0]) << off) & mask))
        return nxt
    return setreg


# ---- vector ALU --------------------------------------------------------------------------------

def _dpp16_lanes(ctrl: int) -> np.ndarray:
    """Source lane per lane for a DPP16 control (-1 where the source is invalid)."""
    lane = np.arange(32)
    row = lane & ~15
    pos = lane & 15
    if ctrl <= 0xFF:
        return (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3)
    if 0x101 <= ctrl <= 0x10F:
        n = ctrl & 15
        return np.where(pos + n < 16, lane + n, -1)
    if 0x111 <= ctrl <= 0x11F:
        n = ctrl & 15
        return np.where(pos - n >= 0, lane - n, -1)
    if 0x121 <= ctrl <= 0x12F:
        n = ctrl & 15
        return row + ((pos - n) & 15)
    if ctrl == 0x140:
        return row + 15 - pos
    if ctrl == 0x141:
        return (lane & ~7) + 7 - (lane & 7)
    if 0x150 <= ctrl <= 0x15F:
        return row + (ctrl & 15)
    if 0x160 <= ctrl <= 0x16F:
        return row + (pos ^ (ctrl & 15))
    raise Uncovered(f"DPP control {ctrl:#x} not covered")


def _dpp_reader(read, src_lanes: np.ndarray, fetch_inactive: bool):
    valid = src_lanes >= 0
    idx = np.where(valid, src_lanes, 0)

    def rd(g):
        x = np.broadcast_to(read(g), (g.s.shape[1], 32))
        out = x[:, idx]
        ok = np.broadcast_to(valid, out.shape)
        if not fetch_inactive:
            ok = ok & exec_mask(g)[:, idx]
        return out, ok
    return rd


def _valu(inst, cls: str, pc: int, nxt: int):
    op = inst.op
    name = inst.op_name
    base = cls.split("_")[0]
    if name in ("V_NOP",):
        return lambda g: nxt
    if name.startswith(("V_READLANE", "V_WRITELANE", "V_PERMLANE")):
        return _lane_op(inst, name, pc, nxt)
    if name.startswith("V_MOVREL"):
        return _movrel(inst, name, pc, nxt)
    info = _operand_info(op)
    lit = getattr(inst, "literal", None)
    is_vop3 = base in ("VOP3", "VOP3SD", "VOP3P")
    neg = getattr(inst, "neg", 0) if is_vop3 else 0
    abs_ = getattr(inst, "abs", 0) if base == "VOP3" else 0
    opsel = getattr(inst, "opsel", 0) if base == "VOP3" else 0
    if name in ("V_FMA_MIX_F32", "V_FMA_MIXLO_F16", "V_FMA_MIXHI_F16"):
        return _fma_mix(inst, name, pc, nxt)
    if base == "VOP3P" and name not in _VOP3P_OK:
        raise Uncovered(f"{name}: VOP3P not covered")
    if getattr(inst, "omod", 0):
        raise Uncovered(f"{name}: output modifier (omod) not covered")
    clamp = bool(getattr(inst, "clmp", 0))
    saturating = INT_SATURATE.get(name.removesuffix("_E64").removesuffix("_E32"))
    swap_src = inst.src0.offset if name.startswith("V_SWAP_B") and inst.src0.offset >= VGPR0 else None
    fn = semantics(op)
    bit_move = name.startswith(("V_CNDMASK_B32", "V_MOV_B32"))
    flush_in: list[tuple[str, int]] = []  # float sources the MODE's denormal field may flush

    fields = [("S0", "src0"), ("S1", "src1" if base != "VOP2" and base != "VOPC" else "vsrc1"), ("S2", "src2")]
    readers = {}
    for i, (key, field) in enumerate(fields):
        opnd = info.get(field) or info.get("v" + field) or info.get(field.replace("v", ""))
        if opnd is None:
            continue
        bits, is_float, signed = opnd
        reg = getattr(inst, field, None)
        if reg is None:
            continue
        off = reg.offset
        if "DPP" in cls and key == "S0":
            off = inst.vsrc0.offset
        rd = reader(off, bits, True, is_float, lit, signed, pc)
        if base == "VOP3P" and name.startswith("V_PK_"):
            rd = _packed_source(rd, off, i, inst, lit, name.endswith("_F16"))
        sel_hi = bool(opsel & (1 << i)) and bits == 16
        if bits == 16 and (sel_hi or off >= VGPR0):
            rd = _half(rd, sel_hi)
        if (is_float or bit_move) and (neg & (1 << i) or abs_ & (1 << i)):  # cndmask/mov: modifiers as on f32
            rd = _fmod(rd, bits, bool(abs_ & (1 << i)), bool(neg & (1 << i)))
        if "DPP" in cls and key in ("S0", "S1") and base in ("VOP1", "VOP2", "VOPC"):
            if getattr(inst, f"src{i}_abs", 0) or getattr(inst, f"src{i}_neg", 0):
                rd = _fmod(rd, bits, bool(getattr(inst, f"src{i}_abs", 0)), bool(getattr(inst, f"src{i}_neg", 0)))
        readers[key] = rd
        if is_float and bits in DENORM_BIT:
            flush_in.append((key, bits))
    dpp = None
    if "DPP16" in cls:
        lanes = _dpp16_lanes(inst.dpp)
        dpp = _dpp_reader(readers["S0"], lanes, bool(inst.fi))
        rmask = np.zeros(32, bool)
        for lane in range(32):
            rmask[lane] = bool(inst.row_mask >> (lane >> 4) & 1) and bool(inst.bank_mask >> ((lane >> 2) & 3) & 1)
        bound_zero = bool(inst.bc)
    elif "DPP8" in cls:
        sel = [getattr(inst, f"lane_sel_{k}") for k in range(8)]
        lanes = np.array([(ln & ~7) | sel[ln & 7] for ln in range(32)])
        dpp = _dpp_reader(readers["S0"], lanes, bool(getattr(inst, "fi", 0)))
        rmask = np.ones(32, bool)
        bound_zero = False
    vdst = inst.vdst.offset if hasattr(inst, "vdst") else None
    dinfo = info.get("vdst", (32, False, False))
    dbits = dinfo[0]
    hi16 = bool(opsel & 8) and dbits == 16
    if base in ("VOP1", "VOP2") and dbits == 16 and vdst is not None and vdst >= VGPR0 and (vdst - VGPR0) & VDST_HI16:
        hi16 = True
        vdst -= VDST_HI16
    d_reader = reader(vdst, 64 if dbits == 64 else 32, True, pc=pc) if vdst is not None and vdst >= VGPR0 else None
    is_cmp = "_CMP" in name
    sdst_vop3sd = inst.sdst.offset if base == "VOP3SD" else None
    null_sd = sdst_vop3sd == NULL  # carry/borrow out to NULL: not computed into any register
    vcc_src = lambda g: g.s[VCC_LO][:, None]  # noqa: E731  (V_DIV_FMAS: VCC picks the scaling; src2 is an operand)
    if "CNDMASK" in name and base == "VOP3":  # the lane mask is src2, read as 32 bits
        readers.pop("S2", None)
        vcc_src = reader(inst.src2.offset, 32, True, pc=pc)
    elif "_CO_CI_" in name and base in ("VOP3", "VOP3SD") and "S2" in readers:  # the carry-in mask is src2
        vcc_src = readers.pop("S2")
    simm32 = np.uint32(lit) if lit is not None else None
    flush = not name.startswith(NO_FLUSH)
    flush_out = flush and dinfo[1] and dbits in DENORM_BIT and not is_cmp
    fmac = "FMAC" in name or "FMAMK" in name or "FMAAK" in name or "_DOT2ACC" in name

    def run(g):
        W = g.s.shape[1]
        mask = exec_mask(g)
        kw = {k: f(g) for k, f in readers.items()}
        if dpp is not None:
            s0, ok = dpp(g)
            if bound_zero:
                s0 = np.where(ok, s0, 0).astype(s0.dtype)
                ok = np.ones_like(ok)
            kw["S0"] = s0
            mask = mask & ok & rmask
        if d_reader is not None:
            kw["D0"] = d_reader(g)
        mode = g.mode
        if flush and (mode & 0xF0) != 0xF0:
            for key, bits in flush_in:
                if not mode & DENORM_BIT[bits]:
                    kw[key] = flush_bits(kw[key], bits)
            if fmac and "D0" in kw and not mode & DENORM_BIT[dbits]:
                kw["D0"] = flush_bits(kw["D0"], dbits)
        out = fn(VCC=vcc_src(g), EXEC=g.s[EXEC_LO][:, None], laneId=LANES2,
                 SCC=g.scc[:, None], SIMM32=simm32, **kw)
        if "lane:D0" in out:  # compares
            bits = np.logical_and(out["lane:D0"], mask)
            packed = pack_lanes(bits, W)
            dest = VCC_LO if base == "VOPC" else vdst
            write_sgpr(g, dest, packed, 32)
        if "lane:EXEC" in out:
            bits = np.logical_and(out["lane:EXEC"], mask)
            g.s[EXEC_LO] = pack_lanes(bits, W)
        if "lane:VCC" in out and not null_sd:
            bits = np.logical_and(out["lane:VCC"], mask)
            packed = pack_lanes(bits, W)
            write_sgpr(g, sdst_vop3sd if sdst_vop3sd is not None else VCC_LO, packed, 32)
        if "lane:D1" in out and sdst_vop3sd is not None and not null_sd:
            bits = np.logical_and(out["lane:D1"], mask)
            write_sgpr(g, sdst_vop3sd, pack_lanes(bits, W), 32)
        if "S0" in out and swap_src is not None:  # V_SWAP_B32: the source register gets the old D0
            old_d0 = np.array(to_bits(out["S0"], 32), copy=True)  # copies: the results may view the registers
            new_d0 = np.array(to_bits(out["D0"], 32), copy=True)
            write_vgpr(g, swap_src - VGPR0, old_d0, mask, 32, False)
            write_vgpr(g, vdst - VGPR0, new_d0, mask, 32, False)
            return nxt
        if "D0" in out and not is_cmp:
            val = out["D0"]
            if clamp and saturating is not None:
                val = _saturate(saturating, kw["S0"], kw["S1"])
            elif clamp:
                val = _clamp(val)
            if flush_out and not mode & (DENORM_BIT[dbits] << 1):
                val = flush_bits(to_bits(val, dbits), dbits)
            if vdst is not None and vdst < VGPR0:  # v_readfirstlane / v_readlane into an SGPR
                write_sgpr(g, vdst, np.asarray(val).reshape(W, -1)[:, 0], 32)
            else:
                write_vgpr(g, vdst - VGPR0, to_bits(val, dbits), mask, dbits, hi16)
        return nxt
    return run


# MODE bit that keeps input denormals of a width (the next bit keeps output ones): FP_DENORM is
# MODE[5:4] for f32 and MODE[7:6] for f16/f64; 0 flushes both, 1 keeps inputs, 2 outputs, 3 both.
DENORM_BIT = {32: 0x10, 16: 0x40, 64: 0x40}
NO_FLUSH = ("V_CMP_CLASS", "V_CMPX_CLASS", "V_FREXP", "V_DIV_SCALE", "V_DIV_FIXUP", "V_CNDMASK", "V_MOV")
SIGN = {16: 0x8000, 32: 0x80000000, 64: 0x8000000000000000}
EXPONENT = {16: 0x7C00, 32: 0x7F800000, 64: 0x7FF0000000000000}


def flush_bits(x, bits: int):
    """Raw float bits with subnormals replaced by a zero of the same sign."""
    dt = np.uint64 if bits == 64 else np.uint32
    x = np.asarray(x)
    if x.dtype != dt:
        x = x.astype(dt)
    e = dt(EXPONENT[bits])
    return np.where((x & e) == 0, x & dt(SIGN[bits]), x)


def _packed_source(rd, off: int, i: int, inst, lit, f16: bool):
    """A packed source as the instruction's lanes see it: op_sel[i] picks the half the low lane
    takes, op_sel_hi[i] the half the high lane takes, neg/neg_hi negate each lane's half (float
    ops only); a float inline constant is its 16-bit value (op_sel_hi 0 broadcasts it)."""
    if f16 and off in FLOAT_CODES:
        c = const_bits(off, 16, True, lit)
        rd = lambda g, c=c: c  # noqa: E731
    sel_lo = inst.opsel >> i & 1
    sel_hi = (inst.opsel_hi >> i & 1) if i < 2 else inst.opsel_hi2 & 1
    neg_lo = bool(inst.neg >> i & 1) and f16
    neg_hi = bool(inst.neg_hi >> i & 1) and f16
    if not sel_lo and sel_hi and not neg_lo and not neg_hi:
        return rd

    def swizzled(g):
        x = np.asarray(rd(g)).astype(np.uint32)
        lo = (x >> np.uint32(16)) if sel_lo else (x & np.uint32(0xFFFF))
        hi = (x >> np.uint32(16)) if sel_hi else (x & np.uint32(0xFFFF))
        if neg_lo:
            lo = lo ^ np.uint32(0x8000)
        if neg_hi:
            hi = hi ^ np.uint32(0x8000)
        return (lo & np.uint32(0xFFFF)) | (hi << np.uint32(16))
    return swizzled


_VOP3P_OK = {"V_PK_ADD_F16", "V_PK_MUL_F16", "V_PK_FMA_F16", "V_PK_ADD_U16", "V_PK_ADD_I16", "V_PK_SUB_U16",
             "V_PK_SUB_I16", "V_PK_MUL_LO_U16", "V_PK_LSHLREV_B16", "V_PK_LSHRREV_B16", "V_PK_ASHRREV_I16",
             "V_PK_MAX_I16", "V_PK_MIN_I16", "V_PK_MAX_U16", "V_PK_MIN_U16", "V_PK_MAD_U16", "V_PK_MAD_I16",
             "V_DOT2_F32_F16", "V_PK_MAX_F16", "V_PK_MIN_F16"}


def _fma_mix(inst, name: str, pc: int, nxt: int):
    """V_FMA_MIX_F32 / V_FMA_MIXLO_F16 / V_FMA_MIXHI_F16: each source is a float (its OPSEL_HI bit
    clear) or the half its OPSEL bit picks, widened; NEG negates a source and NEG_HI takes its
    absolute value (the mix encoding's meaning of the bit); one fma in float, then (clamped) the
    float or a half into the low or high 16 bits, the other half of the register kept."""
    lit = getattr(inst, "literal", None)
    sources = []
    for i, field in enumerate(("src0", "src1", "src2")):
        off = getattr(inst, field).offset
        as_half = bool(inst.opsel_hi >> i & 1) if i < 2 else bool(inst.opsel_hi2 & 1)
        rd = reader(off, 16 if as_half and off < VGPR0 else 32, True, True, lit, False, pc)
        sources.append((rd, as_half, bool(inst.opsel >> i & 1), bool(inst.neg_hi >> i & 1), bool(inst.neg >> i & 1)))
    vdst = inst.vdst.offset - VGPR0
    clamp = bool(getattr(inst, "clmp", 0))

    def value(g, rd, as_half: bool, hi: bool, ab: bool, ng: bool):
        x = np.asarray(rd(g)).astype(np.uint32)
        if as_half:
            f = rt.fn_f16_to_f32(((x >> np.uint32(16)) if hi else x) & np.uint32(0xFFFF))
        else:
            f = x.view(np.float32)
        f = np.asarray(f, np.float32)
        if ab:
            f = np.abs(f)
        return -f if ng else f

    def run(g):
        a, b, c = (value(g, *src) for src in sources)
        r = np.asarray(rt.fn_fma(a, b, c), np.float32)
        if clamp:
            r = _clamp(r)
        mask = exec_mask(g)
        if name == "V_FMA_MIX_F32":
            write_vgpr(g, vdst, r.view(np.uint32), mask, 32)
        else:
            write_vgpr(g, vdst, np.asarray(rt.fn_f32_to_f16(r), np.float16).view(np.uint16).astype(np.uint32), mask, 16,
                       name == "V_FMA_MIXHI_F16")
        return nxt
    return run


def _half(rd, hi: bool):
    if hi:
        return lambda g: rd(g) >> np.uint32(16)
    return lambda g: rd(g) & np.uint32(0xFFFF)


def _fmod(rd, bits: int, ab: bool, ng: bool):
    sign = {16: 0x8000, 32: 0x80000000, 64: 0x8000000000000000}[bits]
    dt = np.uint64 if bits == 64 else np.uint32
    s = dt(sign)

    def f(g):
        x = rd(g)
        if ab:
            x = x & ~s
        if ng:
            x = x ^ s
        return x
    return f


# Integer adds and subtracts whose VOP3 `clamp` bit saturates the result to the type's range
# instead of wrapping (the pseudocode computes the wrapped sum; the bit is the encoding's).
INT_SATURATE = {
    **{f"V_{op}_{k}_{t}": (t.lower(), op) for op in ("ADD", "SUB", "SUBREV") for k in ("NC", "CO")
       for t in ("U32", "I32", "U16", "I16")},
}
_RANGE = {"u32": (0, 2**32 - 1), "i32": (-2**31, 2**31 - 1), "u16": (0, 2**16 - 1), "i16": (-2**15, 2**15 - 1)}


def _saturate(kind: tuple[str, str], s0, s1):
    t, op = kind
    a = rt.view(s0, t).astype(np.int64)
    b = rt.view(s1, t).astype(np.int64)
    r = a + b if op == "ADD" else a - b if op == "SUB" else b - a
    lo, hi = _RANGE[t]
    return rt.view(np.clip(r, lo, hi).astype(np.int64), t)


def _clamp(val):
    val = np.asarray(val)
    if val.dtype.kind == "f":
        return np.clip(np.nan_to_num(val, nan=0.0), 0.0, 1.0).astype(val.dtype)
    return val


def _lane_op(inst, name: str, pc: int, nxt: int):
    if name.startswith("V_READLANE"):
        src = reader(inst.src0.offset, 32, True, pc=pc)
        lane = reader(inst.src1.offset, 32, False, literal=getattr(inst, "literal", None), pc=pc)
        dst = inst.vdst.offset

        def readlane(g):
            W = g.s.shape[1]
            x = np.broadcast_to(src(g), (W, 32))
            ln = np.broadcast_to(np.asarray(lane(g)), (W,)).astype(np.int64) & 31
            write_sgpr(g, dst, x[np.arange(W), ln], 32)
            return nxt
        return readlane
    if name.startswith("V_WRITELANE"):
        src = reader(inst.src0.offset, 32, False, literal=getattr(inst, "literal", None), pc=pc)
        lane = reader(inst.src1.offset, 32, False, literal=getattr(inst, "literal", None), pc=pc)
        dst = inst.vdst.offset - VGPR0

        def writelane(g):
            W = g.s.shape[1]
            val = np.broadcast_to(np.asarray(src(g)), (W,))
            ln = np.broadcast_to(np.asarray(lane(g)), (W,)).astype(np.int64) & 31
            g.v[dst][np.arange(W), ln] = val
            return nxt
        return writelane
    if name.startswith(("V_PERMLANE16", "V_PERMLANEX16")):
        lit = getattr(inst, "literal", None)
        src = reader(inst.src0.offset, 32, True, pc=pc)
        s1 = reader(inst.src1.offset, 32, False, literal=lit, pc=pc)
        s2 = reader(inst.src2.offset, 32, False, literal=lit, pc=pc)
        dst = inst.vdst.offset - VGPR0
        cross = "X16" in name
        fi = bool(inst.opsel & 1)
        bc = bool(inst.opsel & 2)

        def permlane(g):
            W = g.s.shape[1]
            x = np.broadcast_to(src(g), (W, 32))
            sel = (np.broadcast_to(np.asarray(s2(g)), (W,)).astype(np.uint64) << np.uint64(32)) | \
                np.broadcast_to(np.asarray(s1(g)), (W,)).astype(np.uint64)
            lane = np.arange(32)
            pos = lane & 15
            idx = ((sel[:, None] >> (4 * pos).astype(np.uint64)) & np.uint64(15)).astype(np.int64)
            row = lane & 16
            src_row = (row ^ 16) if cross else row
            src_lane = src_row + idx
            vals = x[np.arange(W)[:, None], src_lane]
            mask = exec_mask(g)
            ok = mask[np.arange(W)[:, None], src_lane] | fi
            vals = np.where(ok, vals, 0 if bc else g.v[dst])
            np.copyto(g.v[dst], vals.astype(np.uint32), where=mask)
            return nxt
        return permlane
    raise Uncovered(f"{name}: not covered")


def _movrel(inst, name: str, pc: int, nxt: int):
    """V_MOVRELD/S/SD(_2)_B32: VGPRs indexed by M0 (clang keeps a small local array in registers
    and indexes it this way). Per wave: D = dst + M0 and/or S = src0 + M0 (_2: M0[25:16] for the
    destination, M0[9:0] for the source)."""
    base = name.removesuffix("_E32").removesuffix("_E64")
    rel_src = base in ("V_MOVRELS_B32", "V_MOVRELSD_B32", "V_MOVRELSD_2_B32")
    rel_dst = base in ("V_MOVRELD_B32", "V_MOVRELSD_B32", "V_MOVRELSD_2_B32")
    src_off = inst.src0.offset
    if rel_src and src_off < VGPR0:
        raise Uncovered(f"{name}: a relative source that is not a VGPR")
    src = None if rel_src else reader(src_off, 32, True, literal=getattr(inst, "literal", None), pc=pc)
    dst = inst.vdst.offset - VGPR0

    def movrel(g):
        W = g.s.shape[1]
        m0 = g.s[M0].astype(np.int64)
        d_idx = dst + ((m0 >> 16) & 0x3FF if base == "V_MOVRELSD_2_B32" else m0) if rel_dst else np.full(W, dst)
        s_idx = src_off - VGPR0 + (m0 & 0x3FF if base == "V_MOVRELSD_2_B32" else m0) if rel_src else None
        n = g.v.shape[0]
        for idx in (d_idx, s_idx):
            if idx is not None and (np.any(idx < 0) or np.any(idx >= n)):
                raise EmuError(f"instruction at {pc:#x}: {name}: VGPR index {int(np.max(idx))} outside the wave's {n}")
        waves = np.arange(W)
        vals = g.v[s_idx, waves] if rel_src else np.broadcast_to(np.asarray(src(g)), (W, 32)).astype(np.uint32)
        mask = exec_mask(g)
        cur = g.v[d_idx, waves]
        g.v[d_idx, waves] = np.where(mask, vals, cur)
        return nxt
    return movrel


# ---- VOPD --------------------------------------------------------------------------------------

def _vopd(inst, pc: int, nxt: int):
    from tinygrad.runtime.autogen.amd.rdna3.enum import VOP1Op, VOP2Op

    lit = getattr(inst, "literal", None)
    halves = []
    for side, opf, s0f, s1f, df in (("X", inst.opx, inst.srcx0, inst.vsrcx1, inst.vdstx), ("Y", inst.opy, inst.srcy0, inst.vsrcy1, inst.vdsty)):
        nm = opf.name.replace("V_DUAL_", "V_")
        if nm == "V_MOV_B32":
            op = VOP1Op.V_MOV_B32_E32
        else:
            op = getattr(VOP2Op, nm + "_E32", None) or getattr(VOP2Op, nm, None)
            if op is None:
                raise Uncovered(f"{opf.name}: VOPD half not covered")
        fn = semantics(op)
        info = _operand_info(op)
        r0 = reader(s0f.offset, 32, True, info.get("src0", (32, True))[1], lit, pc=pc)
        r1 = reader(s1f.offset, 32, True, pc=pc)
        rd = reader(df.offset, 32, True, pc=pc)
        is_float = info.get("vdst", (32, False))[1] and not nm.startswith(NO_FLUSH)
        halves.append((fn, r0, r1, rd, df.offset - VGPR0, is_float))
    simm32 = np.uint32(lit) if lit is not None else None

    def run(g):
        mask = exec_mask(g)
        W = g.s.shape[1]
        results = []
        flush_in, flush_out = not g.mode & DENORM_BIT[32], not g.mode & (DENORM_BIT[32] << 1)
        for fn, r0, r1, rd, _d, is_float in halves:
            s0, s1, d0 = r0(g), r1(g), rd(g)
            if is_float and flush_in:
                s0, s1, d0 = flush_bits(s0, 32), flush_bits(s1, 32), flush_bits(d0, 32)
            val = to_bits(fn(S0=s0, S1=s1, D0=d0, VCC=g.s[VCC_LO][:, None], laneId=LANES2, SIMM32=simm32)["D0"], 32)
            results.append(flush_bits(val, 32) if is_float and flush_out else val)
        for (fn, r0, r1, rd, d, _f), val in zip(halves, results):
            write_vgpr(g, d, np.broadcast_to(val, (W, 32)), mask, 32)
        return nxt
    return run


def check_uncovered(inst, pc: int) -> None:
    raise EmuError(f"instruction at {pc:#x}: {inst!r} not covered")
