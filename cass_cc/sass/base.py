"""The lifter's state: SASS registers as allocas, operands read and written, constant banks."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .cubin import Kernel
from .disasm import CBank, Function, Imm, Operand, Pred, Reg
from .ir import Builder, f32_hex, f64_hex, i32


class LiftError(Exception):
    """The lifter cannot cover this kernel; `unsupported` names each opcode (or form)."""

    def __init__(self, kernel: str, unsupported: list[str]):
        self.kernel = kernel
        self.unsupported = sorted(set(unsupported))
        super().__init__(f"{kernel}: unsupported SASS: {', '.join(self.unsupported)}")


class Unsupported(Exception):
    pass


class UnsupportedOperands(Unsupported):
    """The operands or modifiers are not of a form the instruction's handler reads (fewer
    operands than it takes, a non-register where it writes a register, none of the modifiers
    it chooses among): LiftError names the instruction with its operand text."""


def take(ops: Sequence[Operand], n: int) -> list[Operand]:
    """The first n operands; UnsupportedOperands when there are fewer."""
    if len(ops) < n:
        raise UnsupportedOperands()
    return list(ops[:n])


def nth(ops: Sequence[Operand], i: int) -> Operand:
    """ops[i] (from the end when i < 0); UnsupportedOperands when there is none."""
    if not -len(ops) <= i < len(ops):
        raise UnsupportedOperands()
    return ops[i]


def imm_int(op: Imm) -> int:
    """An immediate read as an integer (a shift, a LUT, a mask), a float one truncated as int()
    does; UnsupportedOperands for NaN or an infinity, which have none."""
    if isinstance(op.value, float) and not math.isfinite(op.value):
        raise UnsupportedOperands()
    return int(op.value)


def modifier(mods: Sequence[str], table: Mapping[str, object]) -> str:
    """The first of `mods` that `table` has; UnsupportedOperands when none is there (ISETP.T:
    a comparison the table lacks)."""
    for m in mods:
        if m in table:
            return m
    raise UnsupportedOperands()


@dataclass(frozen=True)
class Spaces:
    """LLVM address spaces and atomic scopes of the target the IR is for."""

    glob: int = 0
    shared: int = 0
    local: int = 0
    param: int = 0
    const: int = 0
    agent_scope: str = ""  # syncscope for device-wide atomics ("" = system)
    block_scope: str = ""
    # 64/128-bit loads and stores as <2/4 x i32> vectors instead of i64/i128 integers
    # (the NVPTX check: ptxas misplaces 32-bit halves when it packs i128 stores into u64s)
    vector_wide: bool = False


@dataclass
class Lifted:
    name: str
    body: str  # the function definition
    globals: list[str] = field(default_factory=list)
    runtime: set[str] = field(default_factory=set)  # @__cass_* functions it calls
    opcodes: set[str] = field(default_factory=set)
    local_size: int = 0
    shared_size: int = 0  # static bytes as the target allocates them (dynamic ones follow)
    recursive: bool = False  # a subroutine calls itself: the stack is CUDA's default size


CONTROL = {"BRA", "EXIT", "RET", "CALL", "BRX", "JMP", "JMX", "ENDCOLLECTIVE"}
NOOPS = {"NOP", "BREAK", "DEPBAR", "YIELD", "ERRBAR", "CGAERRBAR", "CCTL", "CCTLL", "FENCE", "BMOV", "UCGABAR_ARV", "UCGABAR_WAIT", "PMTRIG", "NANOSLEEP"}

# Constant bank 0 slots below the parameters that nvcc-compiled kernels read.
NTID = {0x0: 0, 0x4: 1, 0x8: 2}
NCTAID = {0xC: 0, 0x10: 1, 0x14: 2}
LOCAL_TOP = 0x28  # the local-memory window's top: the initial stack pointer
# Generic (flat) addresses of shared and local memory: nvcc forms them from the 64-bit
# window bases in c[0x0][0x18] (shared) and c[0x0][0x20] (local), or on sm_90 from
# SR_SWINHI over the 32-bit shared address. The lifter gives each window a base whose
# upper word no real global address has (x86-64 and amdgcn user addresses stay below
# 2^48), with a zero lower word, so `hi:lo` names window `hi` at offset `lo`; generic
# loads, stores and atomics turn such an address back into a pointer into the block's
# shared memory or the thread's local buffer (mem.py).
SHARED_WINDOW_HI = 0xFFFE0000
LOCAL_WINDOW_HI = 0xFFFF0000
WINDOWS = {0x18: 0, 0x1C: SHARED_WINDOW_HI, 0x20: 0, 0x24: LOCAL_WINDOW_HI}


def desc_slot(sm: int) -> int:
    """The 64-bit global-memory descriptor (`desc[URx]`); its value is irrelevant here."""
    return 0x208 if sm >= 90 else 0x118


def shared_reserved(sm: int) -> int:
    """sm_90+ kernels see 1 KiB of reserved shared memory at the start of their window."""
    return 0x400 if sm >= 90 else 0


CUDA_DEFAULT_STACK = 1024  # bytes per thread: cudaLimitStackSize's default


def calls_recursively(fn: "Function") -> bool:
    """Does a subroutine of the kernel's text call itself, directly or through others? Each CALL
    belongs to the subroutine whose entry (a CALL target) is the nearest at or before it; the
    kernel's own code starts at offset 0."""
    entries = sorted({fn.labels[op.name] for insn in fn.insns if insn.opcode == "CALL"
                      for op in insn.operands[-1:] if getattr(op, "name", None) in fn.labels})
    if not entries:
        return False
    edges: dict[int, set[int]] = {}
    for insn in fn.insns:
        if insn.opcode != "CALL" or getattr(insn.operands[-1], "name", None) not in fn.labels:
            continue
        caller = max((e for e in entries if e <= insn.offset), default=0)
        edges.setdefault(caller, set()).add(fn.labels[insn.operands[-1].name])  # type: ignore[union-attr]
    state: dict[int, int] = {}  # 1: on the current path, 2: done

    def cycle(node: int) -> bool:
        state[node] = 1
        for nxt in edges.get(node, ()):
            if state.get(nxt) == 1 or (nxt not in state and cycle(nxt)):
                return True
        state[node] = 2
        return False

    return any(cycle(e) for e in [0, *entries] if e not in state)


