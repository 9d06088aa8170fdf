"""Memory, atomics, barriers and warp-wide instructions.

Global addresses are 64-bit integers (inttoptr into the target's global space); generic
ones (LD/ST/ATOM/RED) become flat pointers, into the shared or local window when the
address lies in one (base.py: SHARED_WINDOW_HI); shared
and local addresses are 32-bit offsets into the block's shared window (from
the `%shared` argument) and the thread's local buffer (an alloca). sm_90's 1 KiB of reserved
shared memory at the window's start is subtracted, so the target allocates only what the
kernel uses.
"""
from __future__ import annotations

from .base import LOCAL_WINDOW_HI, SHARED_WINDOW_HI, LifterBase, Unsupported, nth, shared_reserved, take
from .ir import i32
from .disasm import CBank, Imm, Insn, Label, Mem, Operand, Pred, Reg

WIDTHS = {"U8": (8, "zext"), "S8": (8, "sext"), "U16": (16, "zext"), "S16": (16, "sext"), "64": (64, ""), "128": (128, "")}
SHFL_MODES = {"IDX": 0, "UP": 1, "DOWN": 2, "BFLY": 3}
REDUX_KINDS = ("SUM", "MIN", "MAX", "AND", "OR", "XOR")  # +8: signed MIN/MAX (op_REDUX)


def _width(mods: tuple[str, ...]) -> tuple[int, str]:
    for m in mods:
        if m in WIDTHS:
            return WIDTHS[m]
    return 32, ""


def _ordered(space: str) -> str:
    """Shared-memory accesses stay volatile: a warp issues its LDS/STS in program order and
    warp-synchronous code (a scan through a `volatile` array, or one between `__syncwarp`s,
    which are no-ops here) reads the other lanes' earlier stores. Without it LLVM forwards
    a lane's own stores and hoists the neighbours' loads above them (HeCBench radixsort)."""
    return " volatile" if space == "shared" else ""


