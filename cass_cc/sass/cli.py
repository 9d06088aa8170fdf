"""`cass-cc --emit-rdna3 FILE [-o OUT] [--emit-hsaco] [--sm N] [-v]`

FILE is a cubin, a fatbin, or a host object/executable holding one. Every kernel is lifted
(SASS -> LLVM IR) and compiled for gfx1100; the .s (or, with --emit-hsaco, the linked code
object) goes to OUT. Each kernel's line on stderr says which path served it. A kernel the
lifter cannot cover fails the run with the unsupported opcodes named (the CASS model path
is not wired in here yet), and nothing is written.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Sequence

USAGE = "usage: cass-cc --emit-rdna3 FILE.cubin [-o OUT] [--emit-hsaco] [--sm N] [-v]"


def _say(text: str) -> None:
    print(f"cass-cc: {text}", file=sys.stderr, flush=True)


def _parse(argv: Sequence[str]) -> dict | str:
    opts: dict = {"input": None, "out": None, "hsaco": False, "sm": None, "verbose": False}
    args = list(argv)
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--emit-rdna3":
            pass
        elif a == "--emit-hsaco":
            opts["hsaco"] = True
        elif a in ("-v", "--verbose"):
            opts["verbose"] = True
        elif a in ("-o", "--sm") or a.startswith(("-o", "--sm=")):
            if a in ("-o", "--sm"):
                if i + 1 >= len(args):
                    return f"{a} needs a value"
                value = args[i + 1]
                i += 1
            else:
                value = a[2:] if a.startswith("-o") else a.split("=", 1)[1]
            if a.startswith("-o"):
                opts["out"] = value
            else:
                if not value.removeprefix("sm_").isdigit():
                    return f"--sm takes a number such as 80, not {value!r}"
                opts["sm"] = int(value.removeprefix("sm_"))
        elif a.startswith("-"):
            return f"unknown option {a}"
        elif opts["input"] is None:
            opts["input"] = a
        else:
            return "one input file at a time"
        i += 1
    if opts["input"] is None:
        return "no input file"
    return opts


def main(argv: Sequence[str]) -> int:
    from ..toolchain import Toolchain, ToolchainError
    from . import codegen
    from .cubin import CubinError, read

    opts = _parse(argv)
    if isinstance(opts, str):
        _say(f"{opts}\n{USAGE}")
        return 2
    path = opts["input"]
    try:
        cubins = read(path, opts["sm"])
    except CubinError as e:
        _say(str(e))
        return 1
    cb = max(cubins, key=lambda c: c.sm)  # several SMs in one fatbin: the newest
    try:
        tc = Toolchain(os.environ)
        nvdisasm, opt, llc, mc = tc.nvdisasm.path, tc.tool("opt").path, tc.tool("llc").path, tc.llvm_mc.path
        ld = tc.ld_lld.path if opts["hsaco"] else ""
    except ToolchainError as e:
        _say(str(e))
        return 1
    try:
        report = codegen.lift_cubin(cb, nvdisasm)
    except Exception as e:  # nvdisasm refusing the file
        _say(f"{path}: {e}")
        return 1
    kernels = report.kernels
    header = [f"; cass-cc --emit-rdna3 {Path(path).name} (sm_{cb.sm}) -> gfx1100, code object v5"]
    for lk in report.lifted:
        k = kernels[lk.name]
        _say(f"{k.demangled}: lifter")
        sig = codegen.hip_signature(k, lk)
        header.append(f"; {sig}")
        if opts["verbose"]:
            _say(f"  {sig}")
    for name, err in report.failed.items():
        _say(f"{kernels[name].demangled}: no path served it: unsupported SASS: {', '.join(err.unsupported)} (no CASS model configured)")
    if report.failed:
        _say(f"{len(report.failed)} of {len(kernels)} kernels could not be translated; nothing written")
        return 1
    ir = codegen.ir_module(report)
    suffix = ".hsaco" if opts["hsaco"] else ".s"
    out = Path(opts["out"] or Path(path).with_suffix(suffix).name)
    try:
        asm = "\n".join(header) + "\n" + codegen.gfx1100_asm(ir, opt, llc)
        with tempfile.TemporaryDirectory(prefix="cass-rdna3-") as tmp:
            s_path, o_path = Path(tmp, "k.s"), Path(tmp, "k.o")
            s_path.write_text(asm)
            codegen.assemble(s_path, o_path, mc)  # the .s must assemble, or it is not output
            if opts["hsaco"]:
                codegen.link(o_path, Path(tmp, "k.hsaco"), ld)
                out.write_bytes(Path(tmp, "k.hsaco").read_bytes())
            else:
                out.write_text(asm)
    except codegen.CodegenError as e:
        _say(f"{path}: {e}")
        return 1
    _say(f"wrote {out} ({len(report.lifted)} kernels)")
    return 0
