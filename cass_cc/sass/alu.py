"""Integer, logic, comparison, float, fp64 and conversion instructions.

Each `op_X` reads its sources with LifterBase's helpers and writes registers; the
semantics are those of the SASS instruction, bit for bit (carry chains in 64-bit
arithmetic, LOP3 truth tables, saturating conversions, NaN rules of min/max).
"""
from __future__ import annotations

import struct

from .base import SHARED_WINDOW_HI, LifterBase, Unsupported, UnsupportedOperands, imm_int, modifier, nth, take
from .disasm import Imm, Insn, Operand, Pred, Reg
from .ir import f32_hex, i32

INT_CMP = {"EQ": "eq", "NE": "ne", "LT": "slt", "LE": "sle", "GT": "sgt", "GE": "sge"}
UINT_CMP = {"EQ": "eq", "NE": "ne", "LT": "ult", "LE": "ule", "GT": "ugt", "GE": "uge"}
STRICT = {"LT": "LT", "LE": "LT", "GT": "GT", "GE": "GT"}
CONST_CMP = {"T": "true", "F": "false"}  # ISETP's comparisons that read no operand
FLOAT_CMP = {
    "EQ": "oeq", "NE": "one", "LT": "olt", "LE": "ole", "GT": "ogt", "GE": "oge",
    "EQU": "ueq", "NEU": "une", "LTU": "ult", "LEU": "ule", "GTU": "ugt", "GEU": "uge",
    "NUM": "ord", "NAN": "uno", "T": "true", "F": "false", "MAX": None, "MIN": None,
}
BOOL_OPS = {"AND": "and", "OR": "or", "XOR": "xor"}
ROUNDING = ("RN", "RZ", "RM", "RP")
I2F_TYPES = ("F64", "F32", "F16", "BF16", "S32", "U32", "S64", "U64", "S16", "U16", "S8", "U8")


def _split_outputs(ops: list[Operand]) -> tuple[Operand, list[Pred], list[Operand]]:
    """`D, [P, [P]], sources...` -> (D, carry outputs, the rest)."""
    d = nth(ops, 0)
    i = 1
    outs: list[Pred] = []
    while i < len(ops) and isinstance(ops[i], Pred):
        outs.append(ops[i])  # type: ignore[arg-type]
        i += 1
    return d, outs, ops[i:]


def _rounding(mods: tuple[str, ...]) -> str:
    for m in mods:
        if m in ROUNDING:
            return m
    return "RN"


