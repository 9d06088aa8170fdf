"""`model-check=emulator` (and `auto`, the default, where nvcc and nvdisasm are found): a model's
answer is used only where every kernel of the CUDA file computes the same on the gfx1100
emulator as the answer's kernel of that name.

The truth is the file's own NVIDIA code: nvcc builds it for sm_90 with the build's -I, -D, -U,
-std and pre-includes, and cass-cc's lifter turns its SASS into gfx1100 code (cass_cc/sass; the
--emit-rdna3 path). The answer is compiled for gfx1100 as the build compiles device code (the
LLVM fixes plugin included). Each kernel of the cubin then runs in both code objects (the
answer's kernel of the same name, or of the same signature as CUDA spells it: HIP's vector and
bf16 types mangle otherwise) on inputs planned from its parameters, every buffer compared
(cass_cc/emu/differential.py).

Strict: an answer is refused when a kernel differs, and also when one cannot be checked (no
such kernel in the answer, inputs that cannot be planned, a fault, a launch past BUDGET, SASS
the lifter does not cover, nvcc failing on the file, a file with no kernel). A refused answer leaves the file to the
rules, as an answer that does not compile does. Slower than the compile check (nvcc, the lifter
and the emulator for each answer); verdicts are cached as compile verdicts are.
"""
from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from ..toolchain import hipclang
from ..toolchain.tool import COMPILE, ToolTimeout, run_tool
from ..util import atomic_write_text, first_line
from . import commands
from .view import BuildView

SM = 90  # the NVIDIA target of the truth: the lifter's best-covered SASS
ARCH = "gfx1100"  # the emulator's target
NAMES = ("the CUDA kernel", "the answer's kernel")
# Wave-instructions a launch may run (the data pipeline's prove stage allows 50 M): a check is
# part of a compile. A kernel that needs more under the planned inputs (a hash table probing
# forever, a long loop) is unchecked, so its answer is refused.
BUDGET = 2_000_000


class Unchecked(Exception):
    """The answer cannot be checked; the message says why, one line."""