class LifterBase:
    """Registers, operands and constant banks; alu.py and mem.py add the instructions."""

    def __init__(
        self, kernel: Kernel, fn: Function, sm: int, cbanks: dict[int, bytes], spaces: Spaces,
        relocs: dict[int, list[tuple[int, int, str, int]]] | None = None, global_sections: dict[str, tuple[bytes, int]] | None = None,
    ):
        self.kernel = kernel
        self.fn = fn
        self.sm = sm
        self.cbanks = cbanks
        self.sp = spaces
        self.b = Builder()
        self.regs: set[str] = set()  # alloca names: r5, ur4, p0, up1
        self.runtime: set[str] = set()
        self.globals: list[str] = []
        self.used_cbanks: set[int] = set()
        self.relocs = relocs or {}
        self.global_sections = global_sections or {}
        reserved = shared_reserved(sm)
        self.shared_size = max(kernel.shared_size - reserved, 0) if kernel.shared_size else 0
        self.local_size = max(16, (max(kernel.frame_size, kernel.min_stack_size) + 15) & ~15)
        self.recursive = calls_recursively(fn)
        if self.recursive:  # depth unknown: CUDA's own per-thread stack then (cudaLimitStackSize's default)
            self.local_size = max(self.local_size, CUDA_DEFAULT_STACK)
        self.uses_local = False
        # which windows a generic address may point into: those whose base the kernel reads
        self.shared_window = self.local_window = False
        for insn in fn.insns:
            for op in insn.operands:
                if isinstance(op, CBank) and op.bank == 0 and op.index is None:
                    self.shared_window |= op.offset in (0x18, 0x1C)
                    self.local_window |= op.offset in (0x20, 0x24)
                elif getattr(op, "name", "") == "SR_SWINHI":
                    self.shared_window = True

    # ---- registers ------------------------------------------------------------------
    def _slot(self, reg: Reg, delta: int = 0) -> str | None:
        if not isinstance(reg, Reg):
            raise UnsupportedOperands()
        if reg.zero:
            return None
        idx = reg.index + delta
        name = f"{'ur' if reg.uniform else 'r'}{idx}"
        self.regs.add(name)
        return f"%{name}"

    def r32(self, reg: Reg, delta: int = 0) -> str:
        slot = self._slot(reg, delta)
        if slot is None:
            return "0"
        return self.b.op(f"load i32, ptr {slot}")

    def wr(self, reg: Reg, value: str, delta: int = 0) -> None:
        slot = self._slot(reg, delta)
        if slot is not None:
            self.b.emit(f"store i32 {value}, ptr {slot}")

    def wr64(self, reg: Reg, value: str) -> None:
        if not isinstance(reg, Reg):
            raise UnsupportedOperands()
        if reg.zero:
            return
        lo, hi = self.b.split(value)
        self.wr(reg, lo)
        self.wr(reg, hi, 1)

    def wrf(self, reg: Reg, value: str) -> None:
        self.wr(reg, self.b.from_float(value))

    def wrd(self, reg: Reg, value: str) -> None:
        self.wr64(reg, self.b.op(f"bitcast double {value} to i64"))

    def pred(self, p: Operand) -> str:
        if not isinstance(p, Pred):
            raise Unsupported(f"predicate operand {p}")
        if p.true:
            return "false" if p.neg else "true"
        name = p.name.lower()
        self.regs.add(name)
        v = self.b.op(f"load i1, ptr %{name}")
        return self.b.op(f"xor i1 {v}, true") if p.neg else v

    def wp(self, p: Operand, value: str) -> None:
        if not isinstance(p, Pred):
            raise Unsupported(f"predicate destination {p}")
        if p.true:
            return
        name = p.name.lower()
        self.regs.add(name)
        self.b.emit(f"store i1 {value}, ptr %{name}")

    # ---- sources ----------------------------------------------------------------------
    def raw(self, op: Operand, delta: int = 0) -> str:
        """The 32 bits of a source, without modifiers."""
        if isinstance(op, Reg):
            return self.r32(op, delta)
        if isinstance(op, Imm):
            if op.is_float:
                raise Unsupported("float immediate in an integer operand")
            return i32(op.value >> (32 * delta)) if delta else i32(int(op.value))
        if isinstance(op, CBank):
            return self.cbank32(op, 4 * delta)
        raise Unsupported(f"operand {type(op).__name__}")

    def ival(self, op: Operand) -> str:
        v = self.raw(op)
        sel = getattr(op, "half", "")
        if sel in ("B1", "B2", "B3"):  # a byte select (R2P PR, R6.B1, ...): that byte at bit 0
            v = self.b.op(f"lshr i32 {v}, {8 * int(sel[1])}")
        if getattr(op, "inv", False):
            v = self.b.op(f"xor i32 {v}, -1")
        if getattr(op, "neg", False):
            v = self.b.op(f"sub i32 0, {v}")
        return v

    def fval(self, op: Operand, ftz: bool = False) -> str:
        if isinstance(op, Imm):
            if op.bits is not None:  # a NaN: its own bits, not the canonical one
                v = self.b.as_float(i32(op.bits))
            elif op.is_float:
                v = f32_hex(float(op.value))
            else:
                v = self.b.as_float(i32(int(op.value)))
        else:
            v = self.b.as_float(self.raw(op))
            if ftz:
                v = self.ftz(v)
        if getattr(op, "abs", False):
            v = self.b.op(f"call float @llvm.fabs.f32(float {v})")
        if getattr(op, "neg", False):
            v = self.b.op(f"fneg float {v}")
        return v

    def ftz(self, v: str) -> str:
        """Flush a float denormal to a zero of the same sign."""
        a = self.b.op(f"call float @llvm.fabs.f32(float {v})")
        small = self.b.op(f"fcmp olt float {a}, 0x3810000000000000")
        z = self.b.op(f"call float @llvm.copysign.f32(float 0.0, float {v})")
        return self.b.select(small, "float", z, v)

    def i64val(self, op: Operand) -> str:
        if isinstance(op, Reg):
            if op.zero:
                return "0"
            v = self.b.pair(self.r32(op), self.r32(op, 1))
        elif isinstance(op, Imm):
            if op.is_float:
                raise Unsupported("float immediate in a 64-bit integer operand")
            # The encoding holds 32 bits; like a double's, they are the upper word (ptxas writes
            # cvt.rn.f32.u64 of 0x2a00000000000000 as I2F.U64 R, 0x2a000000).
            hi = (int(op.value) & 0xFFFFFFFF) << 32
            return str(hi - (1 << 64) if hi >> 63 else hi)
        elif isinstance(op, CBank):
            v = self.b.pair(self.cbank32(op), self.cbank32(op, 4))
        else:
            raise Unsupported(f"64-bit operand {type(op).__name__}")
        if getattr(op, "inv", False):
            v = self.b.op(f"xor i64 {v}, -1")
        if getattr(op, "neg", False):
            v = self.b.op(f"sub i64 0, {v}")
        return v

    def dval(self, op: Operand) -> str:
        if isinstance(op, Imm):
            if op.bits is not None:  # a NaN: the upper word's bits
                v = self.b.op(f"bitcast i64 {int(i32(op.bits)) << 32} to double")
            elif op.is_float:
                v = f64_hex(float(op.value))
            else:  # a hex immediate holds the upper 32 bits of the double
                v = self.b.op(f"bitcast i64 {(int(op.value) & 0xFFFFFFFF) << 32} to double")
        else:
            if isinstance(op, Reg) and op.zero:
                v = "0.0"
            else:
                lo, hi = (self.raw(op), self.raw(op, 1)) if not isinstance(op, Reg) else (self.r32(op), self.r32(op, 1))
                v = self.b.op(f"bitcast i64 {self.b.pair(lo, hi)} to double")
        if getattr(op, "abs", False):
            v = self.b.op(f"call double @llvm.fabs.f64(double {v})")
        if getattr(op, "neg", False):
            v = self.b.op(f"fneg double {v}")
        return v

    # ---- constant banks -----------------------------------------------------------------
    def cbank32(self, cb: CBank, extra: int = 0) -> str:
        off = cb.offset + extra
        if cb.bank != 0:
            return self._user_cbank(cb, off)
        k = self.kernel
        if cb.index is not None:
            # An indexed read (c[0x0][R3+0x158]): the index brings it into the parameters,
            # whatever the printed offset (arrays in by-value structs are indexed from below).
            if off >= k.param_base + max(k.param_size, 4):
                raise Unsupported("indexed read of c[0x0] above the parameters")
            idx = self.r32(cb.index)
            rel = self.b.op(f"add i32 {idx}, {off - k.param_base}")
            return self._param_load(self.b.op(f"zext i32 {rel} to i64"))
        if k.param_base <= off < k.param_base + max(k.param_size, 4):
            return self._param_load(str(off - k.param_base))
        if off in NTID:
            return self.rt("i32", "__cass_ntid", f"i32 {NTID[off]}")
        if off in NCTAID:
            return self.rt("i32", "__cass_nctaid", f"i32 {NCTAID[off]}")
        if off == LOCAL_TOP:
            self.uses_local = True
            return str(self.local_size)
        if off in WINDOWS:
            if off >= 0x20:
                self.uses_local = True
            return i32(WINDOWS[off])
        if off in (desc_slot(self.sm), desc_slot(self.sm) + 4):
            return "0"
        raise Unsupported(f"c[0x0][{off:#x}]")

    def cbank_narrow(self, cb: CBank, bits: int, signed: bool) -> str:
        """An 8- or 16-bit read of the parameters or a user constant bank, extended to 32 bits."""
        k = self.kernel
        off = cb.offset
        idx = None
        if cb.index is not None:
            idx = self.r32(cb.index)
        if cb.bank == 0:
            if cb.index is None and not (k.param_base <= off < k.param_base + k.param_size):
                raise Unsupported(f"{bits}-bit read of c[0x0][{off:#x}]")
            space, base, rel = self.sp.param, "%params", off - k.param_base
        else:
            self._user_cbank(cb, off)  # declares the bank's global
            space = self.sp.const
            base = f'@"__cass_cbank{cb.bank}.{k.name}"' if cb.bank in k.cbanks else f"@__cass_cbank{cb.bank}"
            rel = off
        o = str(rel) if idx is None else self.b.op(f"zext i32 {self.b.op(f'add i32 {idx}, {rel}')} to i64")
        ptr = self.b.op(f"getelementptr i8, ptr addrspace({space}) {base}, i64 {o}")
        v = self.b.op(f"load i{bits}, ptr addrspace({space}) {ptr}, align {bits // 8}")
        return self.b.op(f"{'sext' if signed else 'zext'} i{bits} {v} to i32")

    def _param_load(self, offset: str) -> str:
        p = self.b.op(f"getelementptr i8, ptr addrspace({self.sp.param}) %params, i64 {offset}")
        return self.b.op(f"load i32, ptr addrspace({self.sp.param}) {p}, align 4")

    def _user_cbank(self, cb: CBank, off: int) -> str:
        if cb.bank in self.kernel.cbanks:
            name = f'@"__cass_cbank{cb.bank}.{self.kernel.name}"'
            if cb.bank not in self.used_cbanks:
                self.globals.append(self._cbank_global(name, self.kernel.cbanks[cb.bank], []))
        elif cb.bank in self.cbanks:
            name = f"@__cass_cbank{cb.bank}"
            if cb.bank not in self.used_cbanks:
                self.globals.append(self._cbank_global(name, self.cbanks[cb.bank], self.relocs.get(cb.bank, [])))
        else:
            raise Unsupported(f"c[{cb.bank:#x}] (no .nv.constant{cb.bank})")
        self.used_cbanks.add(cb.bank)
        if cb.index is not None:
            idx = self.r32(cb.index)
            rel = self.b.op(f"add i32 {idx}, {off}")
            o = self.b.op(f"zext i32 {rel} to i64")
        else:
            o = str(off)
        p = self.b.op(f"getelementptr i8, ptr addrspace({self.sp.const}) {name}, i64 {o}")
        return self.b.op(f"load i32, ptr addrspace({self.sp.const}) {p}, align 4")

    def _cbank_global(self, name: str, data: bytes, relocs: list[tuple[int, int, str, int]]) -> str:
        """A constant bank as a global; 64-bit relocations become pointers to the device
        globals they name (e.g. sinf's reduction table in .nv.global.init)."""

        def bytes_field(chunk: bytes) -> tuple[str, str]:
            return f"[{len(chunk)} x i8]", "[" + ", ".join(f"i8 {x}" for x in chunk) + "]"

        gptr = f"ptr addrspace({self.sp.glob})"
        fields: list[tuple[str, str]] = []
        pos = 0
        for off, rtype, section, value in sorted(relocs):
            if rtype != 2 or section not in self.global_sections:  # 2: R_CUDA_64
                raise Unsupported(f"relocation type {rtype} to {section} in a constant bank")
            if off > pos:
                fields.append(bytes_field(data[pos:off]))
            addend = int.from_bytes(data[off : off + 8], "little") + value
            gname = "@__cass" + section.replace(".", "_")
            init, size = self.global_sections[section]
            self.globals.append(
                f"{gname} = linkonce_odr addrspace({self.sp.glob}) global [{size} x i8] "
                + (bytes_field(init)[1] if init else "zeroinitializer")
                + ", align 16"
            )
            fields.append((gptr, f"getelementptr (i8, {gptr} {gname}, i64 {addend})"))
            pos = off + 8
        if pos < len(data):
            fields.append(bytes_field(data[pos:]))
        if not relocs:
            body = f"[{len(data)} x i8] " + (bytes_field(data)[1] if data else "zeroinitializer")
        else:
            types = ", ".join(t for t, _ in fields)
            vals = ", ".join(f"{t} {v}" for t, v in fields)
            body = f"<{{ {types} }}> <{{ {vals} }}>"
        return f"{name} = linkonce_odr addrspace({self.sp.const}) global {body}, align 16"

    # ---- runtime --------------------------------------------------------------------------
    def rt(self, ret: str, name: str, args: str = "", convergent: bool = False) -> str:
        self.runtime.add(name)
        return self.b.call(ret, f"@{name}", args, " #1" if convergent else "")
