"""SASS -> LLVM IR for a target-neutral kernel body.

Model: every SASS register (R, UR, P, UP) is an `alloca` in the entry block, each
instruction loads its sources and stores its results, and LLVM's mem2reg/SROA turn this
into SSA. Branches become branches between basic blocks that start at labels; a predicated
instruction becomes a two-way branch around it (simplifycfg turns most into selects).
BSSY/BSYNC reconvergence is left to LLVM's structurizer. CALL/RET to internal subroutines
(the division and square-root slow paths): each call site branches to its own copy of the
subroutine, whose RET branches back (see _subroutine_entries); in a recursive kernel RET
uses the return address the caller put in a register: a switch over the call sites.

The body is one function `void @<kernel>.body(ptr addrspace(P) %params, ptr addrspace(S) %shared)`
(the parameter block and the block's shared window); what else it needs from the
machine (thread and block indices, block and grid sizes, barriers, shuffles, ballots) it gets by calling `@__cass_*` functions that each target
defines (see targets.py). Instruction semantics live in alu.py and mem.py.
"""
from __future__ import annotations

from .alu import AluOps
from .base import CONTROL, NOOPS, Lifted, LiftError, Spaces, Unsupported, UnsupportedOperands, nth
from .cubin import Cubin, Kernel
from .disasm import Function, Imm, Insn, Label, Operand, Pred, Reg
from .ir import i32
from .mem import MemOps

__all__ = ["lift_kernel", "Lifted", "LiftError", "Spaces"]


def block_name(offset: int) -> str:
    return f"L_{offset:x}"


