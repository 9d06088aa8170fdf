"""`cass-cc --emit-rdna3 FILE [-o OUT] [--emit-hsaco] [--sm N] [-v]`

FILE is a cubin, a fatbin, or a host object/executable holding one. Every kernel is lifted
(SASS -> LLVM IR) and compiled for gfx1100; the .s (or, with --emit-hsaco, the linked code
object) goes to OUT. Each kernel's line on stderr says which path served it: the lifter,
else the CASS assembly model when one is configured (`--model ID_OR_PATH`, `--model-endpoint
URL`, any `--cass-<setting>=VALUE`, or the CASS_MODEL* environment; its answer must assemble
with llvm-mc), else the run fails with the unsupported opcodes named and nothing is written.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Sequence

USAGE = "usage: cass-cc --emit-rdna3 FILE.cubin [-o OUT] [--emit-hsaco] [--sm N] [--model ID_OR_PATH] [-v]"


def _say(text: str) -> None:
    print(f"cass-cc: {text}", file=sys.stderr, flush=True)


def _parse(argv: Sequence[str]) -> dict | str:
    opts: dict = {"input": None, "out": None, "hsaco": False, "sm": None, "verbose": False, "settings": {}}
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
        elif a.split("=", 1)[0] in ("--model", "--model-endpoint"):
            name, eq, value = a.partition("=")
            if not eq:
                if i + 1 >= len(args):
                    return f"{a} needs a value"
                value = args[i + 1]
                i += 1
            opts["settings"][name[2:]] = value
        elif a.startswith("--cass-") and "=" in a:
            name, _, value = a[len("--cass-"):].partition("=")
            opts["settings"][name] = value
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
    from ..toolchain.llvmfix import check_llvm_tool
    from ..util import atomic_write_bytes, atomic_write_text, output_problem
    from . import codegen, modelpath
    from .cubin import CubinError, read

    opts = _parse(argv)
    if isinstance(opts, str):
        _say(f"{opts}\n{USAGE}")
        return 2
    path = opts["input"]
    suffix = ".hsaco" if opts["hsaco"] else ".s"
    out = Path(opts["out"] or Path(path).with_suffix(suffix).name)
    why = output_problem(out)  # a folder there, a missing or read-only folder: said before any work, with the user's name
    if why:
        _say(f"{out}: cannot write the output: {why}; nothing written")
        return 1
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
        # the LLVM fixes plugin opt loads is built on first use: a missing llvm-16-dev is said before any work
        check_llvm_tool(opt)
    except ToolchainError as e:
        _say(str(e))
        return 1
    try:
        report = codegen.lift_cubin(cb, nvdisasm)
    except Exception as e:  # nvdisasm refusing the file
        _say(f"{path}: {e}")
        return 1
    kernels = report.kernels
    if not kernels:  # a stripped or mismatched symbol table, or no __global__ at all: never an empty output
        _say(f"{path}: no kernel found in the cubin (sm_{cb.sm}); nothing written")
        return 1
    header = [f"; cass-cc --emit-rdna3 {Path(path).name} (sm_{cb.sm}) -> gfx1100, code object v5"]
    for lk in report.lifted:
        k = kernels[lk.name]
        _say(f"{k.demangled}: lifter")
        sig = codegen.hip_signature(k, lk)
        header.append(f"; {sig}")
        if opts["verbose"]:
            _say(f"  {sig}")
    served, failures = _model_path(cb, report, opts["settings"], tc, mc)
    for name, why in failures.items():
        _say(f"{kernels[name].demangled}: no path served it: unsupported SASS: {', '.join(report.failed[name].unsupported)} ({why})")
    if failures:
        _say(f"{len(failures)} of {len(kernels)} kernels could not be translated; nothing written")
        return 1
    try:
        lifted = codegen.gfx1100_asm(codegen.ir_module(report), opt, llc) if report.lifted else ""
        asm = "\n".join(header) + "\n" + modelpath.join(lifted, [(kernels[n], part) for n, part in served.items()])
        with tempfile.TemporaryDirectory(prefix="cass-rdna3-") as tmp:
            s_path, o_path = Path(tmp, "k.s"), Path(tmp, "k.o")
            s_path.write_text(asm)
            codegen.assemble(s_path, o_path, mc)  # the .s must assemble, or it is not output
            if opts["hsaco"]:
                codegen.link(o_path, Path(tmp, "k.hsaco"), ld)
                atomic_write_bytes(out, Path(tmp, "k.hsaco").read_bytes())
            else:
                atomic_write_text(out, asm)
    except (codegen.CodegenError, ToolchainError) as e:  # ToolchainError: the plugin's first build failed
        _say(f"{path}: {e}")
        return 1
    except OSError as e:  # the folder changed under us: name the user's path, not atomic_path's temporary
        if e.filename is None or Path(e.filename).parent != out.parent:
            raise
        _say(f"{out}: cannot write the output: {e.strerror}; nothing written")
        return 1
    _say(f"wrote {out} ({len(report.lifted) + len(served)} kernels)")
    return 0


def _model_path(cb, report, settings: dict, tc, llvm_mc: str) -> tuple[dict[str, str], dict[str, str]]:  # type: ignore[no-untyped-def]
    """Kernels the lifter left, through the CASS assembly model when one is configured:
    ({name: its assembly}, {name: why no path served it})."""
    if not report.failed:
        return {}, {}
    from .. import config as cfg
    from ..model.settings import ModelSettings

    try:
        conf = cfg.load(settings, os.environ)
    except cfg.ConfigError as e:
        return {}, {name: str(e) for name in report.failed}
    ms = ModelSettings.from_config(conf)
    if not ms.configured:
        return {}, {name: "no CASS model configured" for name in report.failed}
    from ..model.store import Store
    from ..translate.base import TranslationError
    from ..translate.model import AssemblyModel
    from . import modelpath

    names = sorted(report.failed)
    try:
        texts = modelpath.sass_texts(cb, tc.cuobjdump.path)
        model = AssemblyModel(ms, Store(None if conf.no_cache else conf.cache_path(os.environ)), llvm_mc)
        answers = model.translate([texts.get(n, "") for n in names])
    except (modelpath.ModelPathError, TranslationError) as e:
        return {}, {name: f"CASS model {ms.label}: {e}" for name in names}
    served: dict[str, str] = {}
    failures: dict[str, str] = {}
    for name, answer in zip(names, answers):
        if answer is None:
            failures[name] = f"the CASS model {ms.label} gave no answer that llvm-mc assembles"
            continue
        try:
            served[name] = modelpath.kernel_part(answer, report.kernels[name])
        except modelpath.ModelPathError as e:
            failures[name] = f"CASS model {ms.label}: {e}"
            continue
        _say(f"{report.kernels[name].demangled}: CASS model {ms.label}")
    return served, failures
