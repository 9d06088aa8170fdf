"""Where lifted bodies run: a module per target around the target-neutral bodies.

- gfx1100 (AMDGPU, code object v5): each kernel is an `amdgpu_kernel` whose explicit
  arguments reproduce CUDA's parameter layout; the body reads them through the kernarg
  segment pointer. Thread/block indices come from the workitem/workgroup intrinsics,
  block and grid sizes from the v5 hidden arguments (block counts at +0, group sizes u16
  at +12), shuffles from `ds_bpermute` (wave32 keeps CUDA's lane numbering), ballots and
  the active mask from inline asm (`v_cmp_ne_u32`, `s_mov_b32 exec_lo`: see __cass_ballot
  in runtime_ir/gfx1100.ll), barriers are fence + `s_barrier` + fence. Shared memory is the
  workgroup's LDS from address 0; the static part is reserved by a kernel-local LDS
  variable (the only one, so it sits at 0) and dynamic shared memory follows it, as on
  NVIDIA.
- cpu (x86-64): the bodies keep external linkage and call `__cass_*` functions that the
  test harness's SIMT runtime (tests/sass/simt.c) provides.
"""
from __future__ import annotations

from . import nvptx
from .base import Lifted, Spaces
from .cubin import Kernel
from .runtime import (DIRECTED, STRICTFP_ATTRS, WARP_OP_ATTRS, Target, dim3_definition, intrinsic_declarations,
                      runtime_definitions, unique_globals)

RUNTIME_SIGNATURES = {
    "__cass_tid": ("i32", "i32"),
    "__cass_ctaid": ("i32", "i32"),
    "__cass_ntid": ("i32", "i32"),
    "__cass_nctaid": ("i32", "i32"),
    "__cass_laneid": ("i32", ""),
    "__cass_barrier": ("void", ""),
    "__cass_shfl": ("i64", "i32, i32, i32, i32"),
    "__cass_ballot": ("i32", "i1 zeroext"),
    "__cass_clock": ("i64", ""),
    "__cass_tanhf": ("float", "float"),
    "__cass_redux": ("i32", "i32, i32, i32"),
    "__cass_match": ("i32", "i32, i64"),
    "__cass_barrier_red": ("i32", "i32, i1 zeroext"),
}


CPU = Target("cpu", "x86_64-pc-linux-gnu", "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128", Spaces())
GFX1100 = Target(
    "gfx1100",
    "amdgcn-amd-amdhsa",
    "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128"
    "-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7",
    Spaces(glob=1, shared=3, local=5, param=4, const=4, agent_scope="agent", block_scope="workgroup"),
)
TARGETS = {t.name: t for t in (CPU, GFX1100)}


def _directed_fma(name: str, target: str) -> str:
    """`__cass_dfma_<mode>` (runtime.DIRECTED): LLVM's constrained fma with the FPU's rounding
    mode switched around it (gfx1100: MODE.FP_ROUND's f64 field set around v_fma_f64 in one asm
    block). The functions are strictfp and noinline (LLVM does not inline strictfp code into
    other code)."""
    mode, x86_value, amd_value = DIRECTED[name.rsplit("_", 1)[1]]
    if target != "cpu":
        # llc's mode-register pass puts f64 arithmetic back to round-to-nearest right after
        # an llvm.amdgcn.s.setreg (found by running the code on cass_cc/emu), so the switch
        # and the fma are one inline-asm block it leaves alone.
        asm = (f"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), {amd_value}\\0Av_fma_f64 $0, $1, $2, $3"
               "\\0As_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), 0")
        return f"""define internal double @{name}(double %a, double %b, double %c) #4 {{
  %r = call double asm sideeffect "{asm}", "=v,v,v,v"(double %a, double %b, double %c) #4
  ret double %r
}}"""
    set_mode, restore = f"call void @llvm.set.rounding(i32 {x86_value}) #4", "call void @llvm.set.rounding(i32 1) #4"
    return f"""define double @{name}(double %a, double %b, double %c) #4 {{
  {set_mode}
  %r = call double @llvm.experimental.constrained.fma.f64(double %a, double %b, double %c, metadata !"{mode}", metadata !"fpexcept.strict") #4
  {restore}
  ret double %r
}}"""


def _cpu_module(lifted: list[Lifted]) -> str:
    parts = [f'target datalayout = "{CPU.datalayout}"', f'target triple = "{CPU.triple}"', ""]
    parts += unique_globals(lifted)
    for lk in lifted:
        parts.append(lk.body)
    used = sorted(set().union(*(lk.runtime for lk in lifted)) if lifted else set())
    for name in used:
        if name.startswith("__cass_dfma_"):
            parts.append(_directed_fma(name, "cpu"))
            continue
        ret, args = RUNTIME_SIGNATURES[name]
        parts.append(f"declare {ret} @{name}({args})")
    text = "\n".join(parts)
    parts += intrinsic_declarations(text)
    parts += ['attributes #0 = { nounwind "denormal-fp-math"="ieee,ieee" "denormal-fp-math-f32"="ieee,ieee" }', f"attributes #1 = {{ {WARP_OP_ATTRS} }}", STRICTFP_ATTRS]
    return "\n".join(parts) + "\n"


