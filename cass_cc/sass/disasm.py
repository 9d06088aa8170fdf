"""SASS text from nvdisasm, parsed into instructions.

nvdisasm prints one section per kernel (`.section .text.<k>`), labels on their own lines
(`.L_x_12:`, `$__internal_0_$__cuda_sm20_sqrt_rn_f32_slowpath:`) and one instruction a line:

        /*0090*/              @!P0 LDG.E R0, desc[UR4][R2.64+0x10] ;

Operands are parsed into small records (Reg, Pred, Imm, CBank, Mem, Label, Special); the
lifter never sees text again.
"""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Union

from ..toolchain.tool import ToolTimeout, run_tool
from ..util import split_top_level


class DisasmError(Exception):
    pass


@dataclass(frozen=True)
class Reg:
    """R5, UR4, RZ, URZ. `neg` is arithmetic negation (-R5), `inv` bitwise (~R5), `abs` |R5|."""

    name: str
    uniform: bool = False
    neg: bool = False
    inv: bool = False
    abs: bool = False
    half: str = ""  # .H0/.H1 halves, .H0_H0, .F32 for half-precision operands

    @property
    def zero(self) -> bool:
        return self.name in ("RZ", "URZ")

    @property
    def index(self) -> int:
        return 255 if self.zero else int(self.name.lstrip("UR"))


@dataclass(frozen=True)
class Pred:
    """P0..P6, PT, UP0..UP6, UPT, optionally negated."""

    name: str
    neg: bool = False

    @property
    def true(self) -> bool:
        return self.name in ("PT", "UPT")


@dataclass(frozen=True)
class Imm:
    value: int | float
    is_float: bool = False
    neg: bool = False
    abs: bool = False
    # a NaN's 32 bits (printed only as QNAN): from the encoding's bits 32-63 (nvdisasm -hex),
    # where every 32-bit immediate sits; a double's immediate is its upper word
    bits: int | None = None


@dataclass(frozen=True)
class CBank:
    """c[0x0][0x160], c[0x0][R4+0x160], c[0x3][UR4+0x8]."""

    bank: int
    offset: int
    index: Reg | None = None
    neg: bool = False
    inv: bool = False
    abs: bool = False


@dataclass(frozen=True)
class Mem:
    """[R2.64+0x10], [R7.X4+0x10], [R1+UR4], desc[UR4][R2.64]."""

    base: Reg | None
    wide: bool = False  # .64: a 64-bit register pair
    scale: int = 1  # .X4 / .X8 / .X16
    ureg: Reg | None = None
    offset: int = 0
    desc: Reg | None = None


@dataclass(frozen=True)
class Label:
    name: str


@dataclass(frozen=True)
class Special:
    """SR_TID.X, SR_LANEID, B0 (convergence barrier), SB0 ... anything else named."""

    name: str


Operand = Union[Reg, Pred, Imm, CBank, Mem, Label, Special]


@dataclass
class Insn:
    offset: int
    opcode: str
    mods: tuple[str, ...]
    operands: list[Operand]
    guard: Pred | None = None
    text: str = ""
    # BRX's possible targets, from nvdisasm's note `(*"BRANCH_TARGETS .L_x_1,.L_x_2"*)`
    targets: tuple[str, ...] = ()

    @property
    def full(self) -> str:
        return ".".join((self.opcode,) + self.mods)


@dataclass
class Function:
    """One kernel's text section: instructions in address order and label addresses."""

    name: str
    insns: list[Insn] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)  # label -> instruction offset

    def at(self, offset: int) -> int:
        """Index of the instruction at `offset`."""
        for i, insn in enumerate(self.insns):
            if insn.offset >= offset:
                return i
        return len(self.insns)


_LINE = re.compile(r"^\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;?\s*$")
_HEX = re.compile(r"\s*/\*\s*(0x[0-9a-f]{16})\s*\*/\s*$")  # -hex: the encoding's first 64 bits
_LABEL = re.compile(r"^(\S+):\s*$")
_GUARD = re.compile(r"^@(!?)(U?P[0-6T])\s+")
_REG = re.compile(r"^(U?R(?:Z|\d+))((?:\.[A-Za-z0-9_]+)*)$")
_PRED = re.compile(r"^(U?P(?:T|[0-6]))$")
_CBANK = re.compile(r"^c\[(0x[0-9a-f]+)\]\[(.*)\]$")
_NUM = re.compile(r"^-?0x[0-9a-f]+$")
_FLOAT = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?(?:e[+-]?\d+)?|INF|QNAN|NAN)$", re.I)


