"""The stages from a cubin to gfx1100 code, each a function of the previous form:

    cubin bytes --nvdisasm--> SASS functions --lift--> bodies --targets.module--> LLVM IR
    LLVM IR --opt-16 -O2, llc-16--> gfx1100 .s --llvm-mc-16--> .o --ld.lld-16--> .hsaco

opt runs first because the lifter's per-register allocas need mem2reg/SROA before the
backend sees them; llc and llvm-mc both get --amdhsa-code-object-version=5.
"""
from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..toolchain.tool import ToolTimeout, run_tool
from .base import Lifted, LiftError
from .cubin import Cubin, Kernel
from .disasm import Function, disassemble
from .lift import lift_kernel
from .runtime import Target
from .targets import GFX1100, kernarg_types, module

CODE_OBJECT = "--amdhsa-code-object-version=5"
# llc-16's pre-RA exec-mask pass (SIOptimizeExecMaskingPreRA) folds `v_cndmask 0, 1, %cc` +
# `v_cmp_ne 1` + `s_and exec` into `s_andn2 exec, %cc`, but extends %cc's live range only from
# the select to the branch: with the select hoisted before a loop and the branch inside it, %cc
# is not live around the back edge and the register allocator gives its SGPR to something else
# in the loop (fuzz r3:1640: `if (blockDim.x >= 26)` inside a divergent loop read a division
# slow path's mask on the second trip). The pass only saves a few instructions.
LLC_WORKAROUNDS = ("--amdgpu-opt-exec-mask-pre-ra=false",)


class CodegenError(Exception):
    pass


@dataclass
class LiftReport:
    """Per cubin: the kernels lifted and, for the others, why not."""

    cubin: Cubin
    lifted: list[Lifted] = field(default_factory=list)
    failed: dict[str, LiftError] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)

    @property
    def kernels(self) -> dict[str, Kernel]:
        return {k.name: k for k in self.cubin.kernels}


def lift_cubin(cubin: Cubin, nvdisasm: str, target: Target = GFX1100, functions: dict[str, Function] | None = None) -> LiftReport:
    fns = functions if functions is not None else disassemble(cubin.data, nvdisasm)
    report = LiftReport(cubin, functions=fns)
    for k in cubin.kernels:
        fn = fns.get(k.name)
        if fn is None:
            report.failed[k.name] = LiftError(k.name, ["(no disassembly)"])
            continue
        try:
            report.lifted.append(lift_kernel(k, fn, cubin, target.spaces))
        except LiftError as e:
            report.failed[k.name] = e
    return report


def _run(argv: list[str], what: str) -> None:
    try:  # bounded: llc-16 loops forever on some IR lifted from damaged cubins
        proc = run_tool(argv, text=True, errors="replace")
    except ToolTimeout as e:
        raise CodegenError(str(e)) from None
    if proc.returncode != 0:
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        detail = " | ".join(lines[:3]) if lines else f"exit {proc.returncode}"
        raise CodegenError(f"{what} failed: {detail}")


def gfx1100_asm(ir: str, opt: str, llc: str, arch: str = "gfx1100") -> str:
    """LLVM IR text -> AMDGPU assembly text with .amdhsa_kernel descriptors. opt loads the
    LLVM fixes plugin (toolchain/llvmfix.py): LLVM 16's back end gets some 64-bit products of
    lifted IMAD.WIDE/.HI wrong as it does clang 15's (`__umul64hi(y, x & 7)`). llc runs
    without its pre-RA exec-mask pass (LLC_WORKAROUNDS)."""
    from ..config import load as load_config
    from ..toolchain.llvmfix import for_llvm_tool

    plugin = for_llvm_tool(opt, load_config().cache_path(os.environ))
    with tempfile.TemporaryDirectory(prefix="cass-rdna3-") as tmp:
        ll, bc, s = Path(tmp, "in.ll"), Path(tmp, "opt.bc"), Path(tmp, "out.s")
        ll.write_text(ir)
        target = ["-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}"]
        guard = [f"-load-pass-plugin={plugin}"] if plugin else []
        _run([opt, "-O2", *target, *guard, str(ll), "-o", str(bc)], "opt")
        _run([llc, "-O2", *target, CODE_OBJECT, *LLC_WORKAROUNDS, str(bc), "-o", str(s)], "llc")
        return without_invalid_delays(s.read_text())


# llc-16 prints some s_delay_alu encodings it made as `instid0(/* invalid instid value */)`,
# which no assembler reads back (fuzz r3:2262). s_delay_alu only spares the wave a stall on
# gfx11 (the hardware interlocks dependent ALU instructions; LLVM's AMDGPUInsertDelayAlu
# inserts it for speed), so such a line is dropped rather than guessed at.
_INVALID_DELAY = re.compile(r"^\s*s_delay_alu\b[^\n]*invalid[^\n]*\n", re.M)


def without_invalid_delays(asm: str) -> str:
    return _INVALID_DELAY.sub("", asm)


def assemble(asm: Path, obj: Path, llvm_mc: str, arch: str = "gfx1100") -> None:
    _run([llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={arch}", CODE_OBJECT, "-filetype=obj", str(asm), "-o", str(obj)], "llvm-mc")


def link(obj: Path, hsaco: Path, ld_lld: str) -> None:
    _run([ld_lld, "-shared", str(obj), "-o", str(hsaco)], "ld.lld")


def hip_signature(k: Kernel, lifted: Lifted) -> str:
    """How a HIP host program launches the kernel (hipModuleGetFunction + hipModuleLaunchKernel)."""
    args = " ".join(f"{p.size}@{p.offset}" for p in sorted(k.params, key=lambda p: p.offset)) or "none"
    extra = []
    if lifted.shared_size:
        extra.append(f"{lifted.shared_size} B static shared")
    if k.reqntid:
        extra.append("block " + "x".join(map(str, k.reqntid)))
    if lifted.recursive:
        extra.append(f"recursive: {lifted.local_size} B stack a thread (CUDA's default; the depth is unknown)")
    tail = f"; {', '.join(extra)}" if extra else ""
    return f"{k.name} = {k.demangled}: hipModuleLaunchKernel with kernarg bytes@offset {args}, {k.param_size} in all{tail}"


def kernarg_note(k: Kernel) -> str:
    return ", ".join(kernarg_types(k))


def ir_module(report: LiftReport, target: Target = GFX1100) -> str:
    return module(target, report.lifted, report.kernels)