def _amd_prelude(used: set[str]) -> list[str]:
    defs = runtime_definitions("gfx1100.ll", "tanhf.ll")
    defs["__cass_tid"] = dim3_definition("__cass_tid", "llvm.amdgcn.workitem.id")
    defs["__cass_ctaid"] = dim3_definition("__cass_ctaid", "llvm.amdgcn.workgroup.id")
    defs.update({f"__cass_dfma_{mode}": _directed_fma(f"__cass_dfma_{mode}", "gfx1100") for mode in DIRECTED})
    return [defs[n] for n in sorted(used)]


def kernarg_types(kernel: Kernel) -> list[str]:
    """Explicit kernel arguments with CUDA's offsets: one IR argument per CUDA parameter, typed so
    that LLVM's kernarg layout (each argument at its type's ABI alignment) puts it at CUDA's
    offset. Padding is an argument of its own only where no such type exists: a launcher passes
    the CUDA signature's arguments, and the metadata lists those."""
    out: list[str] = []
    pos = 0
    for p in sorted(kernel.params, key=lambda p: p.offset):
        ty, align = _kernarg_type(p.offset, p.size)
        if -(-pos // align) * align != p.offset:
            out.append(f"[{p.offset - pos} x i8]")  # a gap the type's alignment does not explain
        out.append(ty)
        pos = p.offset + p.size
    if kernel.param_size > pos:
        out.append(f"[{kernel.param_size - pos} x i8]")
    return out


def _kernarg_type(offset: int, size: int) -> tuple[str, int]:
    """The IR type of a parameter of `size` bytes at `offset`, and its ABI alignment."""
    if size in (1, 2, 4, 8) and offset % size == 0:
        return {1: "i8", 2: "i16", 4: "i32", 8: "i64"}[size], size
    for align, element in ((16, "<4 x i32>"), (8, "i64"), (4, "i32"), (2, "i16")):
        if offset % align == 0 and size % align == 0:
            return f"[{size // align} x {element}]", align
    return f"[{size} x i8]", 1


BARRIER_RED_SCRATCH = 16  # LDS bytes before the kernel's shared memory for __cass_barrier_red


def _lds_front(lk: Lifted) -> int:
    """LDS bytes the runtime keeps before the kernel's shared window."""
    return BARRIER_RED_SCRATCH if "__cass_barrier_red" in lk.runtime else 0


def _lds_size(lk: Lifted) -> int:
    return lk.shared_size + _lds_front(lk)


def _amd_module(lifted: list[Lifted], kernels: dict[str, Kernel]) -> str:
    parts = [f'target datalayout = "{GFX1100.datalayout}"', f'target triple = "{GFX1100.triple}"', ""]
    parts += unique_globals(lifted)
    for lk in lifted:
        if _lds_size(lk):
            parts.append(f'@"__cass_lds.{lk.name}" = internal addrspace(3) global [{_lds_size(lk)} x i8] undef, align 16')
    for lk in lifted:
        parts.append(lk.body.replace("define void @", "define internal void @", 1))
    for lk in lifted:
        k = kernels[lk.name]
        args = ", ".join(f"{t} %a{i}" for i, t in enumerate(kernarg_types(k)))
        attrs = []
        dims = k.reqntid
        if dims:
            n = dims[0] * dims[1] * dims[2]
            attrs.append(f'"amdgpu-flat-work-group-size"="{n},{n}"')
        elif k.max_threads:
            n = k.max_threads[0] * k.max_threads[1] * k.max_threads[2]
            attrs.append(f'"amdgpu-flat-work-group-size"="1,{n}"')
        else:
            attrs.append('"amdgpu-flat-work-group-size"="1,1024"')
        lines = [f'define amdgpu_kernel void @"{lk.name}"({args}) #{3 + len(parts)} {{']
        lines.append("  %kp = call ptr addrspace(4) @llvm.amdgcn.kernarg.segment.ptr()")
        if _lds_size(lk):
            # Reserve the static part: the kernel's only LDS variable, so it sits at address 0.
            lines.append(f'  call void asm sideeffect "; cass-cc: static shared memory $0", "s"(ptr addrspace(3) @"__cass_lds.{lk.name}")')
        shared = "null" if not _lds_front(lk) else f"inttoptr (i32 {_lds_front(lk)} to ptr addrspace(3))"
        lines.append(f'  call void @"{lk.name}.body"(ptr addrspace(4) %kp, ptr addrspace(3) {shared})')
        lines.append("  ret void")
        lines.append("}")
        lines.append(f'attributes #{3 + len(parts)} = {{ nounwind "denormal-fp-math-f32"="ieee,ieee" "amdgpu-unsafe-fp-atomics"="false" {" ".join(attrs)} }}')
        parts.append("\n".join(lines))
    used: set[str] = set().union(*(lk.runtime for lk in lifted)) if lifted else set()
    parts += _amd_prelude(used)
    text = "\n".join(parts)
    parts += intrinsic_declarations(text)
    parts.append('attributes #0 = { alwaysinline nounwind "denormal-fp-math-f32"="ieee,ieee" }')
    parts.append(f"attributes #1 = {{ {WARP_OP_ATTRS} }}")
    parts.append('attributes #2 = { alwaysinline convergent nounwind "denormal-fp-math-f32"="ieee,ieee" }')
    parts.append(STRICTFP_ATTRS)
    return "\n".join(parts) + "\n"


def module(target: Target, lifted: list[Lifted], kernels: dict[str, Kernel]) -> str:
    if target is CPU:
        return _cpu_module(lifted)
    if target is nvptx.NVPTX:
        return nvptx.module(lifted, kernels)
    return _amd_module(lifted, kernels)