def _split_operands(text: str) -> list[str]:
    return split_top_level(text, "[(", "])")


def _int(text: str) -> int:
    return int(text, 16) if "0x" in text else int(text)


def _parse_reg(text: str) -> Reg | None:
    neg = inv = absval = False
    if text.startswith("-"):
        neg, text = True, text[1:]
    if text.startswith("~"):
        inv, text = True, text[1:]
    if text.startswith("|") and text.endswith("|"):
        absval, text = True, text[1:-1]
    elif text.startswith("|") and "|" in text[1:]:  # |R0|.reuse
        end = text.index("|", 1)
        absval, text = True, text[1:end] + text[end + 1 :]
    m = _REG.match(text)
    if not m:
        return None
    suffixes = [s for s in m.group(2).split(".") if s and s != "reuse"]
    half = ".".join(s for s in suffixes if s.startswith(("H0", "H1", "F32", "B")))
    return Reg(m.group(1), m.group(1).startswith("U"), neg, inv, absval, half)


def _parse_mem(text: str) -> Mem:
    desc = None
    m = re.match(r"^desc\[(UR\d+)\](\[.*\])$", text)
    if m:
        desc = Reg(m.group(1), True)
        text = m.group(2)
    inner = text[1:-1]
    regs: list[tuple[Reg, list[str]]] = []
    offset = 0
    for part in inner.split("+"):
        part = part.strip()
        if not part:
            continue
        if _NUM.match(part) or re.match(r"^-?\d+$", part):
            offset += _int(part)
            continue
        names = part.split(".")
        if not re.match(r"^U?R(Z|\d+)$", names[0]):
            raise DisasmError(f"cannot parse address {text!r}")
        regs.append((Reg(names[0], names[0].startswith("U")), names[1:]))
    plain = [r for r in regs if not r[0].uniform]
    uniform = [r for r in regs if r[0].uniform]
    if len(plain) > 1 or len(uniform) > 1 + (0 if plain else 1):
        raise DisasmError(f"cannot parse address {text!r}")
    base_entry = plain[0] if plain else (uniform.pop(0) if uniform else None)
    ureg = uniform[0][0] if uniform else None
    base = base_entry[0] if base_entry else None
    wide = False
    scale = 1
    for mod in base_entry[1] if base_entry else []:
        if mod == "64":
            wide = True
        elif mod.startswith("X") and mod[1:].isdigit():
            scale = int(mod[1:])
        elif mod not in ("U32", "reuse"):
            raise DisasmError(f"unknown address modifier .{mod} in {text!r}")
    return Mem(base, wide, scale, ureg, offset, desc)


def parse_operand(text: str) -> Operand:
    t = text.strip()
    if t.startswith("`(") and t.endswith(")"):
        return Label(t[2:-1])
    if t.startswith("desc[") or t.startswith("["):
        return _parse_mem(t)
    neg = t.startswith("-") and not _NUM.match(t) and not _FLOAT.match(t)
    inv = t.startswith("~")
    body = t[1:] if (neg or inv) else t
    absval = False
    if body.startswith("|") and body.endswith("|"):
        absval, body = True, body[1:-1]
    m = _CBANK.match(body)
    if m:
        inner = m.group(2)
        index = None
        offset = 0
        for part in inner.split("+"):
            part = part.strip()
            if not part:
                continue
            if part.startswith(("R", "UR")):
                name = part.split(".")[0]
                index = None if name in ("RZ", "URZ") else Reg(name, part.startswith("U"))
            else:
                offset += _int(part)
        return CBank(_int(m.group(1)), offset, index, neg, inv, absval)
    p = t[1:] if t.startswith("!") else t
    if _PRED.match(p):
        return Pred(p, t.startswith("!"))
    reg = _parse_reg(t)
    if reg is not None:
        return reg
    if _NUM.match(t):
        return Imm(_int(t))
    if _FLOAT.match(t) or re.match(r"^[+-]?\d+\.\d*e[+-]?\d+$", t):
        u = t.upper().lstrip("+")
        if u in ("INF",):
            return Imm(float("inf"), True)
        if u == "-INF":
            return Imm(float("-inf"), True)
        if u.lstrip("-") in ("QNAN", "NAN"):
            return Imm(float("nan"), True)
        if re.match(r"^-?\d+$", t):
            return Imm(float(int(t)), True)
        return Imm(float(t), True)
    m2 = re.match(r"^-?\|(.*)\|$", t)
    if m2 and _FLOAT.match(m2.group(1)):
        inner = parse_operand(m2.group(1))
        assert isinstance(inner, Imm)
        return Imm(inner.value, True, t.startswith("-"), True)
    return Special(t)