class AluOps(LifterBase):
    # ---- shared pieces ------------------------------------------------------------------
    def _carry_outs(self, outs: list[Pred], carry: str) -> None:
        """Carry (an i64 0..3) into one or two predicates; their sum is the carry."""
        b = self.b
        for n, p in enumerate(outs):
            self.wp(p, b.op(f"icmp uge i64 {carry}, {n + 1}"))

    def _carry_ins(self, cins: list[Operand]) -> list[str]:
        b = self.b
        return [b.op(f"zext i1 {self.pred(p)} to i64") for p in cins if isinstance(p, Pred)]

    def _sum64(self, terms: list[str]) -> str:
        if not terms:  # an adder given no sources (`IADD3 R1`)
            raise UnsupportedOperands()
        total = terms[0]
        for t in terms[1:]:
            total = self.b.op(f"add i64 {total}, {t}")
        return total

    def _wide_term(self, op: Operand, v: str | None = None) -> list[str]:
        """A source of an adder with a carry out (IADD3, LEA, IMAD's addend) as i64 terms: -x
        is ~x + 1, as the adder sees it, so that the carry out of b + -x is "no borrow" of
        b - x (with 0 - x as one term, x == 0 would give no carry). `v`: the source's bits
        before its sign, where they are more than the operand (LEA's shifted register)."""
        b = self.b
        v = self.raw(op) if v is None else v
        if getattr(op, "inv", False) or getattr(op, "neg", False):
            v = b.op(f"xor i32 {v}, -1")
        terms = [b.op(f"zext i32 {v} to i64")]
        if getattr(op, "neg", False):
            terms.append("1")
        return terms

    # ---- moves and special registers ----------------------------------------------------
    def op_MOV(self, insn: Insn) -> None:
        d, src = take(insn.operands, 2)
        self.wr(d, self.raw(src))  # type: ignore[arg-type]

    op_UMOV = op_MOV
    op_MOV32I = op_MOV

    def op_CS2R(self, insn: Insn) -> None:
        d, src = take(insn.operands, 2)
        name = getattr(src, "name", "")
        if name == "SRZ":
            self.wr(d, "0")  # type: ignore[arg-type]
            if "32" not in insn.mods:
                self.wr(d, "0", 1)  # type: ignore[arg-type]
            return
        if name.startswith("SR_CLOCKLO") or name.startswith("SR_GLOBALTIMERLO"):
            v = self.rt("i64", "__cass_clock")
            if "32" in insn.mods:
                self.wr(d, self.b.op(f"trunc i64 {v} to i32"))  # type: ignore[arg-type]
            else:
                self.wr64(d, v)  # type: ignore[arg-type]
            return
        raise Unsupported(f"CS2R {name}")

    def sreg(self, name: str) -> str:
        b = self.b
        for prefix, fn in (("SR_TID.", "__cass_tid"), ("SR_CTAID.", "__cass_ctaid")):
            if name.startswith(prefix):
                if name[-1] not in "XYZ":
                    raise UnsupportedOperands()
                return self.rt("i32", fn, f"i32 {'XYZ'.index(name[-1])}")
        if name == "SR_LANEID":
            return self.rt("i32", "__cass_laneid")
        if name == "SR_CgaCtaId":
            return "0"  # no clusters: the CTA is rank 0 of its own cluster
        if name == "SR_SWINHI":
            return i32(SHARED_WINDOW_HI)  # the shared window's upper word (base.py)
        masks = {"SR_EQMASK": "eq", "SR_LTMASK": "lt", "SR_LEMASK": "le", "SR_GTMASK": "gt", "SR_GEMASK": "ge"}
        if name in masks:
            lane = self.rt("i32", "__cass_laneid")
            one = b.op(f"shl i32 1, {lane}")
            if masks[name] == "eq":
                return one
            lt = b.op(f"sub i32 {one}, 1")
            if masks[name] == "lt":
                return lt
            le = b.op(f"or i32 {lt}, {one}")
            if masks[name] == "le":
                return le
            return b.op(f"xor i32 {lt if masks[name] == 'ge' else le}, -1")
        if name in ("SR_CLOCKLO", "SR_CLOCKHI", "SR_GLOBALTIMERLO", "SR_GLOBALTIMERHI"):
            v = self.rt("i64", "__cass_clock")
            if name.endswith("HI"):
                v = b.op(f"lshr i64 {v}, 32")
            return b.op(f"trunc i64 {v} to i32")
        raise Unsupported(name)

    def op_S2R(self, insn: Insn) -> None:
        d, src = take(insn.operands, 2)
        self.wr(d, self.sreg(getattr(src, "name", "?")))  # type: ignore[arg-type]

    op_S2UR = op_S2R

    # ---- integer arithmetic -------------------------------------------------------------
    def op_IADD3(self, insn: Insn) -> None:
        b = self.b
        d, outs, rest = _split_outputs(insn.operands)
        srcs, cins = rest[:3], rest[3:]
        terms = [t for s in srcs for t in self._wide_term(s)]
        if "X" in insn.mods:
            terms += self._carry_ins(cins)
        total = self._sum64(terms)
        self.wr(d, b.op(f"trunc i64 {total} to i32"))  # type: ignore[arg-type]
        if outs:
            self._carry_outs(outs, b.op(f"lshr i64 {total}, 32"))

    op_UIADD3 = op_IADD3

    def op_VIADD(self, insn: Insn) -> None:
        """VIADD Rd, a, b; VIADD.16x2: two 16-bit adds, each operand's negation per halfword,
        no carry from the low halfword into the high one (__vadd2/__vsub2)."""
        b = self.b
        d, a, c = take(insn.operands, 3)
        if not insn.mods:
            self.wr(d, b.op(f"add i32 {self.ival(a)}, {self.ival(c)}"))  # type: ignore[arg-type]
            return
        if insn.mods != ("16x2",) or any(getattr(x, "inv", False) or getattr(x, "half", "") for x in (a, c)):
            raise Unsupported(insn.full)
        # In i32 (SWAR), not <2 x i16>: llc-16 writes a non-splat constant operand of
        # v_pk_add_u16 as `0xdcbb op_sel_hi:[0,1]` (for 0xffffdcbb), whose high lane is not
        # 0xffff (the emulator's result differed from the CPU's there).
        va, vc = self.raw(a), self.raw(c)
        if getattr(a, "neg", False):
            va = self._add16x2(b.op(f"xor i32 {va}, -1"), "65537")
        if getattr(c, "neg", False):
            vc = self._add16x2(b.op(f"xor i32 {vc}, -1"), "65537")
        self.wr(d, self._add16x2(va, vc))  # type: ignore[arg-type]

    def _add16x2(self, x: str, y: str) -> str:
        """Two halfword sums: the low 15 bits of each add, the top bits by xor (no carry out)."""
        b = self.b
        low = b.op(f"add i32 {b.op(f'and i32 {x}, 2147450879')}, {b.op(f'and i32 {y}, 2147450879')}")  # 0x7fff7fff
        top = b.op(f"and i32 {b.op(f'xor i32 {x}, {y}')}, -2147450880")  # 0x80008000
        return b.op(f"xor i32 {low}, {top}")

    op_UVIADD = op_VIADD

    def op_IADD(self, insn: Insn) -> None:  # sm_75 IADD only appears with RZ; same as VIADD
        self.op_VIADD(insn)

    def op_IMAD(self, insn: Insn) -> None:
        b = self.b
        mods = insn.mods
        d, outs, rest = _split_outputs(insn.operands)
        (a, bb, c), cins = take(rest, 3), rest[3:]
        signed = "U32" not in mods
        ext = "sext" if signed else "zext"
        carries = self._carry_ins(cins) if "X" in mods else []
        if "WIDE" in mods:
            cv = self._addend128(c)
            total = b.op(f"add i128 {self._product128(a, bb, ext)}, {cv}")
            for cy in carries:
                total = b.op(f"add i128 {total}, {b.op(f'zext i64 {cy} to i128')}")
            self.wr64(d, b.op(f"trunc i128 {total} to i64"))  # type: ignore[arg-type]
            if outs:
                hi = b.op(f"lshr i128 {total}, 64")
                self._carry_outs(outs, b.op(f"trunc i128 {hi} to i64"))
            return
        if "HI" in mods:
            # The addend is a 64-bit register pair added to the whole product: with
            # c = (0, x) this is x + hi(a*b), the Newton step of integer division.
            cv = self._addend128(c)
            total = b.op(f"add i128 {self._product128(a, bb, ext)}, {cv}")
            for cy in carries:
                total = b.op(f"add i128 {total}, {b.op(f'zext i64 {cy} to i128')}")
            hi = b.op(f"lshr i128 {total}, 32")
            self.wr(d, b.op(f"trunc i128 {hi} to i32"))  # type: ignore[arg-type]
            if outs:
                self._carry_outs(outs, b.op(f"trunc i128 {b.op(f'lshr i128 {total}, 64')} to i64"))
            return
        else:
            lo = b.op(f"mul i32 {self.ival(a)}, {self.ival(bb)}")
            terms = [b.op(f"zext i32 {lo} to i64")] + self._wide_term(c) + carries
        total = self._sum64(terms)
        self.wr(d, b.op(f"trunc i64 {total} to i32"))  # type: ignore[arg-type]
        if outs:
            self._carry_outs(outs, b.op(f"lshr i64 {total}, 32"))

    op_UIMAD = op_IMAD

    def _product128(self, a: Operand, bb: Operand, ext: str) -> str:
        """The 32 x 32-bit product as i128 for the addend's sum, multiplied in i64 (where it always
        fits): an i128 multiply is split by the back end into 32-bit halves that the LLVM fixes
        plugin does not see, and LLVM 16 took one of them, the unsigned product of tid and a small
        negative int, for a signed 24-bit one (fuzz r3:8195: __mulhi(tid, lane - 16) was off by
        tid). In i64 the plugin hides a low word that may be negative (toolchain/llvmfix.cpp)."""
        b = self.b
        av = b.op(f"{ext} i32 {self.ival(a)} to i64")
        bv = b.op(f"{ext} i32 {self.ival(bb)} to i64")
        return b.op(f"{ext} i64 {b.op(f'mul i64 {av}, {bv}')} to i128")

    def _addend128(self, c: Operand) -> str:
        """IMAD.WIDE/.HI's 64-bit addend as i128; -c is ~c + 1 there too (see _wide_term), which
        differs from 0 - c in the carry out when c is 0."""
        v = self.i64val(c)  # with its sign: 0 - c
        if not getattr(c, "neg", False):
            return self.b.op(f"zext i64 {v} to i128")
        inverted = self.b.op(f"zext i64 {self.b.op(f'add i64 {v}, -1')} to i128")  # 0 - c - 1 = ~c
        return self.b.op(f"add i128 {inverted}, 1")

    def op_IMUL(self, insn: Insn) -> None:
        d, a, c = take(insn.operands, 3)
        self.wr(d, self.b.op(f"mul i32 {self.ival(a)}, {self.ival(c)}"))  # type: ignore[arg-type]

    def op_IDP(self, insn: Insn) -> None:
        """IDP.4A.<a>.<b> Rd, a, b, c: c + the four byte products (S8 bytes sign-extended);
        IDP.2A.LO/HI: two 16-bit halves of a times two bytes of b (the low or high pair)."""
        b = self.b
        mods = insn.mods
        types = [m for m in mods if m in ("S8", "U8", "S16", "U16")]
        if "4A" not in mods or len(types) != 2:
            raise Unsupported(insn.full)
        d, a, bb, c = take(insn.operands, 4)
        av, bv = self.ival(a), self.ival(bb)
        acc = self.ival(c)
        for i in range(4):
            parts = []
            for v, ty in ((av, types[0]), (bv, types[1])):
                byte = b.op(f"trunc i32 {b.op(f'lshr i32 {v}, {8 * i}')} to i8")
                parts.append(b.op(f"{'sext' if ty[0] == 'S' else 'zext'} i8 {byte} to i32"))
            acc = b.op(f"add i32 {acc}, {b.op(f'mul i32 {parts[0]}, {parts[1]}')}")
        self.wr(d, acc)  # type: ignore[arg-type]

    def op_VABSDIFF(self, insn: Insn) -> None:
        """VABSDIFF[.U32] Rd, a, b, c: |a - b| (signed, or .U32 unsigned, exact) + c (__sad, __usad)."""
        b = self.b
        if insn.mods not in ((), ("S32",), ("U32",)):
            raise Unsupported(insn.full)
        d, a, c, e = take(insn.operands, 4)
        ext = "zext" if "U32" in insn.mods else "sext"
        diff = b.op(f"sub i64 {b.op(f'{ext} i32 {self.ival(a)} to i64')}, {b.op(f'{ext} i32 {self.ival(c)} to i64')}")
        mag = b.op(f"trunc i64 {b.op(f'call i64 @llvm.abs.i64(i64 {diff}, i1 false)')} to i32")
        self.wr(d, b.op(f"add i32 {mag}, {self.ival(e)}"))  # type: ignore[arg-type]

    def op_VABSDIFF4(self, insn: Insn) -> None:
        """VABSDIFF4.U8/S8 Rd, a, b, RZ: the four byte |a_i - b_i| packed (__vabsdiffu4/__vabsdiffs4).
        Only with RZ: a register there merges or accumulates, which no kernel here shows."""
        b = self.b
        d, a, c, e = take(insn.operands, 4)
        if insn.mods not in (("U8",), ("S8",)) or not (isinstance(e, Reg) and e.zero):
            raise Unsupported(insn.full)
        ext = "zext" if insn.mods == ("U8",) else "sext"
        av, cv = self.ival(a), self.ival(c)
        out = "0"
        for i in range(4):
            x, y = (b.op(f"{ext} i8 {b.op(f'trunc i32 {v} to i8')} to i32") for v in (b.op(f"lshr i32 {w}, {8 * i}") for w in (av, cv)))
            diff = b.op(f"sub i32 {x}, {y}")
            mag = b.op(f"and i32 {b.op(f'call i32 @llvm.abs.i32(i32 {diff}, i1 false)')}, 255")
            out = b.op(f"or i32 {out}, {b.op(f'shl i32 {mag}, {8 * i}')}")
        self.wr(d, out)  # type: ignore[arg-type]

    def op_LEA(self, insn: Insn) -> None:
        b = self.b
        mods = insn.mods
        d, outs, rest = _split_outputs(insn.operands)
        # trailing carry-in predicates
        cins = [o for o in rest if isinstance(o, Pred)]
        srcs = [o for o in rest if not isinstance(o, Pred)]
        shift = nth(srcs, -1)
        if not isinstance(shift, Imm):
            raise Unsupported("LEA with a register shift")
        s = imm_int(shift)
        carries = self._carry_ins(cins) if "X" in mods else []
        a = nth(srcs, 0)
        # a's sign applies to the shifted value as it enters the adder (`LEA R, P, -R2, R5, 0x5`
        # is the low word of R5 - (R2:R3 << 5), P its no-borrow), so a is read unsigned here.
        if "HI" in mods:
            addend = nth(srcs, 1)
            if "SX32" in mods:
                lo = self.raw(a)
                wide = b.op(f"sext i32 {lo} to i64")
            else:
                hi_src = nth(srcs, 2)
                wide = b.pair(self.raw(a), self.ival(hi_src))
            shifted = b.op(f"shl i64 {wide}, {s}")
            part = b.op(f"trunc i64 {b.op(f'lshr i64 {shifted}, 32')} to i32")
        else:
            addend = nth(srcs, 1)
            part = b.op(f"shl i32 {self.raw(a)}, {s}")
        terms = self._wide_term(a, part) + self._wide_term(addend) + carries
        total = self._sum64(terms)
        self.wr(d, b.op(f"trunc i64 {total} to i32"))  # type: ignore[arg-type]
        if outs:
            self._carry_outs(outs, b.op(f"lshr i64 {total}, 32"))

    op_ULEA = op_LEA

    def _lut(self, ty: str, lut: int, a: str, bv: str, c: str) -> str:
        b = self.b
        ones = "true" if ty == "i1" else "-1"
        zero = "false" if ty == "i1" else "0"
        lut &= 0xFF
        if lut == 0:
            return zero
        if lut == 0xFF:
            return ones
        na, nb, nc = (b.op(f"xor {ty} {x}, {ones}") for x in (a, bv, c))
        acc = None
        for i in range(8):
            if not (lut >> i) & 1:
                continue
            t = b.op(f"and {ty} {a if i & 4 else na}, {bv if i & 2 else nb}")
            t = b.op(f"and {ty} {t}, {c if i & 1 else nc}")
            acc = t if acc is None else b.op(f"or {ty} {acc}, {t}")
        return acc or zero

    def op_LOP3(self, insn: Insn) -> None:
        """LOP3.LUT [Pd,] Rd, a, b, c, lut, Pq: Rd = lut(a, b, c); Pd = (Rd != 0) OR Pq, or
        AND Pq with .PAND (PTX's lop3.or/.and with a predicate; `!PT` makes it the plain test).
        nvcc chains them for 64-bit tests: `(x & m) != 0` is the low words' test ORed into
        the high words' one."""
        if any(m not in ("LUT", "PAND") for m in insn.mods):
            raise Unsupported(insn.full)
        ops = insn.operands
        pout = None
        if isinstance(nth(ops, 0), Pred):
            pout, ops = ops[0], ops[1:]
        d, a, bb, c, lut = take(ops, 5)
        pin = ops[5] if len(ops) > 5 else None
        if not isinstance(lut, Imm):
            raise Unsupported("LOP3 with a register LUT")
        r = self._lut("i32", imm_int(lut), self.ival(a), self.ival(bb), self.ival(c))
        self.wr(d, r)  # type: ignore[arg-type]
        if pout is not None:
            nz = self.b.op(f"icmp ne i32 {r}, 0")
            if pin is not None:
                nz = self._combine("AND" if "PAND" in insn.mods else "OR", nz, pin)
            self.wp(pout, nz)

    op_ULOP3 = op_LOP3

    def op_LOP(self, insn: Insn) -> None:
        d, a, c = take(insn.operands, 3)
        ops = {"AND": "and", "OR": "or", "XOR": "xor"}
        kind = next((m for m in insn.mods if m in ops), None)
        if kind is None:
            raise Unsupported(insn.full)
        self.wr(d, self.b.op(f"{ops[kind]} i32 {self.ival(a)}, {self.ival(c)}"))  # type: ignore[arg-type]

    op_ULOP = op_LOP

    def op_PLOP3(self, insn: Insn) -> None:
        ops = insn.operands
        p, q, a, bb, c = take(ops, 5)
        luts = [o for o in ops[5:] if isinstance(o, Imm)]
        av, bv, cv = self.pred(a), self.pred(bb), self.pred(c)
        if not luts:
            raise UnsupportedOperands()
        self.wp(p, self._lut("i1", imm_int(luts[0]), av, bv, cv))
        if len(luts) > 1:
            self.wp(q, self._lut("i1", imm_int(luts[1]), av, bv, cv))

    op_UPLOP3 = op_PLOP3

    def op_P2R(self, insn: Insn) -> None:
        # P2R Rd, PR, Rs, mask: the predicate file's bits (P0 = bit 0) under a mask;
        # UP2UR URd, UPR, URs, mask the same for the uniform predicates.
        b = self.b
        d, _pr, src, mask = take(insn.operands, 4)
        if not isinstance(mask, Imm):
            raise Unsupported(f"{insn.opcode} with a register mask")
        prefix = "UP" if insn.opcode == "UP2UR" else "P"
        m = imm_int(mask)
        acc = "0"
        for i in range(7):
            if (m >> i) & 1:
                bit = b.op(f"zext i1 {self.pred(Pred(f'{prefix}{i}'))} to i32")
                acc = b.op(f"or i32 {acc}, {b.op(f'shl i32 {bit}, {i}')}")
        keep = b.op(f"and i32 {self.ival(src)}, {~m & 0xFFFFFFFF}")
        self.wr(d, b.op(f"or i32 {keep}, {acc}"))  # type: ignore[arg-type]

    op_UP2UR = op_P2R

    def op_R2P(self, insn: Insn) -> None:
        b = self.b
        _pr, src, mask = take(insn.operands, 3)
        if not isinstance(mask, Imm):
            raise Unsupported(f"{insn.opcode} with a register mask")
        prefix = "UP" if insn.opcode == "UR2UP" else "P"
        v = self.ival(src)
        m = imm_int(mask)
        for i in range(7):
            if (m >> i) & 1:
                bit = b.op(f"and i32 {b.op(f'lshr i32 {v}, {i}')}, 1")
                self.wp(Pred(f"{prefix}{i}"), b.op(f"icmp ne i32 {bit}, 0"))

    op_UR2UP = op_R2P

    def op_SHF(self, insn: Insn) -> None:
        b = self.b
        mods = insn.mods
        d, lo, s, hi = take(insn.operands, 4)
        left = "L" in mods
        wide = "U64" in mods or "S64" in mods
        arith = "S64" in mods or "S32" in mods
        amount = self.ival(s)
        if "W" in mods:
            n = b.op(f"and i32 {amount}, {63 if wide else 31}")
        else:
            lim = 64 if wide else 32
            n = b.op(f"call i32 @llvm.umin.i32(i32 {amount}, i32 {lim})")
        v = b.pair(self.ival(lo), self.ival(hi))
        v128 = b.op(f"{'sext' if arith else 'zext'} i64 {v} to i128")
        n128 = b.op(f"zext i32 {n} to i128")
        if left:
            r = b.op(f"shl i128 {v128}, {n128}")
        else:
            r = b.op(f"{'ashr' if arith else 'lshr'} i128 {v128}, {n128}")
        if "HI" in mods:
            r = b.op(f"lshr i128 {r}, 32")
        self.wr(d, b.op(f"trunc i128 {r} to i32"))  # type: ignore[arg-type]

    op_USHF = op_SHF

    def op_SHL(self, insn: Insn) -> None:
        d, a, s = take(insn.operands, 3)
        n = self.b.op(f"call i32 @llvm.umin.i32(i32 {self.ival(s)}, i32 32)")
        v = self.b.op(f"zext i32 {self.ival(a)} to i64")
        r = self.b.op(f"shl i64 {v}, {self.b.op(f'zext i32 {n} to i64')}")
        self.wr(d, self.b.op(f"trunc i64 {r} to i32"))  # type: ignore[arg-type]

    op_USHL = op_SHL

    def op_SHR(self, insn: Insn) -> None:
        d, a, s = take(insn.operands, 3)
        arith = "S32" in insn.mods
        n = self.b.op(f"call i32 @llvm.umin.i32(i32 {self.ival(s)}, i32 32)")
        v = self.b.op(f"{'sext' if arith else 'zext'} i32 {self.ival(a)} to i64")
        r = self.b.op(f"{'ashr' if arith else 'lshr'} i64 {v}, {self.b.op(f'zext i32 {n} to i64')}")
        self.wr(d, self.b.op(f"trunc i64 {r} to i32"))  # type: ignore[arg-type]

    op_USHR = op_SHR

    def _combine(self, bop: str, r: str, pc: Operand) -> str:
        c = self.pred(pc)
        return self.b.op(f"{BOOL_OPS[bop]} i1 {r}, {c}")

    def op_ISETP(self, insn: Insn) -> None:
        b = self.b
        mods = insn.mods
        cmp = modifier(mods, {**INT_CMP, **CONST_CMP})
        bop = next((m for m in mods if m in BOOL_OPS), "AND")
        table = UINT_CMP if "U32" in mods else INT_CMP
        p, q, a, c, pc = take(insn.operands, 5)
        av, cv = self.ival(a), self.ival(c)
        if cmp in CONST_CMP:  # ISETP.T / .F: always true / false, whatever the operands (and .EX's carry)
            r = CONST_CMP[cmp]
        else:
            r = b.op(f"icmp {table[cmp]} i32 {av}, {cv}")
        if "EX" in mods and cmp not in CONST_CMP:
            plo = self.pred(nth(insn.operands, 5))
            eq = b.op(f"icmp eq i32 {av}, {cv}")
            if cmp == "EQ":
                r = b.op(f"and i1 {eq}, {plo}")
            elif cmp == "NE":
                r = b.op(f"or i1 {r}, {plo}")
            else:
                strict = b.op(f"icmp {table[STRICT[cmp]]} i32 {av}, {cv}")
                r = b.op(f"or i1 {strict}, {b.op(f'and i1 {eq}, {plo}')}")
        nr = b.op(f"xor i1 {r}, true")
        self.wp(p, self._combine(bop, r, pc))
        self.wp(q, self._combine(bop, nr, pc))

    op_UISETP = op_ISETP

    def op_SEL(self, insn: Insn) -> None:
        d, a, c, p = take(insn.operands, 4)
        self.wr(d, self.b.select(self.pred(p), "i32", self.ival(a), self.ival(c)))  # type: ignore[arg-type]

    op_USEL = op_SEL

    def op_IMNMX(self, insn: Insn) -> None:
        b = self.b
        d, a, c, p = take(insn.operands, 4)
        u = "U32" in insn.mods
        av, cv = self.ival(a), self.ival(c)
        mn = b.op(f"call i32 @llvm.{'umin' if u else 'smin'}.i32(i32 {av}, i32 {cv})")
        mx = b.op(f"call i32 @llvm.{'umax' if u else 'smax'}.i32(i32 {av}, i32 {cv})")
        self.wr(d, b.select(self.pred(p), "i32", mn, mx))  # type: ignore[arg-type]

    op_UIMNMX = op_IMNMX
    op_VIMNMX = op_IMNMX

    def op_VIMNMX3(self, insn: Insn) -> None:
        """VIMNMX3 Rd, a, b, c, P (sm_90): min (P) or max (!P) of three, signed or .U32."""
        b = self.b
        if set(insn.mods) - {"U32", "S32"}:
            raise Unsupported(insn.full)
        d, a, bb, c, p = take(insn.operands, 5)
        u = "U32" in insn.mods
        fmin, fmax = f"@llvm.{'umin' if u else 'smin'}.i32", f"@llvm.{'umax' if u else 'smax'}.i32"
        av, bv, cv = self.ival(a), self.ival(bb), self.ival(c)
        mn = b.op(f"call i32 {fmin}(i32 {b.op(f'call i32 {fmin}(i32 {av}, i32 {bv})')}, i32 {cv})")
        mx = b.op(f"call i32 {fmax}(i32 {b.op(f'call i32 {fmax}(i32 {av}, i32 {bv})')}, i32 {cv})")
        self.wr(d, b.select(self.pred(p), "i32", mn, mx))  # type: ignore[arg-type]

    def op_VIADDMNMX(self, insn: Insn) -> None:
        """VIADDMNMX Rd, a, b, c, P: min (P) or max (!P) of a + b and c."""
        b = self.b
        d, a, bb, c, p = take(insn.operands, 5)
        u = "U32" in insn.mods
        t = b.op(f"add i32 {self.ival(a)}, {self.ival(bb)}")
        cv = self.ival(c)
        mn = b.op(f"call i32 @llvm.{'umin' if u else 'smin'}.i32(i32 {t}, i32 {cv})")
        mx = b.op(f"call i32 @llvm.{'umax' if u else 'smax'}.i32(i32 {t}, i32 {cv})")
        self.wr(d, b.select(self.pred(p), "i32", mn, mx))  # type: ignore[arg-type]

    def op_IABS(self, insn: Insn) -> None:
        d, a = take(insn.operands, 2)
        self.wr(d, self.b.op(f"call i32 @llvm.abs.i32(i32 {self.ival(a)}, i1 false)"))  # type: ignore[arg-type]

    def op_POPC(self, insn: Insn) -> None:
        d, a = take(insn.operands, 2)
        self.wr(d, self.b.op(f"call i32 @llvm.ctpop.i32(i32 {self.ival(a)})"))  # type: ignore[arg-type]

    op_UPOPC = op_POPC

    def op_BREV(self, insn: Insn) -> None:
        d, a = take(insn.operands, 2)
        self.wr(d, self.b.op(f"call i32 @llvm.bitreverse.i32(i32 {self.ival(a)})"))  # type: ignore[arg-type]

    op_UBREV = op_BREV

    def op_FLO(self, insn: Insn) -> None:
        """Index of the highest 1 (highest 0 for negative S32), -1 when none; .SH: 31 - index."""
        b = self.b
        d, a = nth(insn.operands, 0), nth(insn.operands, -1)
        v = self.ival(a)
        if "U32" not in insn.mods:
            neg = b.op(f"icmp slt i32 {v}, 0")
            v = b.select(neg, "i32", b.op(f"xor i32 {v}, -1"), v)
        lz = b.op(f"call i32 @llvm.ctlz.i32(i32 {v}, i1 false)")
        if "SH" in insn.mods:
            r = b.select(b.op(f"icmp eq i32 {v}, 0"), "i32", "-1", lz)
        else:
            r = b.op(f"sub i32 31, {lz}")  # 32 leading zeros -> -1
        self.wr(d, r)  # type: ignore[arg-type]

    op_UFLO = op_FLO

    def op_SGXT(self, insn: Insn) -> None:
        b = self.b
        d, a, bits = take(insn.operands, 3)
        n = b.op(f"call i32 @llvm.umin.i32(i32 {self.ival(bits)}, i32 32)")
        sh = b.op(f"sub i32 32, {n}")
        v = self.ival(a)
        v64 = b.op(f"zext i32 {v} to i64")
        sh64 = b.op(f"zext i32 {sh} to i64")
        up = b.op(f"shl i64 {v64}, {sh64}")
        up32 = b.op(f"trunc i64 {up} to i32")
        r = b.op(f"{'lshr' if 'U32' in insn.mods else 'ashr'} i32 {up32}, {b.op(f'and i32 {sh}, 31')}")
        self.wr(d, b.select(b.op(f"icmp eq i32 {n}, 0"), "i32", "0", r))  # type: ignore[arg-type]

    op_USGXT = op_SGXT

    def op_BMSK(self, insn: Insn) -> None:
        b = self.b
        d, pos, width = take(insn.operands, 3)
        w = b.op(f"zext i32 {b.op(f'call i32 @llvm.umin.i32(i32 {self.ival(width)}, i32 32)')} to i64")
        m = b.op(f"sub i64 {b.op(f'shl i64 1, {w}')}, 1")
        p = b.op(f"zext i32 {b.op(f'and i32 {self.ival(pos)}, 31')} to i64")
        self.wr(d, b.op(f"trunc i64 {b.op(f'shl i64 {m}, {p}')} to i32"))  # type: ignore[arg-type]

    op_UBMSK = op_BMSK

    def op_PRMT(self, insn: Insn) -> None:
        b = self.b
        if any(m not in ("",) for m in insn.mods):
            raise Unsupported(insn.full)
        d, a, sel, c = take(insn.operands, 4)
        v = b.pair(self.ival(a), self.ival(c))
        s = self.ival(sel)
        out = "0"
        for i in range(4):
            nib = b.op(f"and i32 {b.op(f'lshr i32 {s}, {4 * i}')}, 15")
            idx = b.op(f"and i32 {nib}, 7")
            bit = b.op(f"zext i32 {b.op(f'shl i32 {idx}, 3')} to i64")
            byte = b.op(f"trunc i64 {b.op(f'lshr i64 {v}, {bit}')} to i8")
            sign = b.op(f"ashr i8 {byte}, 7")
            rep = b.op(f"icmp uge i32 {nib}, 8")
            byte = b.select(rep, "i8", sign, byte)
            w = b.op(f"zext i8 {byte} to i32")
            out = b.op(f"or i32 {out}, {b.op(f'shl i32 {w}, {8 * i}')}")
        self.wr(d, out)  # type: ignore[arg-type]

    op_UPRMT = op_PRMT

    # ---- single-precision float -------------------------------------------------------------
    def _fresult(self, insn: Insn, d: Operand, v: str) -> None:
        b = self.b
        if "SAT" in insn.mods:
            # Not minnum(maxnum(v, 0), 1): maxnum leaves the zero's sign open (llc folds the pair
            # into gfx1100's clamp bit, and the emulator's clamp keeps -0); .SAT gives +0.
            v = self._sat01(v, "float")
        if "FTZ" in insn.mods:
            v = self.ftz(v)
        self.wrf(d, v)  # type: ignore[arg-type]

    def _check_fmods(self, insn: Insn) -> str:
        for m in insn.mods:
            if m not in ("FTZ", "SAT", "RN", "RZ", "RM", "RP", "MMA", "ALU", "FMZ"):
                raise Unsupported(insn.full)
        if "FMZ" in insn.mods:
            raise Unsupported(insn.full)
        return _rounding(insn.mods)

    def op_FADD(self, insn: Insn) -> None:
        rnd = self._check_fmods(insn)
        d, a, c = take(insn.operands, 3)
        ftz = "FTZ" in insn.mods
        av, cv = self.fval(a, ftz), self.fval(c, ftz)
        v = self.b.op(f"fadd float {av}, {cv}") if rnd == "RN" else self.fma_directed(av, "1.0", cv, rnd)
        self._fresult(insn, d, v)

    def op_FMUL(self, insn: Insn) -> None:
        rnd = self._check_fmods(insn)
        d, a, c = take(insn.operands, 3)
        ftz = "FTZ" in insn.mods
        av, cv = self.fval(a, ftz), self.fval(c, ftz)
        v = self.b.op(f"fmul float {av}, {cv}") if rnd == "RN" else self.fma_directed(av, cv, None, rnd)
        self._fresult(insn, d, v)

    def op_FFMA(self, insn: Insn) -> None:
        rnd = self._check_fmods(insn)
        d, a, c, e = take(insn.operands, 4)
        ftz = "FTZ" in insn.mods
        av, cv, ev = self.fval(a, ftz), self.fval(c, ftz), self.fval(e, ftz)
        if rnd == "RN":
            v = self.b.op(f"call float @llvm.fma.f32(float {av}, float {cv}, float {ev})")
        else:
            v = self.fma_directed(av, cv, ev, rnd)
        self._fresult(insn, d, v)

    def fma_directed(self, a: str, c: str, e: str | None, rnd: str) -> str:
        """a*c+e (or a*c when e is None) rounded toward zero/-inf/+inf, exactly: the sum is
        formed in double with its rounding error (two-sum), then rounded to float by
        nearest and stepped by one ulp when on the wrong side of the exact value."""
        b = self.b
        p = b.op(f"fmul double {b.op(f'fpext float {a} to double')}, {b.op(f'fpext float {c} to double')}")  # exact
        if e is None:
            s, err = p, "0.0"
        else:
            ed = b.op(f"fpext float {e} to double")
            s = b.op(f"fadd double {p}, {ed}")
            bb = b.op(f"fsub double {s}, {p}")
            sb = b.op(f"fsub double {s}, {bb}")
            err = b.op(f"fadd double {b.op(f'fsub double {p}, {sb}')}, {b.op(f'fsub double {ed}, {bb}')}")
        return self.round_directed(s, err, rnd, zero_sign_from=p if e is None else None, sum_zero=e is not None)

    def round_directed(self, s: str, err: str, rnd: str, zero_sign_from: str | None = None, sum_zero: bool = False) -> str:
        """float nearest to s+err in direction rnd (s, err doubles, |err| tiny against s)."""
        b = self.b
        f = b.op(f"fptrunc double {s} to float")
        diff = b.op(f"fsub double {b.op(f'fpext float {f} to double')}, {s}")
        above = b.op(f"fcmp ogt double {diff}, {err}")  # f > exact
        below = b.op(f"fcmp olt double {diff}, {err}")  # f < exact
        bits = b.from_float(f)
        neg = b.op(f"icmp slt i32 {bits}, 0")
        # one ulp toward -inf: positive -> bits-1, negative -> bits+1 (+0 -> -denorm_min)
        dn_pos = b.op(f"sub i32 {bits}, 1")
        dn_neg = b.op(f"add i32 {bits}, 1")
        is_pzero = b.op(f"icmp eq i32 {bits}, 0")
        down = b.select(neg, "i32", dn_neg, b.select(is_pzero, "i32", "-2147483647", dn_pos))
        up_pos = b.op(f"add i32 {bits}, 1")
        up_neg = b.op(f"sub i32 {bits}, 1")
        is_nzero = b.op(f"icmp eq i32 {bits}, -2147483648")
        up = b.select(neg, "i32", b.select(is_nzero, "i32", "1", up_neg), up_pos)
        if rnd == "RM":
            r = b.select(above, "i32", down, bits)
        elif rnd == "RP":
            r = b.select(below, "i32", up, bits)
        else:  # RZ: toward zero, i.e. down for positive values, up for negative ones
            pos_val = b.op(f"fcmp ogt double {s}, 0.0")
            neg_val = b.op(f"fcmp olt double {s}, 0.0")
            r = b.select(b.op(f"and i1 {above}, {pos_val}"), "i32", down, bits)
            r = b.select(b.op(f"and i1 {below}, {neg_val}"), "i32", up, r)
        out = b.as_float(r)
        if zero_sign_from is not None:  # a product: an exact zero keeps the product's sign
            z = b.op(f"fcmp oeq double {s}, 0.0")
            out = b.select(z, "float", b.op(f"fptrunc double {zero_sign_from} to float"), out)
        elif rnd == "RM" and sum_zero:  # a sum that cancels exactly is -0 toward -inf
            z = b.op(f"fcmp oeq double {s}, 0.0")
            sbits = b.op(f"bitcast double {s} to i64")
            out = b.select(z, "float", b.select(b.op(f"icmp eq i64 {sbits}, 0"), "float", "-0.0", out), out)
        return out

    def op_FMNMX(self, insn: Insn) -> None:
        b = self.b
        d, a, c, p = take(insn.operands, 4)
        ftz = "FTZ" in insn.mods
        av, cv = self.fval(a, ftz), self.fval(c, ftz)
        mn = b.op(f"call float @llvm.minnum.f32(float {av}, float {cv})")
        mx = b.op(f"call float @llvm.maxnum.f32(float {av}, float {cv})")
        # NVIDIA orders -0 below +0 in min/max; minnum may return either zero.
        self.wrf(d, b.select(self.pred(p), "float", self._zero_order(mn, av, cv, True), self._zero_order(mx, av, cv, False)))

    def _zero_order(self, r: str, a: str, c: str, is_min: bool) -> str:
        b = self.b
        both_zero = b.op(f"and i1 {b.op(f'fcmp oeq float {a}, 0.0')}, {b.op(f'fcmp oeq float {c}, 0.0')}")
        ai, ci = b.from_float(a), b.from_float(c)
        z = b.op(f"{'or' if is_min else 'and'} i32 {ai}, {ci}")
        return b.select(both_zero, "float", b.as_float(z), r)

    def op_FSEL(self, insn: Insn) -> None:
        d, a, c, p = take(insn.operands, 4)
        self.wrf(d, self.b.select(self.pred(p), "float", self.fval(a), self.fval(c)))

    def _fcmp(self, cmp: str, ty: str, a: str, c: str) -> str:
        pred = FLOAT_CMP.get(cmp)
        if pred is None:
            raise Unsupported(f"compare {cmp}")
        if pred in ("true", "false"):
            return pred
        if pred in ("uno", "ord"):  # NaN tests on the bits: see _isnan
            uno = self.b.op(f"or i1 {self._isnan(ty, a)}, {self._isnan(ty, c)}")
            return uno if pred == "uno" else self.b.op(f"xor i1 {uno}, true")
        return self.b.op(f"fcmp {pred} {ty} {a}, {c}")

    def _isnan(self, ty: str, x: str) -> str:
        """x is a NaN, tested on its bits. Not `fcmp uno`: opt narrows that of a widened half
        to `fcmp uno half`, and llc-16 cannot select it for gfx1100 when a ballot takes it
        (HSETP2.NAN feeding __syncthreads_or: "Cannot select: i32 = SETCC ... setuo")."""
        b = self.b
        bits, mask, inf = ("i64", "9223372036854775807", "9218868437227405312") if ty == "double" else ("i32", "2147483647", "2139095040")
        v = b.op(f"and {bits} {b.op(f'bitcast {ty} {x} to {bits}')}, {mask}")
        return b.op(f"icmp ugt {bits} {v}, {inf}")

    def op_FSETP(self, insn: Insn) -> None:
        b = self.b
        cmp = modifier(insn.mods, FLOAT_CMP)
        bop = next((m for m in insn.mods if m in BOOL_OPS), "AND")
        p, q, a, c, pc = take(insn.operands, 5)
        ftz = "FTZ" in insn.mods
        r = self._fcmp(cmp, "float", self.fval(a, ftz), self.fval(c, ftz))
        self.wp(p, self._combine(bop, r, pc))
        self.wp(q, self._combine(bop, b.op(f"xor i1 {r}, true"), pc))

    def op_FSET(self, insn: Insn) -> None:
        b = self.b
        cmp = modifier(insn.mods, FLOAT_CMP)
        bop = next((m for m in insn.mods if m in BOOL_OPS), "AND")
        d, a, c, pc = take(insn.operands, 4)
        ftz = "FTZ" in insn.mods
        r = self._combine(bop, self._fcmp(cmp, "float", self.fval(a, ftz), self.fval(c, ftz)), pc)
        true = "1065353216" if "BF" in insn.mods else "-1"
        self.wr(d, b.select(r, "i32", true, "0"))  # type: ignore[arg-type]

    def op_FCHK(self, insn: Insn) -> None:
        """True when a/b may need the slow path. Conservative: the slow path is exact for
        every input, so it is also taken for some inputs NVIDIA's FCHK would let through."""
        b = self.b
        p, a, c = take(insn.operands, 3)
        ab, cb = self.raw(a), b.from_float(self.fval(c)) if isinstance(c, Imm) else self.raw(c)
        ea = b.op(f"and i32 {b.op(f'lshr i32 {ab}, 23')}, 255")
        ec = b.op(f"and i32 {b.op(f'lshr i32 {cb}, 23')}, 255")
        # divisor: normal, and its reciprocal normal: exponent field in [2, 252]
        c_ok = b.op(f"and i1 {b.op(f'icmp uge i32 {ec}, 2')}, {b.op(f'icmp ule i32 {ec}, 252')}")
        # dividend: normal with room for the residual and the quotient. A zero is not: the
        # fast path's first product is FFMA a, rcp, RZ, and -0 * rcp + (+0) is +0, so -0 / b
        # would lose its sign there (the slow path gives the sign of a ^ b).
        diff = b.op(f"sub i32 {ea}, {ec}")
        a_ok = b.op(f"and i1 {b.op(f'icmp uge i32 {ea}, 26')}, {b.op(f'icmp ule i32 {ea}, 252')}")
        q_ok = b.op(f"and i1 {b.op(f'icmp sge i32 {diff}, -100')}, {b.op(f'icmp sle i32 {diff}, 100')}")
        a_fine = b.op(f"and i1 {a_ok}, {q_ok}")
        fast = b.op(f"and i1 {c_ok}, {a_fine}")
        self.wp(p, b.op(f"xor i1 {fast}, true"))

    def op_MUFU(self, insn: Insn) -> None:
        b = self.b
        d, a = take(insn.operands, 2)
        fn = next((m for m in insn.mods if m != "FTZ"), "")
        if fn in ("RCP64H", "RSQ64H"):
            if isinstance(a, Imm) and a.is_float and not a.abs:
                # `MUFU.RCP64H R7, 1000`: the immediate is printed as the double whose upper word it is
                hi = i32(struct.unpack("<Q", struct.pack("<d", float(a.value)))[0] >> 32)
            else:
                hi = self.ival(a)
            wide = b.op(f"zext i32 {hi} to i64")
            x = b.op(f"bitcast i64 {b.op(f'shl i64 {wide}, 32')} to double")
            if fn == "RSQ64H":
                x = b.op(f"call double @llvm.sqrt.f64(double {x})")
            r = b.op(f"fdiv double 1.0, {x}")
            self.wr(d, b.split(b.op(f"bitcast double {r} to i64"))[1])  # type: ignore[arg-type]
            return
        x = self.fval(a, "FTZ" in insn.mods)
        if fn == "RCP":
            r = b.op(f"fdiv float 1.0, {x}")
        elif fn == "RSQ":
            r = b.op(f"fdiv float 1.0, {b.op(f'call float @llvm.sqrt.f32(float {x})')}")
        elif fn == "SQRT":
            r = b.op(f"call float @llvm.sqrt.f32(float {x})")
        elif fn == "EX2":
            r = b.op(f"call float @llvm.exp2.f32(float {x})")
        elif fn == "LG2":
            r = b.op(f"call float @llvm.log2.f32(float {x})")
        elif fn in ("SIN", "COS"):  # the argument is in revolutions
            # MUFU.SIN/COS are approximations (absolute error near 2^-21); so is this.
            xr = b.op(f"fmul float {x}, {f32_hex(6.283185307179586)}")
            r = b.op(f"call float @llvm.{fn.lower()}.f32(float {xr})")
        elif fn == "TANH":
            r = self.rt("float", "__cass_tanhf", f"float {x}")
        else:
            raise Unsupported(insn.full)
        self.wrf(d, r)  # type: ignore[arg-type]

    def _half_float(self, a: Operand, bf16: bool = False) -> str:
        """A 16-bit source (the low half, or the one an .H1 selects) as an exact float, with its
        |abs| and -neg (F2I.F16 once dropped |R0|: fz r2:216)."""
        return self._lane_float(self.raw(a), getattr(a, "half", "").startswith("H1"), bf16, a)

    def _lane_float(self, v: str, high: bool, bf16: bool, op: Operand) -> str:
        """The half (bfloat16) in the low or high 16 bits of v as an exact float, with op's |abs| and -neg."""
        b = self.b
        if bf16:
            f = b.as_float(b.op(f"and i32 {v}, -65536") if high else b.op(f"shl i32 {v}, 16"))
        else:
            x = b.op(f"lshr i32 {v}, 16") if high else v
            h = b.op(f"bitcast i16 {b.op(f'trunc i32 {x} to i16')} to half")
            f = b.op(f"fpext half {h} to float")
        if getattr(op, "abs", False):
            f = b.op(f"call float @llvm.fabs.f32(float {f})")
        if getattr(op, "neg", False):
            f = b.op(f"fneg float {f}")
        return f

    def op_FRND(self, insn: Insn) -> None:
        b = self.b
        d, a = take(insn.operands, 2)
        if any(m not in ("F64", "F32", "F16", "BF16", "FTZ", "FLOOR", "CEIL", "TRUNC") for m in insn.mods):
            raise Unsupported(insn.full)
        mode = next((m for m in insn.mods if m in ("FLOOR", "CEIL", "TRUNC")), "RN")
        fn = {"FLOOR": "floor", "CEIL": "ceil", "TRUNC": "trunc", "RN": "rint"}[mode]
        if "F16" in insn.mods:  # the half in the low 16 bits (or an .H1 lane), rounded to an integer (exact), zero-extended
            if getattr(a, "half", "") not in ("", "H0", "H0_H0", "H1", "H1_H1"):
                raise Unsupported(f"FRND.F16 of {a}")
            r = b.op(f"call float @llvm.{fn}.f32(float {self._half_float(a)})")
            self.wr(d, b.op(f"zext i16 {self._to_f16(r)} to i32"))  # type: ignore[arg-type]
        elif "F64" in insn.mods:
            self.wrd(d, b.op(f"call double @llvm.{fn}.f64(double {self.dval(a)})"))  # type: ignore[arg-type]
        elif "BF16" in insn.mods:  # sm_90: the bfloat16 in the low half, rounded to an integer (exact), zero-extended
            if getattr(a, "half", "") not in ("", "H0_H0"):
                raise Unsupported(f"FRND.BF16 of {a}")
            r = b.op(f"call float @llvm.{fn}.f32(float {self._half_float(a, bf16=True)})")
            self.wr(d, b.op(f"zext i16 {self._to_bf16(r)} to i32"))  # type: ignore[arg-type]
        else:
            self.wrf(d, b.op(f"call float @llvm.{fn}.f32(float {self.fval(a, 'FTZ' in insn.mods)})"))  # type: ignore[arg-type]

    # ---- conversions ---------------------------------------------------------------------
    def op_F2I(self, insn: Insn) -> None:
        b = self.b
        mods = insn.mods
        d, a = take(insn.operands, 2)
        ints = ("S32", "U32", "S64", "U64", "S16", "U16", "S8", "U8")
        if any(m not in ints and m not in ("F64", "F32", "F16", "BF16", "FLOOR", "CEIL", "TRUNC", "NTZ", "FTZ") for m in mods):
            raise Unsupported(insn.full)
        dst = next((m for m in mods if m in ints), "S32")
        src_ty = "double" if "F64" in mods else "float"
        if "F16" in mods or "BF16" in mods:  # a half or bfloat16 in the low 16 bits (or an .H1 lane), exact as a float
            x = self._half_float(a, bf16="BF16" in mods)
        else:
            x = self.dval(a) if src_ty == "double" else self.fval(a, "FTZ" in mods)
        mode = next((m for m in mods if m in ("FLOOR", "CEIL", "TRUNC")), "RN")
        fn = {"FLOOR": "floor", "CEIL": "ceil", "TRUNC": "trunc", "RN": "rint"}[mode]
        sfx = "f64" if src_ty == "double" else "f32"
        x = b.op(f"call {src_ty} @llvm.{fn}.{sfx}({src_ty} {x})")
        bits = int(dst[1:])
        conv = "fptosi" if dst[0] == "S" else "fptoui"
        v = b.op(f"call i{bits} @llvm.{conv}.sat.i{bits}.{sfx}({src_ty} {x})")
        if bits == 64:
            self.wr64(d, v)  # type: ignore[arg-type]
        else:
            if bits < 32:
                v = b.op(f"{'sext' if dst[0] == 'S' else 'zext'} i{bits} {v} to i32")
            self.wr(d, v)  # type: ignore[arg-type]

    def op_I2F(self, insn: Insn) -> None:
        b = self.b
        mods = insn.mods
        d, a = take(insn.operands, 2)
        types = [m for m in mods if m in I2F_TYPES]
        if any(m not in I2F_TYPES and m not in ROUNDING for m in mods):
            raise Unsupported(insn.full)
        dst = next((m for m in types if m.startswith(("F", "BF"))), "F32")
        src = next((m for m in types if not m.startswith(("F", "BF"))), "S32")
        rnd = _rounding(mods)
        bits = int(src[1:])
        if bits == 64:
            v = self.i64val(a)
        else:
            v = self.ival(a)
            if bits < 32:
                v = b.op(f"trunc i32 {v} to i{bits}")
        conv = "sitofp" if src[0] == "S" else "uitofp"
        if dst == "F64":
            if rnd != "RN" and bits == 64:  # hi * 2^32 + lo, both exact as doubles: one fma rounds once
                hi32 = b.op(f"trunc i64 {b.op(f'lshr i64 {v}, 32')} to i32")
                hi = b.op(f"{conv} i32 {hi32} to double")
                lo = b.op(f"uitofp i32 {b.op(f'trunc i64 {v} to i32')} to double")
                self.wrd(d, self._dfma_directed(rnd, hi, "4294967296.0", lo))  # type: ignore[arg-type]
                return
            self.wrd(d, b.op(f"{conv} i{bits} {v} to double"))  # type: ignore[arg-type]
            return
        if dst in ("F16", "BF16"):  # the 16-bit value zero-extended, rounded once (through float rounded to odd)
            h = self._to_16(self._int_to_f32_odd(v, bits, src[0] == "S"), dst == "BF16", rnd)
            self.wr(d, b.op(f"zext i16 {h} to i32"))  # type: ignore[arg-type]
            return
        if rnd == "RN":
            self.wrf(d, b.op(f"{conv} i{bits} {v} to float"))  # type: ignore[arg-type]
            return
        if bits == 64:
            self.wrf(d, self._i64_to_f32_directed(v, src[0] == "S", rnd))  # type: ignore[arg-type]
            return
        exact = b.op(f"{conv} i{bits} {v} to double")  # exact for 32 bits
        self.wrf(d, self.round_directed(exact, "0.0", rnd))  # type: ignore[arg-type]

    op_I2FP = op_I2F

    def _int_to_f32_odd(self, v: str, bits: int, signed: bool) -> str:
        """An integer as a float rounded to odd: exact when it fits 24 bits, else its top 24
        bits with the bits below ORed into the last one. Rounding that to half or bfloat16
        (11 or 8 bits) under any mode gives the integer's own correctly rounded value."""
        b = self.b
        w = v if bits == 64 else b.op(f"{'sext' if signed else 'zext'} i{bits} {v} to i64")
        neg = b.op(f"icmp slt i64 {w}, 0") if signed else "false"
        m = b.select(neg, "i64", b.op(f"sub i64 0, {w}"), w)  # the magnitude, unsigned
        lz = b.op(f"call i64 @llvm.ctlz.i64(i64 {m}, i1 false)")
        sh = b.op(f"call i64 @llvm.smax.i64(i64 {b.op(f'sub i64 40, {lz}')}, i64 0)")
        low_mask = b.op(f"sub i64 {b.op(f'shl i64 1, {sh}')}, 1")
        sticky = b.op(f"icmp ne i64 {b.op(f'and i64 {m}, {low_mask}')}, 0")
        kept = b.op(f"or i64 {b.op(f'lshr i64 {m}, {sh}')}, {b.op(f'zext i1 {sticky} to i64')}")
        sh32 = b.op(f"trunc i64 {sh} to i32")
        scale = b.as_float(b.op(f"shl i32 {b.op(f'add i32 {sh32}, 127')}, 23"))  # 2^sh, sh <= 40
        f = b.op(f"fmul float {b.op(f'uitofp i64 {kept} to float')}, {scale}")
        return b.select(neg, "float", b.op(f"fneg float {f}"), f)

    def _f64_to_f32_odd(self, x: str) -> str:
        """A double as a float rounded to odd (toward zero, the last bit set when inexact; NaN as
        fptrunc makes it): a second rounding to half or bfloat16 from it is the single one."""
        b = self.b
        f = b.op(f"fptrunc double {x} to float")
        back = b.op(f"fpext float {f} to double")
        bits = b.from_float(f)
        away = b.op(f"fcmp ogt double {b.op(f'call double @llvm.fabs.f64(double {back})')}, {b.op(f'call double @llvm.fabs.f64(double {x})')}")
        tz = b.select(away, "i32", b.op(f"sub i32 {bits}, 1"), bits)  # one unit of magnitude less (inf -> the largest float)
        inexact = b.op(f"fcmp one double {back}, {x}")
        return b.as_float(b.select(inexact, "i32", b.op(f"or i32 {tz}, 1"), bits))

    def _i64_to_f32_directed(self, v: str, signed: bool, rnd: str) -> str:
        """Round a 64-bit integer to float toward rnd: convert by nearest, compare the result
        (an integer when it is that large) with the input, step one ulp when on the wrong side."""
        b = self.b
        f = b.op(f"{'sitofp' if signed else 'uitofp'} i64 {v} to float")
        limit = f32_hex(2.0**63 if signed else 2.0**64)
        big = b.op(f"fcmp oge float {f}, {limit}")  # rounded past the integer range: above v
        back = b.op(f"call i64 @llvm.{'fptosi' if signed else 'fptoui'}.sat.i64.f32(float {f})")
        cmp_gt, cmp_lt = ("sgt", "slt") if signed else ("ugt", "ult")
        above = b.op(f"or i1 {big}, {b.op(f'icmp {cmp_gt} i64 {back}, {v}')}")
        below = b.op(f"and i1 {b.op(f'xor i1 {big}, true')}, {b.op(f'icmp {cmp_lt} i64 {back}, {v}')}")
        # as a double pair: the exact value's side is all round_directed needs
        s = b.op(f"fpext float {f} to double")
        err = b.select(above, "double", "-1.0", b.select(below, "double", "1.0", "0.0"))
        return self.round_directed(s, err, rnd)

    def op_F2F(self, insn: Insn) -> None:
        b = self.b
        mods = insn.mods
        d, a = take(insn.operands, 2)
        types = [m for m in mods if m in ("F64", "F32", "F16", "BF16")]
        if len(types) != 2:
            raise Unsupported(insn.full)
        dst, src = types
        rnd = _rounding(mods)
        if (dst, src) == ("F64", "F32"):
            self.wrd(d, b.op(f"fpext float {self.fval(a, 'FTZ' in mods)} to double"))  # type: ignore[arg-type]
        elif (dst, src) == ("F32", "F64"):
            x = self.dval(a)
            v = b.op(f"fptrunc double {x} to float") if rnd == "RN" else self.round_directed(x, "0.0", rnd)
            self._fresult(insn, d, v)
        elif (dst, src) == ("F32", "F32"):
            self._fresult(insn, d, self.fval(a, "FTZ" in mods))
        elif (dst, src) in (("F16", "F32"), ("BF16", "F32")):
            h = self._to_16(self.fval(a), dst == "BF16", rnd)
            self.wr(d, b.op(f"zext i16 {h} to i32"))  # type: ignore[arg-type]
        elif (dst, src) in (("F16", "F64"), ("BF16", "F64")):  # once rounded: through float rounded to odd
            h = self._to_16(self._f64_to_f32_odd(self.dval(a)), dst == "BF16", rnd)
            self.wr(d, b.op(f"zext i16 {h} to i32"))  # type: ignore[arg-type]
        elif (dst, src) in (("F32", "BF16"), ("F32", "F16")):
            self.wrf(d, self._half_float(a, bf16=src == "BF16"))  # type: ignore[arg-type]
        else:
            raise Unsupported(insn.full)

    def op_F2FP(self, insn: Insn) -> None:
        """F2FP[.BF16][.F32].PACK_AB[.RZ/.RM/.RP] Rd, a, b: two floats rounded to half (or
        bfloat16), by nearest unless a mode says otherwise, a in the upper 16 bits, b in the
        lower ones."""
        b = self.b
        mods = insn.mods
        if "E4M3" in mods or "E5M2" in mods:
            return self._f2fp_fp8(insn)
        if "PACK_AB" not in mods or any(m not in ("PACK_AB", "BF16", "F16", "F32", *ROUNDING) for m in mods):
            raise Unsupported(insn.full)
        d, a, c = take(insn.operands, 3)
        bf16, rnd = "BF16" in mods, _rounding(mods)
        hi32 = b.op(f"zext i16 {self._to_16(self.fval(a), bf16, rnd)} to i32")
        lo32 = b.op(f"zext i16 {self._to_16(self.fval(c), bf16, rnd)} to i32")
        self.wr(d, b.op(f"or i32 {b.op(f'shl i32 {hi32}, 16')}, {lo32}"))  # type: ignore[arg-type]

    def _f2fp_fp8(self, insn: Insn) -> None:
        """F2FP.SATFINITE.E4M3/E5M2.F32.PACK_AB_MERGE_C Rd, a, b, RZ (sm_89+): two floats to
        fp8 by nearest even, a in bits 8-15 and b in bits 0-7; finite overflow and infinity
        saturate to the largest finite value, NaN becomes 0x7F."""
        mods = set(insn.mods)
        fmt = "E4M3" if "E4M3" in mods else "E5M2"
        if mods != {"SATFINITE", fmt, "F32", "PACK_AB_MERGE_C"}:
            raise Unsupported(insn.full)
        d, a, c, merge = take(insn.operands, 4)
        if not (isinstance(merge, Reg) and merge.zero):
            raise Unsupported(f"{insn.full} merging a register")
        b = self.b
        hi = b.op(f"shl i32 {self._to_fp8(self.fval(a), fmt)}, 8")
        self.wr(d, b.op(f"or i32 {hi}, {self._to_fp8(self.fval(c), fmt)}"))  # type: ignore[arg-type]

    def _to_fp8(self, x: str, fmt: str) -> str:
        """float -> fp8 bits in an i32. Rounding adds and subtracts 2^23 quanta (the quantum of
        |x|'s binade, or of the subnormal range), which a float add rounds to nearest even."""
        b = self.b
        mbits, bias, maxv = (3, 7, 448.0) if fmt == "E4M3" else (2, 15, 57344.0)
        emin = 1 - bias
        bits = b.from_float(x)
        sign = b.op(f"and i32 {b.op(f'lshr i32 {bits}, 24')}, 128")
        abits = b.op(f"and i32 {bits}, 2147483647")
        a = b.op(f"bitcast i32 {abits} to float")
        a = b.select(b.op(f"fcmp ogt float {a}, {f32_hex(65536.0)}"), "float", f32_hex(65536.0), a)  # keeps a + M finite
        e = b.op(f"sub i32 {b.op(f'lshr i32 {abits}, 23')}, 127")
        e = b.op(f"call i32 @llvm.smax.i32(i32 {e}, i32 {emin})")
        biased = b.op(f"add i32 {e}, {150 - mbits}")  # 2^23 quanta: exponent e - mbits + 23
        magic = b.op(f"bitcast i32 {b.op(f'shl i32 {biased}, 23')} to float")
        r = b.op(f"fsub float {b.op(f'fadd float {a}, {magic}')}, {magic}")
        r = b.select(b.op(f"fcmp ogt float {r}, {f32_hex(maxv)}"), "float", f32_hex(maxv), r)
        rb = b.from_float(r)
        normal = b.op(f"sub i32 {b.op(f'lshr i32 {rb}, {23 - mbits}')}, {(127 - bias) << mbits}")
        sub = b.op(f"fptoui float {b.op(f'fmul float {r}, {f32_hex(2.0 ** (mbits - emin))}')} to i32")
        code = b.select(b.op(f"fcmp oge float {r}, {f32_hex(2.0 ** emin)}"), "i32", normal, sub)
        code = b.op(f"or i32 {code}, {sign}")
        return b.select(b.op(f"fcmp uno float {x}, 0.0"), "i32", "127", code)

    def _to_f16(self, x: str) -> str:
        return self.b.op(f"bitcast half {self.b.op(f'fptrunc float {x} to half')} to i16")

    def _to_16(self, x: str, bf16: bool, rnd: str) -> str:
        """float -> half / bfloat16 bits under a rounding mode. Directed modes: round to
        nearest (one correct rounding), and where that went the wrong way of x, step one
        unit toward x; the value compares exactly in float. NaN: bfloat16 0x7FFF, half as
        fptrunc makes it (as the nearest-rounding path)."""
        b = self.b
        near = self._to_bf16(x) if bf16 else self._to_f16(x)
        if rnd == "RN":
            return near
        back = b.as_float(b.op(f"shl i32 {b.op(f'zext i16 {near} to i32')}, 16")) if bf16 else b.op(f"fpext half {b.op(f'bitcast i16 {near} to half')} to float")
        neg = b.op(f"icmp slt i16 {near}, 0")
        if rnd == "RZ":  # too far from zero: one unit of magnitude less (|back| > |x| > 0 or x finite past the range)
            a_back = b.op(f"call float @llvm.fabs.f32(float {back})")
            a_x = b.op(f"call float @llvm.fabs.f32(float {x})")
            return b.select(b.op(f"fcmp ogt float {a_back}, {a_x}"), "i16", b.op(f"sub i16 {near}, 1"), near)
        # RP: below x -> the next value up; RM: above x -> the next value down
        wrong = b.op(f"fcmp {'olt' if rnd == 'RP' else 'ogt'} float {back}, {x}")
        # moving up: a negative number's magnitude shrinks (-0 becomes the least positive
        # denormal), a positive one's grows; moving down is the mirror image
        zero = "-32768" if rnd == "RP" else "0"  # the zero that crosses over: -0 up, +0 down
        toward_sign = neg if rnd == "RP" else b.op(f"xor i1 {neg}, true")
        step = b.select(toward_sign, "i16", b.op(f"sub i16 {near}, 1"), b.op(f"add i16 {near}, 1"))
        cross = "1" if rnd == "RP" else "-32767"  # 0x0001 / 0x8001
        step = b.select(b.op(f"icmp eq i16 {near}, {zero}"), "i16", cross, step)
        return b.select(wrong, "i16", step, near)

    def _to_bf16(self, x: str) -> str:
        """float -> bfloat16 bits, round to nearest even; NaN becomes the canonical 0x7FFF."""
        b = self.b
        bits = b.from_float(x)
        odd = b.op(f"and i32 {b.op(f'lshr i32 {bits}, 16')}, 1")
        bias = b.op(f"add i32 32767, {odd}")
        r = b.op(f"lshr i32 {b.op(f'add i32 {bits}, {bias}')}, 16")
        nan = b.op(f"fcmp uno float {x}, 0.0")
        return b.op(f"trunc i32 {b.select(nan, 'i32', '32767', r)} to i16")

    # ---- half2 --------------------------------------------------------------------------
    def _half_lanes(self, op: Operand, imm_hi: Operand | None = None, bf16: bool = False) -> tuple[str, str]:
        """(lane0, lane1) of a half2 (or bfloat16x2) source as floats."""
        b = self.b
        if isinstance(op, Imm):
            if imm_hi is None or not isinstance(imm_hi, Imm) or not all(isinstance(x.value, (int, float)) for x in (op, imm_hi)):
                raise Unsupported("half2 immediate")
            if bf16:  # printed as the values, which floats hold exactly
                return f32_hex(float(imm_hi.value)), f32_hex(float(op.value))
            if not op.is_float:
                raise Unsupported("half2 immediate")
            # nvdisasm prints the high half first: `HFMA2 R0, -RZ, RZ, <hi>, <lo>`.
            hi = b.op(f"fpext half {self._half_const(float(op.value))} to float")
            lo = b.op(f"fpext half {self._half_const(float(imm_hi.value))} to float")
            return lo, hi
        v = self.raw(op)
        sel = getattr(op, "half", "") or "H1_H0"
        parts = sel.split("_")
        # each lane names the half it takes, the high lane first as with immediates, an N before
        # it negating that lane alone: `R3.H0_NH1` is (lane 0: -H1, lane 1: H0) (fuzz r4:17,
        # 5651, 6851, 8500: `__hfma(a, x, c) + __hfma(b, y, d)` packed one lane each)
        if len(parts) != 2 or any(p.lstrip("N") not in ("H0", "H1") or p.count("N") > 1 for p in parts):
            raise Unsupported(f"half select {sel}")
        lanes = []
        for part in reversed(parts):
            x = self._lane_float(v, part.endswith("H1"), bf16, op)
            lanes.append(b.op(f"fneg float {x}") if part.startswith("N") else x)
        return lanes[0], lanes[1]

    @staticmethod
    def _half_const(value: float) -> str:
        import struct

        h = struct.unpack("<H", struct.pack("<e", value))[0]
        return f"0xH{h:04X}"

    def _half_op(self, insn: Insn, kind: str) -> None:
        b = self.b
        for m in insn.mods:
            if m not in ("MMA", "FTZ", "RN", "BF16_V2", "SAT"):
                raise Unsupported(insn.full)
        if "BF16_V2" in insn.mods:
            if "SAT" in insn.mods:
                raise Unsupported(insn.full)
            self._bf16_op(insn, kind)
            return
        ops = insn.operands
        d = nth(ops, 0)
        srcs, _ = self._half_sources(ops, 1, {"fma": 3, "add": 2, "mul": 2}[kind])
        out = []
        for lane in range(2):
            x = [s[lane] for s in srcs]
            if kind == "fma":
                # In double, then to half: a*b is exact there, and a+b*c rounded to 53 bits
                # rounds to the same half as the exact value (rounding to float first need not).
                xd = [b.op(f"fpext float {v} to double") for v in x]
                r = b.op(f"call double @llvm.fma.f64(double {xd[0]}, double {xd[1]}, double {xd[2]})")
                if "SAT" in insn.mods:
                    r = self._sat01(r, "double")
                h = b.op(f"bitcast half {b.op(f'fptrunc double {r} to half')} to i16")
                out.append(b.op(f"zext i16 {h} to i32"))
                continue
            if kind == "add":  # float then half: double rounding is harmless for 24 >= 2*11+2 bits
                r = b.op(f"fadd float {x[0]}, {x[1]}")
            else:
                r = b.op(f"fmul float {x[0]}, {x[1]}")  # exact
            if "SAT" in insn.mods:
                r = self._sat01(r, "float")
            h = b.op(f"bitcast half {b.op(f'fptrunc float {r} to half')} to i16")
            out.append(b.op(f"zext i16 {h} to i32"))
        self.wr(d, b.op(f"or i32 {out[0]}, {b.op(f'shl i32 {out[1]}, 16')}"))  # type: ignore[arg-type]

    def _sat01(self, r: str, ty: str) -> str:
        """.SAT: clamped to [+0, 1], NaN and -0 to +0 (PTX: NaN results flush to +0). Clamping
        before the rounding to half is the same as after: both bounds are halves."""
        b = self.b
        return b.select(b.op(f"fcmp ogt {ty} {r}, 0.0"), ty, b.op(f"call {ty} @llvm.minnum.{'f64' if ty == 'double' else 'f32'}({ty} {r}, {ty} 1.0)"), "0.0")

    def _bf16_op(self, insn: Insn, kind: str) -> None:
        """bfloat16x2 fma/add/mul: per lane a*b+c rounded once to bfloat16 by nearest."""
        b = self.b
        if "FTZ" in insn.mods:
            raise Unsupported(insn.full)
        ops = insn.operands
        srcs, _ = self._half_sources(ops, 1, {"fma": 3, "add": 2, "mul": 2}[kind], bf16=True)
        out = []
        for lane in range(2):
            x = [s_[lane] for s_ in srcs]
            if kind == "add":
                x = [x[0], "1.0", x[1]]
            elif kind == "mul":
                x = [x[0], x[1], "-0.0"]
            f = self._fma_round_to_odd(*x)
            out.append(b.op(f"zext i16 {self._to_bf16(f)} to i32"))
        self.wr(ops[0], b.op(f"or i32 {out[0]}, {b.op(f'shl i32 {out[1]}, 16')}"))  # type: ignore[arg-type]

    def _fma_round_to_odd(self, a: str, c: str, e: str) -> str:
        """a*c+e (floats holding bfloat16 values) rounded to float by round-to-odd, so that
        rounding that float to bfloat16 by nearest rounds the exact value once: the product
        is exact in double, the sum and its error come from two-sum."""
        b = self.b
        ad, cd, ed = (b.op(f"fpext float {v} to double") for v in (a, c, e))
        p = b.op(f"fmul double {ad}, {cd}")
        s = b.op(f"fadd double {p}, {ed}")
        bb = b.op(f"fsub double {s}, {p}")
        sb = b.op(f"fsub double {s}, {bb}")
        err = b.op(f"fadd double {b.op(f'fsub double {p}, {sb}')}, {b.op(f'fsub double {ed}, {bb}')}")
        t = b.op(f"fptrunc double {s} to float")
        diff = b.op(f"fsub double {b.op(f'fpext float {t} to double')}, {s}")
        above = b.op(f"fcmp ogt double {diff}, {err}")  # t above the exact value
        below = b.op(f"fcmp olt double {diff}, {err}")
        tb = b.from_float(t)
        neg = b.op(f"icmp slt i32 {tb}, 0")
        pos = b.op(f"xor i1 {neg}, true")
        down = b.op(f"or i1 {b.op(f'and i1 {above}, {pos}')}, {b.op(f'and i1 {below}, {neg}')}")  # |t| > |exact|
        odd = b.select(down, "i32", b.op(f"or i32 {b.op(f'sub i32 {tb}, 1')}, 1"), b.op(f"or i32 {tb}, 1"))
        return b.as_float(b.select(b.op(f"or i1 {above}, {below}"), "i32", odd, tb))

    def op_HFMA2(self, insn: Insn) -> None:
        self._half_op(insn, "fma")

    def op_HADD2(self, insn: Insn) -> None:
        if "F32" in insn.mods:  # HADD2.F32 Rd, a, b: one float, the low lanes' sum
            b = self.b
            d, a, c = take(insn.operands, 3)
            av, cv = self._half_lanes(a)[0], self._half_lanes(c)[0]
            self.wrf(d, b.op(f"fadd float {av}, {cv}"))  # type: ignore[arg-type]
            return
        self._half_op(insn, "add")

    def op_HMUL2(self, insn: Insn) -> None:
        self._half_op(insn, "mul")

    def _half_sources(self, ops: list[Operand], i: int, count: int, bf16: bool = False) -> tuple[list[tuple[str, str]], int]:
        """`count` half2 (or bfloat16x2) sources from ops[i:] as (lane0, lane1) floats, and
        the index after them: an immediate is two operands (nvdisasm prints the high half first)."""
        srcs: list[tuple[str, str]] = []
        while len(srcs) < count:
            op = nth(ops, i)
            if isinstance(op, Imm):
                srcs.append(self._half_lanes(op, nth(ops, i + 1), bf16=bf16))
                i += 2
            else:
                srcs.append(self._half_lanes(op, bf16=bf16))
                i += 1
        return srcs, i

    def _half_compare(self, insn: Insn, ops: list[Operand]) -> list[str]:
        """Per half lane: cmp(a, b) combined with the predicate after them (HSET2/HSETP2
        without .H_AND); `ops` starts at a, b may be an immediate pair."""
        cmp = next((m for m in insn.mods if m in FLOAT_CMP), None)
        bop = next((m for m in insn.mods if m in BOOL_OPS), "AND")
        bf16 = "BF16_V2" in insn.mods  # bfloat16 lanes (sm_90)
        if cmp is None or cmp in ("MAX", "MIN") or any(m not in FLOAT_CMP and m not in BOOL_OPS and m not in ("BF", "FTZ", "BF16_V2") for m in insn.mods):
            raise Unsupported(insn.full)
        (al, cl), i = self._half_sources(ops, 0, 2, bf16)
        pc = nth(ops, i)
        return [self._combine(bop, self._fcmp(cmp, "float", al[k], cl[k]), pc) for k in range(2)]

    def op_HSETP2(self, insn: Insn) -> None:
        """HSETP2.<cmp>.<bop> Pd, Pe, a, b, Pc: Pd from the low lanes, Pe from the high ones."""
        p, q = take(insn.operands, 2)
        r = self._half_compare(insn, insn.operands[2:])
        self.wp(p, r[0])
        self.wp(q, r[1])

    def op_HSET2(self, insn: Insn) -> None:
        """HSET2[.BF].<cmp>.<bop> Rd, a, b, Pc: per lane 1.0 (.BF) or 0xffff when true, else 0."""
        b = self.b
        d = nth(insn.operands, 0)
        r = self._half_compare(insn, insn.operands[1:])
        true = ("16256" if "BF16_V2" in insn.mods else "15360") if "BF" in insn.mods else "65535"  # 1.0: half 0x3c00, bfloat16 0x3f80
        lo = b.select(r[0], "i32", true, "0")
        hi = b.select(r[1], "i32", true, "0")
        self.wr(d, b.op(f"or i32 {lo}, {b.op(f'shl i32 {hi}, 16')}"))  # type: ignore[arg-type]

    def op_HMNMX2(self, insn: Insn) -> None:
        """HMNMX2[.BF16_V2][.NAN] Rd, a, b, P: per lane min (P) or max (!P) of two halves
        (bfloat16s), with FMNMX's rules: a NaN loses to a number, -0 is below +0, two NaNs
        give the canonical NaN 0x7FFF; with .NAN any NaN gives it. In float, where every
        half and bfloat16 is exact, so the result converts back exactly."""
        b = self.b
        bf16 = "BF16_V2" in insn.mods
        if any(m not in ("FTZ", "BF16_V2", "NAN") for m in insn.mods) or (bf16 and "FTZ" in insn.mods):
            raise Unsupported(insn.full)
        d = nth(insn.operands, 0)
        (al, cl), i = self._half_sources(insn.operands, 1, 2, bf16)
        sel = self.pred(nth(insn.operands, i))
        out = []
        for lane in range(2):
            av, cv = al[lane], cl[lane]
            r = self._mnmx_lane(sel, av, cv)
            bits = b.op(f"zext i16 {self._to_bf16(r) if bf16 else self._to_f16(r)} to i32")
            # two NaNs (minnum's NaN result), or with .NAN either one
            nan = b.op(f"fcmp uno float {av}, {cv}") if "NAN" in insn.mods else b.op(f"fcmp uno float {r}, 0.0")
            out.append(b.select(nan, "i32", "32767", bits))
        self.wr(d, b.op(f"or i32 {out[0]}, {b.op(f'shl i32 {out[1]}, 16')}"))  # type: ignore[arg-type]

    def _mnmx_lane(self, sel: str, a: str, c: str) -> str:
        """min (sel) or max of two floats by HMNMX2's rules (a NaN loses, -0 below +0)."""
        b = self.b
        mn = self._zero_order(b.op(f"call float @llvm.minnum.f32(float {a}, float {c})"), a, c, True)
        mx = self._zero_order(b.op(f"call float @llvm.maxnum.f32(float {a}, float {c})"), a, c, False)
        return b.select(sel, "float", mn, mx)

    def op_VHMNMX(self, insn: Insn) -> None:
        """VHMNMX[.BF16_V2] Rd, a, b, c, P (sm_90): per lane the min (P) or max (!P) of three halves
        (bfloat16s), as nvcc uses it for __hmin(__hmin(a, b), c): two HMNMX2 steps, so a NaN loses
        to a number at each, and a NaN left at the end is the canonical 0x7FFF."""
        b = self.b
        bf16 = "BF16_V2" in insn.mods
        if any(m != "BF16_V2" for m in insn.mods):
            raise Unsupported(insn.full)
        (al, bl, cl), i = self._half_sources(insn.operands, 1, 3, bf16)
        sel = self.pred(nth(insn.operands, i))
        out = []
        for lane in range(2):
            r = self._mnmx_lane(sel, self._mnmx_lane(sel, al[lane], bl[lane]), cl[lane])
            bits = b.op(f"zext i16 {self._to_bf16(r) if bf16 else self._to_f16(r)} to i32")
            out.append(b.select(b.op(f"fcmp uno float {r}, 0.0"), "i32", "32767", bits))
        self.wr(insn.operands[0], b.op(f"or i32 {out[0]}, {b.op(f'shl i32 {out[1]}, 16')}"))  # type: ignore[arg-type]

    # ---- double precision -----------------------------------------------------------------
    def _dmode(self, insn: Insn) -> str:
        for m in insn.mods:
            if m not in ROUNDING:
                raise Unsupported(insn.full)
        return _rounding(insn.mods)

    def _dfma_directed(self, rnd: str, a: str, c: str, e: str) -> str:
        """a*c+e rounded once toward rnd: the target's `__cass_dfma_<rnd>` runs the fma with
        the FPU's rounding mode set (gfx1100: MODE.FP_ROUND for f64; x86: MXCSR)."""
        return self.rt("double", f"__cass_dfma_{rnd.lower()}", f"double {a}, double {c}, double {e}")

    def op_DADD(self, insn: Insn) -> None:
        rnd = self._dmode(insn)
        d, a, c = take(insn.operands, 3)
        av, cv = self.dval(a), self.dval(c)
        # a*1+c is a+c rounded once, signed zeros included
        v = self.b.op(f"fadd double {av}, {cv}") if rnd == "RN" else self._dfma_directed(rnd, av, "1.0", cv)
        self.wrd(d, v)  # type: ignore[arg-type]

    def op_DMUL(self, insn: Insn) -> None:
        rnd = self._dmode(insn)
        d, a, c = take(insn.operands, 3)
        av, cv = self.dval(a), self.dval(c)
        if rnd == "RN":
            v = self.b.op(f"fmul double {av}, {cv}")
        else:
            # a*c + z with z a zero that leaves every product alone: -0 adds nothing to
            # either zero except toward -inf, where +0 + -0 is -0; there +0 does.
            v = self._dfma_directed(rnd, av, cv, "0.0" if rnd == "RM" else "-0.0")
        self.wrd(d, v)  # type: ignore[arg-type]

    def op_DFMA(self, insn: Insn) -> None:
        rnd = self._dmode(insn)
        d, a, c, e = take(insn.operands, 4)
        av, cv, ev = self.dval(a), self.dval(c), self.dval(e)
        if rnd == "RN":
            v = self.b.op(f"call double @llvm.fma.f64(double {av}, double {cv}, double {ev})")
        else:
            v = self._dfma_directed(rnd, av, cv, ev)
        self.wrd(d, v)  # type: ignore[arg-type]

    def op_DSETP(self, insn: Insn) -> None:
        b = self.b
        cmp = modifier(insn.mods, FLOAT_CMP)
        if cmp in ("MAX", "MIN"):
            self._dsetp_minmax(insn, cmp == "MAX")
            return
        bop = next((m for m in insn.mods if m in BOOL_OPS), "AND")
        p, q, a, c, pc = take(insn.operands, 5)
        r = self._fcmp(cmp, "double", self.dval(a), self.dval(c))
        self.wp(p, self._combine(bop, r, pc))
        self.wp(q, self._combine(bop, b.op(f"xor i1 {r}, true"), pc))

    def _dsetp_minmax(self, insn: Insn, is_max: bool) -> None:
        """DSETP.MAX/MIN Pd, Pn, a, b: Pd chooses a as fmax/fmin(a, b) (b NaN, or a beyond b,
        -0 below +0); Pn says both are NaN (the result is then b, quieted)."""
        b = self.b
        p, q, a, c, pc = take(insn.operands, 5)
        av, cv = self.dval(a), self.dval(c)
        c_nan = b.op(f"fcmp uno double {cv}, 0.0")
        a_nan = b.op(f"fcmp uno double {av}, 0.0")
        beyond = b.op(f"fcmp {'ogt' if is_max else 'olt'} double {av}, {cv}")
        eq = b.op(f"fcmp oeq double {av}, {cv}")
        sign = b.op(f"icmp slt i64 {b.op(f'bitcast double {av} to i64')}, 0")
        tie = b.op(f"and i1 {eq}, {b.op(f'xor i1 {sign}, true') if is_max else sign}")
        choose_a = b.op(f"or i1 {c_nan}, {b.op(f'or i1 {beyond}, {tie}')}")
        bop = next((m for m in insn.mods if m in BOOL_OPS), "AND")
        self.wp(p, self._combine(bop, choose_a, pc))
        self.wp(q, self._combine(bop, b.op(f"and i1 {a_nan}, {c_nan}"), pc))

    def op_DMNMX(self, insn: Insn) -> None:
        b = self.b
        d, a, c, p = take(insn.operands, 4)
        av, cv = self.dval(a), self.dval(c)
        mn = b.op(f"call double @llvm.minnum.f64(double {av}, double {cv})")
        mx = b.op(f"call double @llvm.maxnum.f64(double {av}, double {cv})")
        self.wrd(d, b.select(self.pred(p), "double", mn, mx))  # type: ignore[arg-type]

