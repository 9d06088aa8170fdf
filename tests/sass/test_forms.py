"""The test kernels that exist for one instruction form really make nvcc emit it: if a
newer nvcc stopped doing so, the kernel would no longer prove the lifter's handling."""
from __future__ import annotations

import re

import pytest

from tests.sass.harness import SMS

# (kernel, predicate over one instruction's text, SMs where nvcc 13 emits it)
FORMS = [
    ("jump_table", lambda t: t.startswith("BRX R"), SMS),
    ("bf16_minmax", lambda t: t.startswith("HMNMX2.BF16_V2 "), SMS),
    ("bf16_minmax", lambda t: t.startswith("HMNMX2.BF16_V2.NAN "), SMS),
    ("half_compare_imm", lambda t: re.match(r"HSETP2\.\w+\.AND P\d, PT, \S+, -?\d[^,]*, -?\d[^,]*, PT", t) is not None, SMS),
    ("lop3_pred", lambda t: re.match(r"LOP3\.LUT P\d, RZ, R\d+, R\d+, RZ, 0xc0, P\d$", t) is not None, SMS),
    ("lop3_pred", lambda t: re.match(r"LOP3\.LUT\.PAND P\d, R\d+, .*, 0x96, P\d$", t) is not None, SMS),
    ("round16", lambda t: t.startswith("F2FP.BF16.PACK_AB.RZ ") or t.startswith("F2FP.BF16.F32.PACK_AB.RZ "), (80, 86, 89)),
    ("round16", lambda t: t.startswith("F2F.F16.F32.RM "), SMS),
    ("round16", lambda t: t.startswith("F2F.BF16.F32.RP "), (90,)),
    ("round16", lambda t: t.startswith("FRND.BF16.CEIL "), (90,)),
    ("half_compare_imm", lambda t: re.match(r"HSET2\.BF\.LT\.AND R\d+, R\d+, -?\d[^,]*, -?\d[^,]*, PT", t) is not None, SMS),
]


@pytest.mark.parametrize("kernel, form, sms", FORMS, ids=[f"{f[0]}-{n}" for n, f in enumerate(FORMS)])
def test_form_emitted(sass_build, kernel: str, form, sms) -> None:
    for sm in sms:
        smb = sass_build.sms[sm]
        fn = smb.cpu.functions[smb.kernel(kernel).name]
        texts = [re.sub(r"^@!?U?P[0-6T]\s+", "", i.text).replace(".reuse", "") for i in fn.insns]  # no guard, no reuse flags
        assert any(form(t) for t in texts), f"sm_{sm}: {kernel} has no such instruction"