class MemOps(LifterBase):
    # ---- addresses ------------------------------------------------------------------------
    def _mem(self, insn: Insn) -> Mem:
        m = next((o for o in insn.operands if isinstance(o, Mem)), None)
        if m is None:
            raise Unsupported("no address operand")
        return m

    def _addr32(self, m: Mem) -> str:
        b = self.b
        v = "0"
        if m.base is not None:
            v = self.r32(m.base)
            if m.scale != 1:
                v = b.op(f"mul i32 {v}, {m.scale}")
        if m.ureg is not None:
            v = b.op(f"add i32 {v}, {self.r32(m.ureg)}")
        if m.offset:
            v = b.op(f"add i32 {v}, {m.offset}")
        return v

    def global_ptr(self, m: Mem) -> tuple[str, str]:
        v = self._addr64(m)
        return self.b.op(f"inttoptr i64 {v} to ptr addrspace({self.sp.glob})"), f"addrspace({self.sp.glob})"

    def generic_ptr(self, m: Mem) -> tuple[str, str]:
        """A generic address as a flat pointer (LLVM's address space 0): into the shared
        or local window when its upper word names one (base.py), else global memory."""
        b = self.b
        v = self._addr64(m)
        p = b.op(f"inttoptr i64 {v} to ptr")
        if not (self.shared_window or self.local_window):
            return p, ""
        hi = b.op(f"trunc i64 {b.op(f'lshr i64 {v}, 32')} to i32")
        lo = b.op(f"trunc i64 {v} to i32")
        if self.shared_window:
            off = lo
            reserved = shared_reserved(self.sm)
            if reserved:
                off = b.op(f"sub i32 {off}, {reserved}")
            sh = self._flat(b.op(f"getelementptr i8, ptr addrspace({self.sp.shared}) %shared, i32 {off}"), self.sp.shared)
            p = b.select(b.op(f"icmp eq i32 {hi}, {i32(SHARED_WINDOW_HI)}"), "ptr", sh, p)
        if self.local_window:
            self.uses_local = True
            lc = self._flat(b.op(f"getelementptr i8, ptr addrspace({self.sp.local}) %local, i32 {self._local_offset(lo)}"), self.sp.local)
            p = b.select(b.op(f"icmp eq i32 {hi}, {i32(LOCAL_WINDOW_HI)}"), "ptr", lc, p)
        return p, ""

    def _flat(self, p: str, space: int) -> str:
        return p if space == 0 else self.b.op(f"addrspacecast ptr addrspace({space}) {p} to ptr")

    def _addr64(self, m: Mem) -> str:
        b = self.b
        if m.base is None:
            raise Unsupported("global address without a base register")
        if m.wide:
            v = b.pair(self.r32(m.base), self.r32(m.base, 1))
        else:
            v = b.op(f"zext i32 {self.r32(m.base)} to i64")
        if m.ureg is not None:
            if m.wide:
                raise Unsupported("64-bit address plus a uniform register")
            v = b.op(f"add i64 {v}, {b.op(f'zext i32 {self.r32(m.ureg)} to i64')}")
        if m.offset:
            v = b.op(f"add i64 {v}, {m.offset}")
        return v

    def shared_ptr(self, m: Mem) -> tuple[str, str]:
        b = self.b
        off = self._addr32(m)
        reserved = shared_reserved(self.sm)
        if reserved:
            off = b.op(f"sub i32 {off}, {reserved}")
        p = b.op(f"getelementptr i8, ptr addrspace({self.sp.shared}) %shared, i32 {off}")
        return p, f"addrspace({self.sp.shared})"

    def local_ptr(self, m: Mem) -> tuple[str, str]:
        self.uses_local = True
        off = self._local_offset(self._addr32(m))
        p = self.b.op(f"getelementptr i8, ptr addrspace({self.sp.local}) %local, i32 {off}")
        return p, f"addrspace({self.sp.local})"

    def _local_offset(self, off: str) -> str:
        """An offset into the thread's buffer, clamped to it (no in-bounds access changes).
        llc-16 splits `%local + (K - 4*i)` into a scratch instruction's VGPR `-4*i` and
        `offset:K'`, but gfx1100 takes the VGPR unsigned: a negative one is out of the private
        segment (the Payne-Hanek reduction of sinf indexes its local array so; LLVM 18 checks
        the sign, llvm-project#70634). The clamp's result is known non-negative and no
        constant folds through it."""
        if off.startswith("%"):  # a constant offset is where the SASS says
            off = self.b.op(f"call i32 @llvm.umin.i32(i32 {off}, i32 {self.local_size - 1})")
        return off

    def _ptr(self, insn: Insn, space: str) -> tuple[str, str]:
        m = self._mem(insn)
        if space in ("global", "generic"):
            if "E" in insn.mods and not m.wide:  # .E: 64-bit addresses, even where `.64` is not printed
                m = Mem(m.base, True, m.scale, m.ureg, m.offset, m.desc)
            return self.global_ptr(m) if space == "global" else self.generic_ptr(m)
        if space == "shared":
            return self.shared_ptr(m)
        return self.local_ptr(m)

    # ---- loads and stores --------------------------------------------------------------------
    def _load(self, insn: Insn, space: str) -> None:
        b = self.b
        d = nth(insn.operands, 0)
        if not isinstance(d, Reg):
            raise Unsupported("load destination")
        bits, ext = _width(insn.mods)
        p, asp = self._ptr(insn, space)
        if bits > 32 and self.sp.vector_wide:
            n = bits // 32
            vec = b.op(f"load{_ordered(space)} <{n} x i32>, ptr {asp} {p}, align {bits // 8}")
            for i in range(n):
                self.wr(d, b.op(f"extractelement <{n} x i32> {vec}, i32 {i}"), i)
            return
        v = b.op(f"load{_ordered(space)} i{bits}, ptr {asp} {p}, align {bits // 8}")
        if bits < 32:
            self.wr(d, b.op(f"{ext} i{bits} {v} to i32"))
            return
        for i in range(bits // 32):
            part = v if bits == 32 else b.op(f"trunc i{bits} {b.op(f'lshr i{bits} {v}, {32 * i}')} to i32")
            self.wr(d, part, i)

    def _store(self, insn: Insn, space: str) -> None:
        b = self.b
        src = nth(insn.operands, -1)
        if not isinstance(src, Reg):
            raise Unsupported("store source")
        bits, _ = _width(insn.mods)
        p, asp = self._ptr(insn, space)
        if bits > 32 and self.sp.vector_wide:
            n = bits // 32
            vec = "poison"
            for i in range(n):
                vec = b.op(f"insertelement <{n} x i32> {vec}, i32 {self.r32(src, i)}, i32 {i}")
            b.emit(f"store{_ordered(space)} <{n} x i32> {vec}, ptr {asp} {p}, align {bits // 8}")
            return
        if bits <= 32:
            v = self.r32(src)
            if bits < 32:
                v = b.op(f"trunc i32 {v} to i{bits}")
        else:
            v = "0"
            for i in range(bits // 32):
                w = b.op(f"zext i32 {self.r32(src, i)} to i{bits}")
                v = b.op(f"or i{bits} {v}, {b.op(f'shl i{bits} {w}, {32 * i}')}")
        b.emit(f"store{_ordered(space)} i{bits} {v}, ptr {asp} {p}, align {bits // 8}")

    def op_LDG(self, insn: Insn) -> None:
        self._load(insn, "global")

    def op_STG(self, insn: Insn) -> None:
        self._store(insn, "global")

    def op_LD(self, insn: Insn) -> None:
        self._load(insn, "generic")

    def op_ST(self, insn: Insn) -> None:
        self._store(insn, "generic")

    def op_LDS(self, insn: Insn) -> None:
        self._load(insn, "shared")

    def op_STS(self, insn: Insn) -> None:
        self._store(insn, "shared")

    def op_LDL(self, insn: Insn) -> None:
        self._load(insn, "local")

    def op_STL(self, insn: Insn) -> None:
        self._store(insn, "local")

    def op_LDC(self, insn: Insn) -> None:
        d, src = take(insn.operands, 2)
        if not isinstance(src, CBank) or not isinstance(d, Reg):
            raise Unsupported("LDC operands")
        bits, ext = _width(insn.mods)
        if bits < 32:
            self.wr(d, self.cbank_narrow(src, bits, ext == "sext"))
            return
        for i in range(bits // 32):
            self.wr(d, self.cbank32(src, 4 * i), i)

    op_ULDC = op_LDC

    # ---- atomics -------------------------------------------------------------------------------
    def _atomic(self, insn: Insn, space: str, returns: bool) -> None:
        b = self.b
        mods = insn.mods
        ops = [o for o in insn.operands if not isinstance(o, Pred)]
        preds = [o for o in insn.operands if isinstance(o, Pred)]
        if returns:
            d, rest = nth(ops, 0), ops[1:]
        else:
            d, rest = None, ops
        srcs = [o for o in rest if not isinstance(o, Mem)]
        wide = any(m in ("64", "S64", "U64", "F64") for m in mods)  # signed min/max print .S64 without .64
        scope = self.sp.block_scope if space == "shared" else self.sp.agent_scope
        sync = f' syncscope("{scope}")' if scope else ""
        p, asp = self._ptr(insn, space)
        if "POPC" in mods and "INC" in mods:
            # An increment by one per thread (the hardware adds the count of lanes at once).
            if d is not None and not (isinstance(d, Reg) and d.zero):
                raise Unsupported(f"{insn.full} with a result")
            b.op(f"atomicrmw add ptr {asp} {p}, i32 1{sync} monotonic")
            return
        kind = next((m for m in mods if m in ("ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS", "CAST")), None)
        if kind is None:
            raise Unsupported(insn.full)
        ty = "i64" if wide else "i32"

        def val(op: Operand) -> str:
            return self.i64val(op) if wide else self.ival(op)

        if kind in ("CAS", "CAST"):
            cmp, new = val(nth(srcs, 0)), val(nth(srcs, 1))
            pair = b.op(f"cmpxchg ptr {asp} {p}, {ty} {cmp}, {ty} {new}{sync} monotonic monotonic")
            if kind == "CAST":  # compare-and-store: the predicate says whether it stored
                ok = b.op(f"extractvalue {{ {ty}, i1 }} {pair}, 1")
                if preds:
                    self.wp(preds[0], ok)
                return
            old = b.op(f"extractvalue {{ {ty}, i1 }} {pair}, 0")
        elif "F32" in mods or "F64" in mods:
            if kind != "ADD" or any(m.startswith(("F16", "BF16")) for m in mods):
                raise Unsupported(insn.full)
            fty = "double" if wide else "float"
            v = self.dval(nth(srcs, 0)) if wide else self.fval(nth(srcs, 0))
            oldf = b.op(f"atomicrmw fadd ptr {asp} {p}, {fty} {v}{sync} monotonic")
            old = b.op(f"bitcast {fty} {oldf} to {ty}")
        else:
            signed = "S32" in mods or "S64" in mods
            rmw = {
                "ADD": "add", "AND": "and", "OR": "or", "XOR": "xor", "EXCH": "xchg",
                "MIN": "min" if signed else "umin", "MAX": "max" if signed else "umax",
            }.get(kind, "")
            if kind in ("INC", "DEC"):
                if wide:
                    raise Unsupported(insn.full)
                old = self._wrap_loop(p, asp, val(nth(srcs, 0)), kind, sync)
            else:
                old = b.op(f"atomicrmw {rmw} ptr {asp} {p}, {ty} {val(nth(srcs, 0))}{sync} monotonic")
        if d is not None and isinstance(d, Reg):
            if wide:
                self.wr64(d, old)
            else:
                self.wr(d, old)

    def _wrap_loop(self, p: str, asp: str, v: str, kind: str, sync: str) -> str:
        """atomicInc/atomicDec as a compare-and-swap loop (LLVM 16's AMDGPU backend cannot
        select atomicrmw uinc_wrap/udec_wrap)."""
        b = self.b
        pre = b.block
        first = b.op(f"load atomic i32, ptr {asp} {p}{sync} monotonic, align 4")
        loop, done = b.label("wrap"), b.label("wrapped")
        b.emit(f"br label %{loop}")
        b.start(loop)
        old = b.tmp()
        seen = b.tmp()
        b.lines.append(f"  {old} = phi i32 [ {first}, %{pre} ], [ {seen}, %{loop} ]")
        if kind == "INC":
            new = b.select(b.op(f"icmp uge i32 {old}, {v}"), "i32", "0", b.op(f"add i32 {old}, 1"))
        else:
            wrap = b.op(f"or i1 {b.op(f'icmp eq i32 {old}, 0')}, {b.op(f'icmp ugt i32 {old}, {v}')}")
            new = b.select(wrap, "i32", v, b.op(f"sub i32 {old}, 1"))
        pair = b.op(f"cmpxchg ptr {asp} {p}, i32 {old}, i32 {new}{sync} monotonic monotonic")
        b.lines.append(f"  {seen} = extractvalue {{ i32, i1 }} {pair}, 0")
        ok = b.op(f"extractvalue {{ i32, i1 }} {pair}, 1")
        b.emit(f"br i1 {ok}, label %{done}, label %{loop}")
        b.start(done)
        return old

    def op_ATOMG(self, insn: Insn) -> None:
        self._atomic(insn, "global", True)

    def op_ATOM(self, insn: Insn) -> None:
        self._atomic(insn, "generic", True)

    def op_ATOMS(self, insn: Insn) -> None:
        self._atomic(insn, "shared", "CAST" not in insn.mods)

    def op_RED(self, insn: Insn) -> None:  # generic, like ATOM; REDG/ATOMG are global only
        self._atomic(insn, "generic", False)

    def op_REDG(self, insn: Insn) -> None:
        self._atomic(insn, "global", False)

    # ---- barriers and fences ---------------------------------------------------------------------
    def op_BAR(self, insn: Insn) -> None:
        """BAR.SYNC 0x0: the block barrier. BAR.RED.POPC/AND/OR 0x0, P: the barrier that also
        reduces P over the block; B2R.RESULT reads the reduction (the count for POPC, 1 or 0
        for AND/OR). Named barriers and thread counts are not lifted."""
        mods = [m for m in insn.mods if m not in ("DEFER_BLOCKING",)]
        ops = insn.operands
        if not ops or not isinstance(ops[0], Imm) or ops[0].value != 0:
            raise Unsupported(f"{insn.full} with a barrier number or thread count")
        if mods == ["SYNC"] and len(ops) == 1:
            self.rt("void", "__cass_barrier", "", convergent=True)
            return
        kinds = {"POPC": 0, "AND": 1, "OR": 2}
        if len(mods) == 2 and mods[0] == "RED" and mods[1] in kinds and len(ops) == 2 and isinstance(ops[1], Pred):
            r = self.rt("i32", "__cass_barrier_red", f"i32 {kinds[mods[1]]}, i1 {self.pred(ops[1])}", convergent=True)
            self.regs.add("bred")
            self.b.emit(f"store i32 {r}, ptr %bred")
            return
        raise Unsupported(insn.full if len(ops) <= 1 else f"{insn.full} with a thread count")

    def op_B2R(self, insn: Insn) -> None:
        if insn.mods != ("RESULT",):
            raise Unsupported(insn.full)
        self.regs.add("bred")
        v = self.b.op("load i32, ptr %bred")
        self.wr(nth(insn.operands, 0), v)  # type: ignore[arg-type]
        if len(insn.operands) > 1:
            self.wp(insn.operands[1], self.b.op(f"icmp ne i32 {v}, 0"))

    def op_MEMBAR(self, insn: Insn) -> None:
        scope = self.sp.block_scope if "CTA" in insn.mods else self.sp.agent_scope
        if "SYS" in insn.mods:
            scope = ""
        sync = f' syncscope("{scope}")' if scope else ""
        self.b.emit(f"fence{sync} seq_cst")

    # ---- warp-wide ---------------------------------------------------------------------------------
    def op_SHFL(self, insn: Insn) -> None:
        b = self.b
        mode = next((SHFL_MODES[m] for m in insn.mods if m in SHFL_MODES), None)
        if mode is None:
            raise Unsupported(insn.full)
        p, d, a, lane, c = take(insn.operands, 5)
        r = self.rt("i64", "__cass_shfl", f"i32 {mode}, i32 {self.ival(a)}, i32 {self.ival(lane)}, i32 {self.ival(c)}", convergent=True)
        lo, hi = b.split(r)
        self.wr(d, lo)  # type: ignore[arg-type]
        self.wp(p, b.op(f"icmp ne i32 {hi}, 0"))

    def op_VOTE(self, insn: Insn) -> None:
        b = self.b
        ops = insn.operands
        if isinstance(nth(ops, 0), Pred):
            d, (p, src) = None, take(ops, 2)
        else:
            d, p, src = take(ops, 3)
        mode = next((m for m in insn.mods if m in ("ANY", "ALL", "EQ")), None)
        v = self.pred(src)
        ballot = self._in_group(self.rt("i32", "__cass_ballot", f"i1 {v}", convergent=True))
        if mode == "ANY":
            r = b.op(f"icmp ne i32 {ballot}, 0")
        elif mode == "ALL":
            active = self._in_group(self.rt("i32", "__cass_ballot", "i1 true", convergent=True))
            r = b.op(f"icmp eq i32 {ballot}, {active}")
        elif mode == "EQ":
            active = self._in_group(self.rt("i32", "__cass_ballot", "i1 true", convergent=True))
            none = b.op(f"icmp eq i32 {ballot}, 0")
            r = b.op(f"or i1 {none}, {b.op(f'icmp eq i32 {ballot}, {active}')}")
        else:
            raise Unsupported(insn.full)
        if isinstance(d, Reg):
            self.wr(d, ballot)
        self.wp(p, r)

    op_VOTEU = op_VOTE

    def op_MATCH(self, insn: Insn) -> None:
        """MATCH.ANY Rd, Ra: the active lanes whose Ra equals this lane's; MATCH.ALL Pd, Rd, Ra:
        the active mask and true when every active lane's Ra is equal, else 0 and false.
        .U64 compares register pairs."""
        b = self.b
        mods = insn.mods
        kind = 0 if "ANY" in mods else 1 if "ALL" in mods else None
        if kind is None:
            raise Unsupported(insn.full)
        ops = insn.operands
        p = ops[0] if isinstance(nth(ops, 0), Pred) else None
        rest = ops[1:] if p is not None else ops
        d, a = nth(rest, 0), nth(rest, -1)
        v = self.i64val(a) if "U64" in mods else b.op(f"zext i32 {self.ival(a)} to i64")
        mask = self._match(kind, v)
        self.wr(d, mask)  # type: ignore[arg-type]
        if p is not None:
            self.wp(p, b.op(f"icmp ne i32 {mask}, 0"))

    def _match(self, kind: int, v: str) -> str:
        """MATCH's mask of i64 `v`: kind 0 the lanes equal to this one, 1 the active lanes when all are equal (else 0)."""
        b = self.b
        if self._excluded() == "0":
            return self.rt("i32", "__cass_match", f"i32 {kind}, i64 {v}", convergent=True)
        # the equal lanes of this lane's group; .ALL: all of the group's active lanes
        mask = self._in_group(self.rt("i32", "__cass_match", f"i32 0, i64 {v}", convergent=True))
        if kind == 1:
            active = self._in_group(self.rt("i32", "__cass_ballot", "i1 true", convergent=True))
            mask = b.op(f"select i1 {b.op(f'icmp eq i32 {mask}, {active}')}, i32 {active}, i32 0")
        return mask

    def op_R2UR(self, insn: Insn) -> None:
        """R2UR URd, Rs copies a value the compiler knows is warp-uniform. sm_80+'s checked form
        `R2UR Pd, URd, Rs` also says whether it is: Pd is true when every active lane's Rs is
        equal (a non-constant member mask: `R2UR P0, URZ, Rmask; @!P0 BRA.DIV` takes the general
        path when the lanes name different masks)."""
        ops = insn.operands
        if isinstance(nth(ops, 0), Pred):
            v = self.b.op(f"zext i32 {self.ival(nth(ops, 2))} to i64")
            self.wp(ops[0], self.b.op(f"icmp ne i32 {self._match(1, v)}, 0"))
            ops = ops[1:]
        d, src = take(ops, 2)
        self.wr(d, self.raw(src))  # type: ignore[arg-type]

    def op_REDUX(self, insn: Insn) -> None:
        """REDUX.<op> Rd, Ra: the reduction of Ra over the warp's active lanes."""
        kind = next((m for m in insn.mods if m in REDUX_KINDS), "AND")  # plain REDUX is AND
        # .S32 changes only MIN and MAX (a two's-complement sum is the same sum): 9 smin, 10 smax
        code = REDUX_KINDS.index(kind) + (8 if "S32" in insn.mods and kind in ("MIN", "MAX") else 0)
        d, a = nth(insn.operands, 0), nth(insn.operands, -1)
        group = self.b.op(f"xor i32 {self._excluded()}, -1")
        self.wr(d, self.rt("i32", "__cass_redux", f"i32 {code}, i32 {self.ival(a)}, i32 {group}", convergent=True))  # type: ignore[arg-type]

    # WARPSYNC.EXCLUSIVE Rm (cg::reduce over a tile: `WARPSYNC.EXCLUSIVE R4; REDUX.SUM.S32 UR4, R9`,
    # R4 = 0xffff << (lane & 16)) splits the warp into the groups of lanes that name the same mask
    # until the convergence barrier's BSYNC; each group runs as if its lanes were the warp's only
    # active ones: a REDUX reduces over the group, and a VOTE (__activemask(), the ballot that
    # elects an aggregated atomic's leader), a MATCH see only its lanes. On an H200, after a tile's
    # reduce whose sum nvcc dropped (the WARPSYNC.EXCLUSIVE stays, no BSYNC follows) __activemask()
    # was the tile's 16 lanes and each tile's leader added its tile's sum (fuzz r3:2066). The
    # lanes a lane's group leaves out live in the `xmask` register (0, its initial value: none).
    def _excluded(self) -> str:
        if not any(i.opcode == "WARPSYNC" and ("EXCLUSIVE" in i.mods or "COLLECTIVE" in i.mods) for i in self.fn.insns):
            return "0"
        self.regs.add("xmask")
        return self.b.op("load i32, ptr %xmask")

    def _in_group(self, mask: str) -> str:
        """A mask of lanes, less those outside this lane's WARPSYNC.EXCLUSIVE group."""
        x = self._excluded()
        return mask if x == "0" else self.b.op(f"and i32 {mask}, {self.b.op(f'xor i32 {x}, -1')}")

    def op_WARPSYNC(self, insn: Insn) -> None:
        """Per thread a no-op (the structurizer reconverges) but for the groups: .EXCLUSIVE Rm
        makes Rm this lane's group; a plain WARPSYNC Rm (.ALL: every lane) brings Rm's lanes
        into it, so `WARPSYNC Rm` with the group's own mask (__reduce_add_sync(__activemask(), x)
        inside a tile) keeps it: on an H200 that sum was the tile's."""
        b = self.b
        if "COLLECTIVE" in insn.mods:
            # `WARPSYNC.COLLECTIVE Rm, L; <op>; ENDCOLLECTIVE`: sm_90's general path for a
            # warp-wide operation whose member mask may differ between lanes (a 16-lane tile's
            # cg::reduce): the operation runs once per distinct mask, over that mask's lanes.
            # Inside, this lane's group is its Rm, even where an earlier WARPSYNC.EXCLUSIVE left
            # a smaller one: Rm's lanes are synchronised (fuzz r4:8334: __reduce_add_sync(FULL)
            # after a 16-lane tile's cg::reduce summed the whole warp on the GPU, only the tile
            # here); ENDCOLLECTIVE gives back the group before.
            x = self._excluded()
            self.regs.add("xmask_coll")
            b.emit(f"store i32 {x}, ptr %xmask_coll")
            b.emit(f"store i32 {b.op(f'xor i32 {self.ival(nth(insn.operands, 0))}, -1')}, ptr %xmask")
            return
        if "EXCLUSIVE" in insn.mods:
            self.regs.add("xmask")
            b.emit(f"store i32 {b.op(f'xor i32 {self.ival(nth(insn.operands, 0))}, -1')}, ptr %xmask")
            return
        x = self._excluded()
        if x == "0":
            return
        ops = [o for o in insn.operands if not isinstance(o, Label)]
        if "ALL" in insn.mods or not ops:
            b.emit("store i32 0, ptr %xmask")
        else:
            joined = b.op(f"xor i32 {self.ival(ops[0])}, -1")
            b.emit(f"store i32 {b.op(f'and i32 {x}, {joined}')}, ptr %xmask")

    def end_collective(self) -> None:
        self.regs.add("xmask_coll")
        self.b.emit(f"store i32 {self.b.op('load i32, ptr %xmask_coll')}, ptr %xmask")

    # A convergence barrier gives back the lanes that were together at its BSSY: BSSY Bn keeps
    # this lane's group, BSYNC Bn restores it (a loop over __activemask()'s bits inside a tile
    # stays in the tile; sm_80's BSSY before the tile's WARPSYNC.EXCLUSIVE ends the split).
    def _barrier_group(self, insn: Insn) -> str:
        name = f"xmask_{getattr(nth(insn.operands, 0), 'name', 'B0').lower()}"
        self.regs.add(name)
        return name

    def op_BSSY(self, insn: Insn) -> None:
        x = self._excluded()
        if x != "0":
            self.b.emit(f"store i32 {x}, ptr %{self._barrier_group(insn)}")

    def op_BSYNC(self, insn: Insn) -> None:
        if self._excluded() != "0":
            self.b.emit(f"store i32 {self.b.op(f'load i32, ptr %{self._barrier_group(insn)}')}, ptr %xmask")
