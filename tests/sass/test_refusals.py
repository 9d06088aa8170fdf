"""What the lifter refuses and how LiftError names it, one instruction at a time (no nvcc):
an operand form a handler does not read is named with the instruction's text, any other
refusal with its reason; a Python error inside a handler is a bug and is not a refusal."""
from __future__ import annotations

import pytest

from cass_cc.sass.base import LiftError, Spaces
from cass_cc.sass.cubin import Cubin, Kernel, Param
from cass_cc.sass.disasm import Function, parse_insn
from cass_cc.sass.lift import Lifter, lift_kernel

KERNEL = Kernel("k", "k(int*)", b"", [Param(0, 0, 8)], param_base=0x160, param_size=8)


def lift_one(text: str):  # type: ignore[no-untyped-def]
    fn = Function("k", [parse_insn(0, text), parse_insn(16, "EXIT")])
    return lift_kernel(KERNEL, fn, Cubin("k.cubin", 89, [KERNEL]), Spaces())


@pytest.mark.parametrize("text, named", [
    # operands of a form the handler does not read: the instruction's own text
    ("IADD3 R1", "IADD3 (operands: IADD3 R1)"),  # an adder with no sources
    ("FADD R1, R2", "FADD (operands: FADD R1, R2)"),  # one operand short
    ("MOV 0x1, R2", "MOV (operands: MOV 0x1, R2)"),  # an immediate as the destination
    ("ISETP.XX.U32.AND P3, PT, R15, R12, PT", "ISETP (operands: ISETP.XX.U32.AND P3, PT, R15, R12, PT)"),  # no comparison it knows
    ("CALL.REL.NOINC", "CALL (operands: CALL.REL.NOINC)"),  # no target
    ("S2R R1, SR_TID.W", "S2R (operands: S2R R1, SR_TID.W)"),
    ("PLOP3.LUT P0, PT, PT, PT, PT", "PLOP3 (operands: PLOP3.LUT P0, PT, PT, PT, PT)"),  # no LUT
    ("LOP3.LUT R0, R1, R2, RZ, QNAN, !PT", "LOP3 (operands: LOP3.LUT R0, R1, R2, RZ, QNAN, !PT)"),  # a LUT with no integer
    ("LEA R4, R0, R2, +INF", "LEA (operands: LEA R4, R0, R2, +INF)"),
    ("HFMA2 R0, -RZ, RZ, 1.5", "HFMA2 (operands: HFMA2 R0, -RZ, RZ, 1.5)"),  # an immediate without its other half
    ("RET.REL.NODEC", "RET (operands: RET.REL.NODEC)"),
    ("BRA", "BRA (operands: BRA)"),
    # refusals with a reason, or by opcode and modifiers
    ("LDG.E R1, R2", "LDG (no address operand)"),
    ("LEA R4, R0, R2, R3", "LEA (LEA with a register shift)"),
    ("FOO.BAR R1, R2", "FOO.BAR"),
    ("CALL.REL.NOINC R4", "CALL (CALL to a register or outside the kernel)"),
])
def test_refusal_names_the_instruction(text: str, named: str) -> None:
    with pytest.raises(LiftError) as e:
        lift_one(text)
    assert e.value.unsupported == [named]


def test_a_known_form_lifts() -> None:
    assert "add i64" in lift_one("IADD3 R1, R2, R3, RZ").body


@pytest.mark.parametrize("cmp, value", [("T", "true"), ("F", "false")])
def test_isetp_always_true_or_false(cmp: str, value: str) -> None:
    """ISETP.T / ISETP.F compare nothing: P3 is the constant (combined with the last predicate)."""
    body = lift_one(f"ISETP.{cmp}.U32.AND P3, PT, R15, R12, PT").body
    assert f"%t4 = and i1 {value}, true\n  store i1 %t4, ptr %p3" in body and "icmp" not in body


def test_an_error_inside_a_handler_is_a_bug_not_a_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Lifter, insn: object) -> None:
        raise IndexError("a lifter bug")

    monkeypatch.setattr(Lifter, "op_IADD3", broken)
    with pytest.raises(IndexError, match="a lifter bug"):
        lift_one("IADD3 R1, R2, R3, RZ")
