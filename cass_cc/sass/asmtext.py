"""Assembly text per kernel: SASS in the form the CASS assembly models read, RDNA3 from clang's
or the lifter's gfx1100 `.s`.

SASS: `cuobjdump --dump-sass` of a cubin, cut at each `Function :` header, one instruction a
line (the encoding comments dropped), each kernel under its own `code for sm_XX` header:

	code for sm_80
	.target	sm_80

		Function : _Z3negPfi
	.headerflags	@"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)"
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        ...
		..........

RDNA3: the kernel's part of an AMDGPU `.s`: `.text` and `.amdgcn_target`, then from
`.globl <kernel>` to the kernel's `.end_amdhsa_kernel` (its code, its descriptor).
"""
from __future__ import annotations

import re

_ENCODING = re.compile(r"\s*/\*\s*0x[0-9a-f]{16}\s*\*/\s*$")
_FUNCTION = re.compile(r"^\s*Function : (\S+)\s*$")


def sass_kernels(dump: str) -> dict[str, str]:
    """cuobjdump --dump-sass text -> {mangled kernel name: its SASS text}."""
    header: list[str] = []
    current: str | None = None
    body: dict[str, list[str]] = {}
    for raw in dump.splitlines():
        m = _FUNCTION.match(raw)
        if m:
            current = m.group(1)
            body[current] = [raw.rstrip()]
            continue
        line = _ENCODING.sub("", raw).rstrip()
        if current is None:
            if line.strip().startswith(("code for", ".target")):
                header.append(line)
            elif line.strip() == "" and header and header[-1] != "":
                header.append("")
            continue
        if not line.strip():
            continue  # the encoding's second half, or blank lines
        body[current].append(line)
    top = [h for h in header if h.strip()]
    prefix = "\n".join(top) + "\n\n" if top else ""
    return {name: prefix + "\n".join(lines) + "\n" for name, lines in body.items()}


def rdna3_kernels(asm: str) -> dict[str, str]:
    """An AMDGPU .s (clang -S --cuda-device-only, or llc) -> {kernel name: its text}."""
    lines = asm.splitlines()
    target = next((ln for ln in lines if ln.strip().startswith(".amdgcn_target")), "")
    out: dict[str, str] = {}
    i = 0
    while i < len(lines):
        m = re.match(r"\s*\.globl\s+(\S+)", lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        start = i
        if start > 0 and lines[start - 1].strip().startswith(".p2align"):
            start -= 1
        j = i + 1
        is_kernel = False
        while j < len(lines):
            s = lines[j].strip()
            if s.startswith(".end_amdhsa_kernel"):
                is_kernel = True
                break
            if re.match(r"\.globl\s+", s):
                break
            j += 1
        if is_kernel:
            text = ["\t.text", target] if target else ["\t.text"]
            out[name] = "\n".join(text + lines[start:j + 1]) + "\n"
            i = j + 1
        else:
            i = j
    return out
