"""Each test kernel, for each SM: metadata read right, lifted, assembled for gfx1100 by
llvm-mc, and the lifted IR run on the CPU SIMT runtime equals the C reference."""
from __future__ import annotations

import pytest

from tests.sass.harness import SMS, expected_layout, run_case
from tests.sass.kernels import CASES

PARAMS = [
    pytest.param(sm, case, id=f"sm_{sm}-{case.name}", marks=[pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else [])
    for sm in SMS
    for case in CASES
]


@pytest.mark.parametrize("sm, case", PARAMS)
def test_kernel(sass_build, sm, case) -> None:
    smb = sass_build.sms[sm]
    k = smb.kernel(case.name)
    # metadata
    assert smb.cubin.sm == sm
    assert [(p.offset, p.size) for p in k.params] == expected_layout(case)
    assert k.param_base == (0x210 if sm >= 90 else 0x160)
    assert k.regcount > 0 and k.exit_offsets
    assert k.cbank0_size >= k.param_base + k.param_size
    if case.static_shared:
        assert k.shared_size - (0x400 if sm >= 90 else 0) >= case.static_shared
    # lifted, for both targets
    assert k.name not in smb.amd.failed, str(smb.amd.failed.get(k.name))
    assert k.name not in smb.cpu.failed, str(smb.cpu.failed.get(k.name))
    # assembled for gfx1100
    assert not smb.errors, smb.errors
    assert f".amdhsa_kernel {k.name}\n" in smb.asm
    # same results as the reference on the CPU harness
    outcome = run_case(sass_build, sm, case)
    assert outcome.checked > 0
    assert not outcome.mismatches, f"{len(outcome.mismatches)} of {outcome.checked} differ: " + "; ".join(outcome.mismatches[:8])