# nvdisasm's notes after the operands: `STL.128 [R1+0x950], R212   (*"SpillRefill"*)`
_NOTE = re.compile(r'\s*\(\*.*?\*\)')
_TARGETS = re.compile(r'\(\*"BRANCH_TARGETS\s+([^"]*)"\*\)')


def parse_insn(offset: int, text: str, encoding: int | None = None) -> Insn:
    """One instruction's text; `encoding` (the first 64 bits, from nvdisasm -hex) gives the
    bits of a NaN immediate, which the text prints as QNAN whatever its payload and sign."""
    guard = None
    m = _GUARD.match(text)
    body = text
    if m:
        guard = Pred(m.group(2), m.group(1) == "!")
        body = text[m.end() :]
    tm = _TARGETS.search(body)
    targets = tuple(t.strip() for t in tm.group(1).split(",") if t.strip()) if tm else ()
    body = _NOTE.sub("", body).rstrip(" ;")
    parts = body.split(None, 1)
    names = parts[0].split(".")
    texts = _split_operands(parts[1]) if len(parts) > 1 else []
    # `RET.REL.NODEC R2 \`(_Z4divk)`: the return-address register, then the function.
    texts = [t for o in texts for t in ((o.split(" `(", 1)[0], "`(" + o.split(" `(", 1)[1]) if " `(" in o else (o,))]
    if names[0] in ("BRX", "JMX") and len(texts) == 1 and " " in texts[0]:
        texts = texts[0].split()  # `BRX R10 -0xe10`: the register, then a displacement
    operands = [parse_operand(o) for o in texts]
    if encoding is not None:
        operands = [replace(o, bits=encoding >> 32 & 0xFFFFFFFF) if isinstance(o, Imm) and o.is_float and o.value != o.value else o
                    for o in operands]
    return Insn(offset, names[0], tuple(names[1:]), operands, guard, text.rstrip(" ;"), targets)


def parse(text: str) -> dict[str, Function]:
    """nvdisasm's text -> {kernel section name: Function}."""
    functions: dict[str, Function] = {}
    current: Function | None = None
    pending: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith(".section") and not line.startswith(".sectioninfo"):
            m = re.match(r"\.section\s+\.text\.([^,\s]+)", line)
            current = None
            if m:
                current = functions.setdefault(m.group(1), Function(m.group(1)))
            pending = []
            continue
        if current is None or not line or line.startswith("//"):
            continue
        h = _HEX.search(raw)
        m = _LINE.match(raw[: h.start()] if h else raw)
        if m:
            insn = parse_insn(int(m.group(1), 16), m.group(2), int(h.group(1), 16) if h else None)
            for lab in pending:
                current.labels[lab] = insn.offset
            pending = []
            current.insns.append(insn)
            continue
        m = _LABEL.match(line)
        if m:
            pending.append(m.group(1))
    return functions


def disassemble(cubin: bytes, nvdisasm: str) -> dict[str, Function]:
    with tempfile.TemporaryDirectory(prefix="cass-sass-") as tmp:
        path = Path(tmp) / "in.cubin"
        path.write_bytes(cubin)
        try:  # bounded: nvdisasm never returns on some damaged cubins
            proc = run_tool([nvdisasm, "-c", "-hex", str(path)], text=True, errors="replace")
        except ToolTimeout as e:
            raise DisasmError(str(e)) from None
    if proc.returncode != 0:
        msg = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        raise DisasmError(f"nvdisasm: {msg}")
    return parse(proc.stdout)
