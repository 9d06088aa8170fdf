"""Pseudocode that calls a helper or another instruction (issue 21, found by cass-data fuzz: clang's
v_maxmin_f32 faulted with "module 'rt' has no attribute fn_v_min_f32"). Every opcode either has all
it calls or is Uncovered by name when first used, never an AttributeError in the middle of a kernel."""
from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu.semantics import Uncovered, semantics


def _opcodes():
    from tinygrad.runtime.autogen.amd.rdna3.str_pcode import PCODE

    return list(PCODE)


def test_every_opcode_compiles_or_is_named_uncovered() -> None:
    uncovered = 0
    for op in _opcodes():
        try:
            assert callable(semantics(op))
        except Uncovered as e:
            assert op.name in str(e)
            uncovered += 1
    assert uncovered < len(_opcodes()) // 2


def test_maxmin_orders_signed_zeros_and_drops_quiet_nans() -> None:
    from tinygrad.runtime.autogen.amd.rdna3.ins import VOP3Op

    a = np.array([-0.0, 1.0, 5.0, 0.0], np.float32)
    b = np.array([0.0, 2.0, np.nan, -0.0], np.float32)
    c = np.array([-0.0, 1.5, 3.0, 0.0], np.float32)
    args = dict(S0=a.view(np.uint32), S1=b.view(np.uint32), S2=c.view(np.uint32))
    bits = lambda r: np.asarray(r, np.float32).view(np.uint32).tolist()  # noqa: E731
    # min(max(a, b), c) and max(min(a, b), c), with -0 < +0 as V_MIN/V_MAX order them
    assert bits(semantics(VOP3Op.V_MAXMIN_F32)(**args)["D0"]) == bits(np.array([-0.0, 1.5, 3.0, 0.0], np.float32))
    assert bits(semantics(VOP3Op.V_MINMAX_F32)(**args)["D0"]) == bits(np.array([-0.0, 1.5, 5.0, 0.0], np.float32))


def test_instructions_called_from_pseudocode() -> None:
    from tinygrad.runtime.autogen.amd.rdna3.ins import VOP3Op, VOP3POp

    a = np.array([0x01020304, 0xFF00FF00], np.uint32)
    b = np.array([0x04030201, 0x00FF00FF], np.uint32)
    c = np.array([5, 7], np.uint32)
    sad = [sum(abs(int(x >> s & 255) - int(y >> s & 255)) for s in (0, 8, 16, 24)) for x, y in zip(a, b)]
    assert semantics(VOP3Op.V_SAD_HI_U8)(S0=a, S1=b, S2=c)["D0"].tolist() == [(s << 16) + int(k) for s, k in zip(sad, c)]
    dot = [sum(int(x >> s & 255) * int(y >> s & 255) for s in (0, 8, 16, 24)) for x, y in zip(a, b)]
    assert semantics(VOP3POp.V_DOT4_U32_U8)(S0=a, S1=b, S2=c)["D0"].tolist() == [d + int(k) for d, k in zip(dot, c)]


@pytest.mark.parametrize("name", ["V_CVT_PK_NORM_I16_F32", "V_WMMA_F32_16X16X16_F16"])
def test_missing_helper_is_named(name: str) -> None:
    op = next(op for op in _opcodes() if op.name == name)
    with pytest.raises(Uncovered, match=f"{name}: its pseudocode calls"):
        semantics(op)