class EmulatorCheck:
    def __init__(self, build: BuildView) -> None:
        self.build = build

    def missing(self) -> str:
        """Why the truth cannot be made here (a tool not found), or ""."""
        from ..toolchain import ToolchainError

        tc = self.build.tc
        try:
            for tool in (tc.nvcc, tc.nvdisasm, tc.tool("opt"), tc.tool("llc"), tc.llvm_mc, tc.ld_lld):
                if not tool.path:
                    return "a tool has no path"
        except ToolchainError as e:
            return first_line(e)
        return ""

    @functools.cached_property
    def key(self) -> str:
        from ..toolchain import ToolchainError

        b, inv = self.build, self.build.inv
        try:
            nvcc = [b.tc.nvcc.path, b.tc.nvcc.version_str]
        except ToolchainError:  # every answer is then refused as unchecked, naming what is missing
            nvcc = ["not found"]
        return json.dumps({"check": "emulator-1", "sm": SM, "nvcc": nvcc,
                           "defines": inv.defines, "undefines": inv.undefines,
                           "includes": inv.include_dirs, "pre": inv.pre_includes, "std": inv.std}, sort_keys=True, default=str)

    def check(self, text: str, filename: str, include_flags: list[str], tmp: str) -> str | None:
        """None when every kernel of `filename` (the CUDA file) computes the same as the answer
        `text`'s kernel of that name; else why not, one line, to follow "<model>'s answer "."""
        from ..emu.differential import run_beside
        from ..sass.inputs import source_block

        try:
            cubin = self._read(self._cubin(filename, tmp))
            kernels = cubin.kernels
            if not kernels:
                raise Unchecked(f"{Path(filename).name} has no kernel")
            truth, answer = self._load(self._lifted(cubin, tmp)), self._load(self._answer(text, filename, include_flags, tmp))
        except Unchecked as e:
            return f"cannot be checked on the {ARCH} emulator ({e})"
        sources = {filename: Path(filename).read_text(errors="replace")}
        for kernel in kernels:
            try:
                r = run_beside(truth, answer, kernel, source_block(sources, kernel.demangled), names=NAMES, budget=BUDGET)
            except Exception as e:  # noqa: BLE001 - an emulator crash refuses the answer, it never stops the build
                r = {"outcome": "unchecked", "reason": f"emulator error ({type(e).__name__})", "detail": first_line(e)}
            if r["outcome"] == "differs":
                return f"computes other results than the CUDA on the {ARCH} emulator ({kernel.demangled}: {r['detail']})"
            if r["outcome"] != "same":
                return f"cannot be checked on the {ARCH} emulator ({kernel.demangled}: {r['reason']})"
        return None

    # ---- the code objects -------------------------------------------------------------

    @staticmethod
    def _read(path: str) -> Any:
        from ..sass.cubin import CubinError, read

        try:
            found = read(path, SM)
        except CubinError as e:
            raise Unchecked(first_line(e)) from None
        if not found:
            raise Unchecked(f"nvcc made no sm_{SM} code")
        return found[0]

    @staticmethod
    def _load(path: str) -> Any:
        from ..emu import load

        try:
            return load(path)
        except Exception as e:  # noqa: BLE001 - a code object the loader refuses cannot be checked
            raise Unchecked(f"{Path(path).name} not loaded: {first_line(e)}") from None

    def _run(self, argv: list[str], what: str) -> None:
        try:
            proc = run_tool(argv, budget=COMPILE, timeout=self.build.config.tool_timeout)
        except OSError as e:
            raise Unchecked(f"cannot run {argv[0]}: {e.strerror}") from None
        except ToolTimeout as e:
            raise Unchecked(f"{what}: {e}") from None
        if proc.returncode != 0:
            lines = [ln for ln in proc.stderr.decode("utf-8", "replace").splitlines() if "error" in ln.lower()]
            raise Unchecked(f"{what} failed: {(lines or ['exit %d' % proc.returncode])[0].strip()[:300]}")

    def _cubin(self, filename: str, tmp: str) -> str:
        from ..toolchain import ToolchainError

        inv = self.build.inv
        try:
            nvcc = self.build.tc.nvcc.path
        except ToolchainError as e:
            raise Unchecked(first_line(e)) from None
        out = os.path.join(tmp, "truth.cubin")
        flags = [f"-I{d}" for d in inv.include_dirs] + [f"-D{d}" for d in inv.defines] + [f"-U{u}" for u in inv.undefines]
        flags += [f"--pre-include={p}" for p in inv.pre_includes] + ([f"-std={inv.std}"] if inv.std else [])
        self._run([nvcc, "-cubin", f"-arch=sm_{SM}", *flags, "-o", out, filename], "nvcc")
        return out

    def _lifted(self, cubin: Any, tmp: str) -> str:
        from ..sass import codegen
        from ..toolchain import ToolchainError
        from ..toolchain.llvmfix import check_llvm_tool

        tc = self.build.tc
        try:
            opt, llc, mc, ld = tc.tool("opt").path, tc.tool("llc").path, tc.llvm_mc.path, tc.ld_lld.path
            check_llvm_tool(opt)
            report = codegen.lift_cubin(cubin, tc.nvdisasm.path)
        except (ToolchainError, codegen.CodegenError) as e:
            raise Unchecked(first_line(e)) from None
        if report.failed:
            name, why = next(iter(report.failed.items()))
            raise Unchecked(f"{report.kernels[name].demangled}: the lifter does not cover "
                            f"{', '.join(why.unsupported) or 'its SASS'}")
        s, o, co = (Path(tmp, f"truth{suffix}") for suffix in (".s", ".o", ".co"))
        try:
            s.write_text(codegen.gfx1100_asm(codegen.ir_module(report), opt, llc))
            codegen.assemble(s, o, mc)
            codegen.link(o, co, ld)
        except (codegen.CodegenError, ToolchainError) as e:
            raise Unchecked(f"the lifted CUDA kernels: {first_line(e)}") from None
        return str(co)

    def _answer(self, text: str, filename: str, include_flags: list[str], tmp: str) -> str:
        b = self.build
        src, out = os.path.join(tmp, Path(filename).stem + ".emu.hip"), os.path.join(tmp, "answer.co")
        atomic_write_text(src, text)
        argv = commands.hip_compile(b.inv, src, out, hip=b.tc.hip_clang([ARCH]), archs=[ARCH], include_flags=include_flags,
                                    mode=hipclang.DEVICE_OBJECT, llvm_fixes=b.tc.llvm_fixes(),
                                    bracket_depth=commands.bracket_depth(text.encode("utf-8", "surrogateescape")))
        self._run(argv, f"the answer's {ARCH} code object")
        return out


def emulator_check(build: BuildView) -> EmulatorCheck | None:
    """model-check's check: `emulator`; `compile` (None: the compile alone); `auto`, the default:
    the emulator where the tools that make the truth are found, else the compile alone (what an
    answer is checked by is part of the verdicts' key)."""
    mode = build.config.model_check
    if mode == "compile":
        return None
    check = EmulatorCheck(build)
    return None if mode == "auto" and check.missing() else check
