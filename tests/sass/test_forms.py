"""The test kernels that exist for one instruction form really make nvcc emit it: if a
newer nvcc stopped doing so, the kernel would no longer prove the lifter's handling."""
from __future__ import annotations

import re

import pytest

from tests.sass.harness import SMS

# (kernel, predicate over one instruction's text, SMs where nvcc 13 emits it)
FORMS = [
    ("jump_table", lambda t: t.startswith("BRX R"), SMS),
]


@pytest.mark.parametrize("kernel, form, sms", FORMS, ids=[f[0] for f in FORMS])
def test_form_emitted(sass_build, kernel: str, form, sms) -> None:
    for sm in sms:
        smb = sass_build.sms[sm]
        fn = smb.cpu.functions[smb.kernel(kernel).name]
        texts = [re.sub(r"^@!?U?P[0-6T]\s+", "", i.text) for i in fn.insns]  # without the guard
        assert any(form(t) for t in texts), f"sm_{sm}: {kernel} has no such instruction"