class Lifter(AluOps, MemOps):
    """Control flow and the instruction dispatch; the opcodes are methods `op_<OPCODE>`."""

    def lift(self) -> Lifted:
        fn = self.fn
        insns = fn.insns
        if not insns:
            raise LiftError(self.kernel.name, ["(no instructions)"])
        self.leaders = {insns[0].offset}
        self.leaders.update(fn.labels.values())
        self.return_sites: list[int] = []
        for i, insn in enumerate(insns):
            if insn.opcode in CONTROL and i + 1 < len(insns):
                self.leaders.add(insns[i + 1].offset)
            if insn.opcode == "CALL" and i + 1 < len(insns):
                self.return_sites.append(insns[i + 1].offset)
        self.offsets = {insn.offset for insn in insns}
        self.suffix = ""  # the copy of a subroutine being lifted ("" for the kernel's own code)
        self.returns_to = ""  # where that copy's RET goes
        self.copies: list[tuple[int, str, str]] = []  # subroutine entry, copy suffix, return block
        self.copy_names: list[str] = []
        self.unsupported: list[str] = []
        b = self.b
        b.start("body")
        b.emit(f"br label %{block_name(insns[0].offset)}")
        self.entries = entries = self._subroutine_entries()
        if entries is None:  # one copy of everything, RET a switch over the call sites
            self._emit(insns)
        else:
            for start in [0, *sorted(self.shared)]:  # the kernel's code and the recursive subroutines
                self._emit(self._range(start))
            while self.copies:  # each other call site's own copy (and those of the calls in it)
                entry, self.suffix, self.returns_to = self.copies.pop(0)
                self._emit(self._range(entry))
        if self.unsupported:
            raise LiftError(self.kernel.name, self.unsupported)
        return self._finish()

    def _subroutine_entries(self) -> list[int] | None:
        """The CALL targets, when each call site can have its own copy of the subroutine it
        calls: the subroutines follow the kernel's own code (nvcc puts its slow paths and
        __noinline__ functions there). A copy per site keeps the CFG the program's: with one
        shared copy whose RET switches over every return site, code after one call site is
        reachable from another's (a cycle through the subroutine), and the structurizer may
        run a warp-wide operation there before the warp has reconverged (REDUX after a
        division's slow path: each group of lanes got its own sum). Recursive subroutines
        (self.shared) stay one copy, their RET a switch over their call sites, which must then
        lie in the kernel's code or in such subroutines."""
        fn = self.fn
        calls = [(i, fn.labels[i.operands[-1].name]) for i in fn.insns if i.opcode == "CALL"
                 and i.operands and isinstance(i.operands[-1], Label) and i.operands[-1].name in fn.labels]
        entries = sorted({t for _, t in calls})
        self.shared: set[int] = set()
        if not entries:
            return None
        for i in fn.insns:  # no branch between the kernel's code and a subroutine
            if i.opcode in CONTROL and i.opcode not in ("CALL", "RET"):  # RET names the kernel: `RET.REL.NODEC R4 `(fz69)`
                for o in i.operands:
                    if isinstance(o, Label) and o.name in fn.labels and \
                            (fn.labels[o.name] >= entries[0]) != (i.offset >= entries[0]):
                        return None
        edges: dict[int, set[int]] = {}
        for i, t in calls:
            edges.setdefault(max((e for e in entries if e <= i.offset), default=0), set()).add(t)

        def reach(e: int) -> set[int]:
            seen, todo = set(), [e]
            while todo:
                for n in edges.get(todo.pop(), ()):
                    if n not in seen:
                        seen.add(n)
                        todo.append(n)
            return seen

        self.shared = {e for e in entries if e in reach(e)}
        for i, t in calls:
            caller = max((e for e in entries if e <= i.offset), default=0)
            if t in self.shared and caller != 0 and caller not in self.shared:
                return None
        after = {a.offset: b.offset for a, b in zip(fn.insns, fn.insns[1:])}
        self.return_sites = [after[i.offset] for i, t in calls if t in self.shared and i.offset in after]
        # Each recursive subroutine's RET goes back only to its own call sites: a switch over
        # every subroutine's sites made code after one function's call reachable from
        # another's RET, a cycle through the whole kernel that LLVM 16's structurizer ran
        # wrongly (lanes back from fz137_rec31 also ran the else-branch beside the call: r3:137).
        self.sites_of = {e: [after[i.offset] for i, t in calls if t == e and i.offset in after] for e in self.shared}
        return entries

    def _range(self, start: int) -> list[Insn]:
        """The kernel's code (start 0) or the subroutine at `start`, up to the next subroutine."""
        end = next((e for e in self.entries or [] if e > start), None)
        return [i for i in self.fn.insns if i.offset >= start and (end is None or i.offset < end)]

    def _blk(self, offset: int) -> str:
        return block_name(offset) + self.suffix

    def _emit(self, insns: list[Insn]) -> None:
        """Lift a run of instructions (the kernel's own or a subroutine copy) into blocks."""
        b = self.b
        terminated = True
        for i, insn in enumerate(insns):
            if insn.offset in self.leaders:
                if not terminated:
                    b.emit(f"br label %{self._blk(insn.offset)}")
                b.start(self._blk(insn.offset))
                terminated = False
            if terminated:  # unreachable code after a branch that is no label's target
                b.start(b.label("dead"))
                terminated = False
            nxt = insns[i + 1].offset if i + 1 < len(insns) else None
            try:
                terminated = self.one(insn, nxt)
            except Unsupported as e:
                self.unsupported.append(_refusal(insn, e))
                b.emit("unreachable")
                terminated = True
        if not terminated:
            b.emit("ret void")

    def _finish(self) -> Lifted:
        sig = f"ptr addrspace({self.sp.param}) noalias %params, ptr addrspace({self.sp.shared}) %shared"
        head = [f"define void @\"{self.kernel.name}.body\"({sig}) #0 {{", "entry:"]
        for name in sorted(self.regs):
            ty = "i1" if name.startswith(("p", "up")) else "i32"
            head.append(f"  %{name} = alloca {ty}")
            head.append(f"  store {ty} {'false' if ty == 'i1' else '0'}, ptr %{name}")
        if self.uses_local:
            head.append(f"  %local = alloca [{self.local_size} x i8], align 16, addrspace({self.sp.local})")
        head.append("  br label %body")
        body = "\n".join(head + self.b.lines + ["}"])
        return Lifted(self.kernel.name, body, self.globals, self.runtime, set(), self.local_size if self.uses_local else 0,
                      self.shared_size, self.recursive)

    # ---- one instruction -------------------------------------------------------------------
    def one(self, insn: Insn, nxt: int | None) -> bool:
        """Emit `insn`; True when it ended the block."""
        b = self.b
        op = insn.opcode
        if op in CONTROL:
            return self.control(insn, nxt)
        if op in NOOPS:
            return False
        handler = getattr(self, f"op_{op}", None)
        if handler is None:
            raise Unsupported("")
        g = insn.guard
        if g is not None and g.true and g.neg:
            return False  # @!PT: never runs
        if g is None or g.true:
            handler(insn)
            return False
        cond = self.pred(g)
        then, cont = b.label("then"), b.label("cont")
        b.emit(f"br i1 {cond}, label %{then}, label %{cont}")
        b.start(then)
        handler(insn)
        b.emit(f"br label %{cont}")
        b.start(cont)
        return False

    def _target(self, op: Operand) -> str:
        if not isinstance(op, Label) or op.name not in self.fn.labels:
            raise Unsupported(f"branch target {op}")
        return self._blk(self.fn.labels[op.name])

    def control(self, insn: Insn, nxt: int | None) -> bool:
        b = self.b
        op = insn.opcode
        cond = "true"
        if insn.guard is not None:
            cond = self.pred(insn.guard)
        fall = self._blk(nxt) if nxt is not None else None
        if op == "EXIT":
            # `@!P1 EXIT P2`: a predicate operand is a second condition, ANDed with the guard
            # (nvcc folds `if (a || b) store; return` into it).
            for extra in insn.operands:
                if not isinstance(extra, Pred):
                    raise Unsupported(f"EXIT operand {extra}")
                c2 = self.pred(extra)
                cond = c2 if cond == "true" else b.op(f"and i1 {cond}, {c2}")
            if cond == "true":
                b.emit("ret void")
                return True
            done = b.label("exit")
            b.emit(f"br i1 {cond}, label %{done}, label %{fall}")
            b.start(done)
            b.emit("ret void")
            return True
        if op == "BRA" and "CONV" in insn.mods and fall is not None:
            # BRA.CONV Rmask jumps to a fast path when the warp is converged on the mask; the
            # path it skips is the general one (a WARPSYNC.COLLECTIVE), right for converged
            # warps too, so never taking it is always right.
            b.emit(f"br label %{fall}")
            return True
        if op == "BRA":
            # BRA.DIV jumps to a general path when the warp has diverged. That path is
            # correct for converged warps too, so taking it is always right.
            target = self._target(nth(insn.operands, -1))
            for extra in insn.operands[:-1]:
                if isinstance(extra, Pred):
                    c2 = self.pred(extra)
                    cond = c2 if cond == "true" else b.op(f"and i1 {cond}, {c2}")
                elif not ("DIV" in insn.mods and isinstance(extra, Reg)):
                    raise Unsupported(f"BRA operand {extra}")
            self._jump(cond, target, fall)
            return True
        if op == "BRX":
            return self.brx(insn, cond, fall)
        if op == "ENDCOLLECTIVE":
            # sm_90's slow path for a warp-wide operation in code that may have diverged:
            # `WARPSYNC.COLLECTIVE Rmask, L; <op>; ENDCOLLECTIVE; L:`. Per thread the
            # WARPSYNC makes the lane's mask its group (mem.py) and ENDCOLLECTIVE gives the group
            # back and goes on at the collective's label.
            opener = next((i for i in reversed(self.fn.insns) if i.offset < insn.offset
                           and i.opcode == "WARPSYNC" and "COLLECTIVE" in i.mods), None)
            if opener is None:
                raise Unsupported("ENDCOLLECTIVE without a WARPSYNC.COLLECTIVE")
            target = self._target(nth(opener.operands, -1))
            if cond != "true" and fall is not None:
                done = b.label("endcoll")
                b.emit(f"br i1 {cond}, label %{done}, label %{fall}")
                b.start(done)
            self.end_collective()
            b.emit(f"br label %{target}")
            return True
        if op == "CALL":
            # A call to a subroutine of this kernel's text: a branch; its RET returns through
            # the address the caller left in a register (below). A predicated CALL is a
            # conditional one.
            if "ABS" in insn.mods:
                raise Unsupported("absolute CALL")
            label = nth(insn.operands, -1)
            if not isinstance(label, Label) or label.name not in self.fn.labels:
                raise Unsupported("CALL to a register or outside the kernel")
            target = self._target(label)
            entry = self.fn.labels[label.name]
            if self.entries is not None and entry in self.shared:
                target = block_name(entry)
            elif self.entries is not None and fall is not None:
                suffix = f"_c{len(self.copy_names)}"
                self.copy_names.append(suffix)
                self.copies.append((entry, suffix, fall))
                target = block_name(entry) + suffix
            self._jump(cond, target, fall)
            return True
        if op == "RET" and self.returns_to:  # this call site's copy: back to its return block
            self._jump(cond, self.returns_to, fall)
            return True
        if op == "RET":
            if cond != "true":
                raise Unsupported("predicated RET")
            reg = nth(insn.operands, 0)
            sites = self.return_sites
            if self.entries is not None:
                owner = max((e for e in self.shared if e <= insn.offset), default=None)
                sites = self.sites_of.get(owner, sites) if owner is not None else sites
            if not isinstance(reg, Reg) or not sites:
                raise Unsupported("RET without a return register")
            v = self.r32(reg)
            cases = " ".join(f"i32 {s}, label %{block_name(s)}" for s in sites)
            bad = b.label("badret")
            b.emit(f"switch i32 {v}, label %{bad} [ {cases} ]")
            b.start(bad)
            b.emit("unreachable")
            return True
        raise Unsupported("")

    def _jump(self, cond: str, target: str, fall: str | None) -> None:
        """A branch to `target`, under `cond` (falling through to `fall`) unless it is always taken."""
        if cond == "true" or fall is None:
            self.b.emit(f"br label %{target}")
        else:
            self.b.emit(f"br i1 {cond}, label %{target}, label %{fall}")

    def brx(self, insn: Insn, cond: str, fall: str | None) -> bool:
        """`BRX R10 -0xe10`: an indirect branch, nvcc's jump table for a `switch`. The table
        (a per-kernel constant bank, read by an LDC before) holds offsets into the kernel's
        text; the target is Rn (its 64-bit pair; the upper word is the sign) plus the
        immediate plus the address of the next instruction. nvdisasm names the possible
        targets in a note; the branch becomes an LLVM `switch` over their offsets (any other
        value would be a jump into the middle of nowhere: unreachable)."""
        b = self.b
        ops = insn.operands
        if not ops or not isinstance(ops[0], Reg) or ops[0].zero or len(ops) > 2:
            raise Unsupported(f"BRX operands {insn.text}")
        disp = 0
        if len(ops) == 2:
            if not isinstance(ops[1], Imm) or ops[1].is_float:
                raise Unsupported(f"BRX operand {ops[1]}")
            disp = int(ops[1].value)
        names = insn.targets or tuple(self.fn.labels)  # no note: every label is a candidate
        offsets = sorted({self.fn.labels[n] for n in names if n in self.fn.labels})
        if not offsets or len(offsets) < len(set(insn.targets)):
            raise Unsupported("BRX target not at a label")
        if cond != "true" and fall is not None:
            go = b.label("brx")
            b.emit(f"br i1 {cond}, label %{go}, label %{fall}")
            b.start(go)
        v = self.r32(ops[0])
        target = b.op(f"add i32 {v}, {i32(disp + insn.offset + 16)}")
        cases = " ".join(f"i32 {o}, label %{self._blk(o)}" for o in offsets)
        bad = b.label("badbrx")
        b.emit(f"switch i32 {target}, label %{bad} [ {cases} ]")
        b.start(bad)
        b.emit("unreachable")
        return True


def _refusal(insn: Insn, e: Unsupported) -> str:
    """How LiftError names an instruction the lifter refused: with its operand text when the
    operands are of a form its handler does not read, else with the reason, else by its opcode
    and modifiers."""
    if isinstance(e, UnsupportedOperands):
        return f"{insn.opcode} (operands: {insn.text})"
    return f"{insn.opcode} ({e})" if str(e) else insn.full


def lift_kernel(kernel: Kernel, fn: Function, cubin: Cubin, spaces: Spaces) -> Lifted:
    """Raises LiftError naming every unsupported opcode."""
    return Lifter(kernel, fn, cubin.sm, cubin.cbanks, spaces, cubin.cbank_relocs, cubin.global_sections).lift()
