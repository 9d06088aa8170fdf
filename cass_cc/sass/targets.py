"""Where lifted bodies run: a module per target around the target-neutral bodies.

- gfx1100 (AMDGPU, code object v5): each kernel is an `amdgpu_kernel` whose explicit
  arguments reproduce CUDA's parameter layout; the body reads them through the kernarg
  segment pointer. Thread/block indices come from the workitem/workgroup intrinsics,
  block and grid sizes from the v5 hidden arguments (block counts at +0, group sizes u16
  at +12), shuffles from `ds_bpermute` (wave32 keeps CUDA's lane numbering), ballots and
  the active mask from inline asm (`v_cmp_ne_u32`, `s_mov_b32 exec_lo`: see __cass_ballot),
  barriers are fence + `s_barrier` + fence. Shared memory is the
  workgroup's LDS from address 0; the static part is reserved by a kernel-local LDS
  variable (the only one, so it sits at 0) and dynamic shared memory follows it, as on
  NVIDIA.
- cpu (x86-64): the bodies keep external linkage and call `__cass_*` functions that the
  test harness's SIMT runtime (tests/sass/simt.c) provides.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .base import Lifted, Spaces
from .cubin import Kernel
from ..util import split_top_level
from .ir import f32_hex

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


@dataclass(frozen=True)
class Target:
    name: str
    triple: str
    datalayout: str
    spaces: Spaces


CPU = Target("cpu", "x86_64-pc-linux-gnu", "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128", Spaces())
GFX1100 = Target(
    "gfx1100",
    "amdgcn-amd-amdhsa",
    "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128"
    "-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7",
    Spaces(glob=1, shared=3, local=5, param=4, const=4, agent_scope="agent", block_scope="workgroup"),
)
TARGETS = {t.name: t for t in (CPU, GFX1100)}

# fp64 fma rounded toward +inf, -inf or zero (DFMA/DMUL/DADD.RP/RM/RZ): LLVM's constrained
# fma with the FPU's rounding mode switched around it (gfx1100: MODE.FP_ROUND's f64 field
# set around v_fma_f64 in one asm block). The functions are strictfp and noinline (LLVM
# does not inline strictfp code into other code), one per mode.
# mode: (constrained-intrinsic name, llvm.set.rounding value, gfx1100 MODE.FP_ROUND f64 value)
DIRECTED = {"rp": ("round.upward", 2, 1), "rm": ("round.downward", 3, 2), "rz": ("round.towardzero", 0, 3)}


def _directed_fma(name: str, target: str) -> str:
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


STRICTFP_ATTRS = 'attributes #4 = { noinline nounwind strictfp }'
# The call sites of warp-wide operations (ballots, the active mask, REDUX, shuffles, barriers).
# `convergent` alone lets SimplifyCFG hoist identical calls from both arms of a branch to above
# it (LLVM's convergent only forbids adding control dependences): a ballot or exec read then
# sees the lanes of both arms, and an aggregated atomic (VOTEU.ANY + UPOPC + one leader's RED)
# counts the other arm's lanes as well. `nomerge` stops that hoisting.
WARP_OP_ATTRS = "convergent nomerge nounwind"


def _split_args(text: str) -> list[str]:
    return split_top_level(text, "(", ")")


def intrinsic_declarations(text: str) -> list[str]:
    """`declare` lines for every llvm.* intrinsic called in `text`, typed from the calls."""
    found: dict[str, str] = {}
    for m in re.finditer(r"call ((?:ptr addrspace\(\d+\))|\S+) @(llvm\.[A-Za-z0-9_.]+)\(", text):
        name = m.group(2)
        if name in found:
            continue
        start = m.end()
        depth, i = 1, start
        while depth and i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args = _split_args(text[start : i - 1])
        types = [a.rsplit(" ", 1)[0] if not a.startswith("ptr addrspace") else a[: a.index(")") + 1] for a in args]
        found[name] = f"declare {m.group(1)} @{name}({', '.join(types)})"
    return [found[k] for k in sorted(found)]


def _globals(lifted: list[Lifted]) -> list[str]:
    """Each global once (device globals and module constant banks are shared by kernels)."""
    seen: dict[str, str] = {}
    for lk in lifted:
        for g in lk.globals:
            seen.setdefault(g.split(" = ", 1)[0], g)
    return list(seen.values())


def _cpu_module(lifted: list[Lifted]) -> str:
    parts = [f'target datalayout = "{CPU.datalayout}"', f'target triple = "{CPU.triple}"', ""]
    parts += _globals(lifted)
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


def tanhf_definition() -> str:
    """MUFU.TANH (sm_75+) is approximate; this is within a few ulps of it (through exp2)."""
    two_log2e = f32_hex(2.0 * 1.4426950408889634)
    return f"""define internal float @__cass_tanhf(float %x) #0 {{
  %a = call float @llvm.fabs.f32(float %x)
  %t = fmul float %a, {two_log2e}
  %e = call float @llvm.exp2.f32(float %t)
  %e1 = fadd float %e, 1.0
  %q = fdiv float 2.0, %e1
  %r = fsub float 1.0, %q
  %small = fcmp olt float %a, 0x3F20000000000000
  %r2 = select i1 %small, float %a, float %r
  %s = call float @llvm.copysign.f32(float %r2, float %x)
  ret float %s
}}"""


def _amd_prelude(used: set[str]) -> list[str]:
    defs = {
        "__cass_tid": _dim3("__cass_tid", [f"call i32 @llvm.amdgcn.workitem.id.{d}()" for d in "xyz"]),
        "__cass_ctaid": _dim3("__cass_ctaid", [f"call i32 @llvm.amdgcn.workgroup.id.{d}()" for d in "xyz"]),
        "__cass_ntid": """define internal i32 @__cass_ntid(i32 %d) #0 {
  %p = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %o = mul i32 %d, 2
  %o2 = add i32 %o, 12
  %g = getelementptr i8, ptr addrspace(4) %p, i32 %o2
  %v = load i16, ptr addrspace(4) %g, align 2
  %r = zext i16 %v to i32
  ret i32 %r
}""",
        "__cass_nctaid": """define internal i32 @__cass_nctaid(i32 %d) #0 {
  %p = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %o = mul i32 %d, 4
  %g = getelementptr i8, ptr addrspace(4) %p, i32 %o
  %r = load i32, ptr addrspace(4) %g, align 4
  ret i32 %r
}""",
        "__cass_laneid": """define internal i32 @__cass_laneid() #0 {
  %r = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  ret i32 %r
}""",
        "__cass_barrier": """define internal void @__cass_barrier() #2 {
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  ret void
}""",
        # Ballots and the active mask are inline asm, not llvm.amdgcn.ballot: instcombine makes
        # ballot(true) a read_register of exec_lo, which GVN treats as a load and merges with an
        # earlier one under a wider exec (an aggregated atomic's leader elected by the lanes of
        # another branch); a side-effecting asm stays in its block.
        "__cass_ballot": """define internal i32 @__cass_ballot(i1 zeroext %p) #2 {
  %v = zext i1 %p to i32
  %r = call i32 asm sideeffect "v_cmp_ne_u32_e64 $0, 0, $1", "=s,v"(i32 %v) #1
  ret i32 %r
}""",
        "__cass_clock": """define internal i64 @__cass_clock() #0 {
  %r = call i64 @llvm.readcyclecounter()
  ret i64 %r
}""",
        "__cass_tanhf": tanhf_definition(),
        # REDUX over the active lanes in this lane's group (%group: all lanes, or the mask of the
        # WARPSYNC.EXCLUSIVE before it, which may differ per lane): read each active lane's value
        # in turn (the active mask is uniform) and combine those in the group.
        "__cass_redux": """define internal i32 @__cass_redux(i32 %kind, i32 %v, i32 %group) #2 {
entry:
  %mask = call i32 asm sideeffect "s_mov_b32 $0, exec_lo", "=s"() #1
  br label %check
check:
  %m = phi i32 [ %mask, %entry ], [ %m2, %body ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %body ]
  %have = phi i1 [ false, %entry ], [ %have2, %body ]
  %done = icmp eq i32 %m, 0
  br i1 %done, label %exit, label %body
body:
  %l = call i32 @llvm.cttz.i32(i32 %m, i1 true)
  %x = call i32 @llvm.amdgcn.readlane(i32 %v, i32 %l)
  %add = add i32 %acc, %x
  %umin = call i32 @llvm.umin.i32(i32 %acc, i32 %x)
  %umax = call i32 @llvm.umax.i32(i32 %acc, i32 %x)
  %and = and i32 %acc, %x
  %or = or i32 %acc, %x
  %xor = xor i32 %acc, %x
  %smin = call i32 @llvm.smin.i32(i32 %acc, i32 %x)
  %smax = call i32 @llvm.smax.i32(i32 %acc, i32 %x)
  %r0 = icmp eq i32 %kind, 0
  %r1 = icmp eq i32 %kind, 1
  %r2 = icmp eq i32 %kind, 2
  %r3 = icmp eq i32 %kind, 3
  %r4 = icmp eq i32 %kind, 4
  %r5 = icmp eq i32 %kind, 5
  %r9 = icmp eq i32 %kind, 9
  %s10 = select i1 %r9, i32 %smin, i32 %smax
  %s5 = select i1 %r5, i32 %xor, i32 %s10
  %s4 = select i1 %r4, i32 %or, i32 %s5
  %s3 = select i1 %r3, i32 %and, i32 %s4
  %s2 = select i1 %r2, i32 %umax, i32 %s3
  %s1 = select i1 %r1, i32 %umin, i32 %s2
  %comb = select i1 %r0, i32 %add, i32 %s1
  %next = select i1 %have, i32 %comb, i32 %x
  %bit = shl i32 1, %l
  %inb = and i32 %group, %bit
  %in = icmp ne i32 %inb, 0
  %acc2 = select i1 %in, i32 %next, i32 %acc
  %have2 = or i1 %have, %in
  %mm2 = sub i32 %m, 1
  %m2 = and i32 %m, %mm2
  br label %check
exit:
  ret i32 %acc
}""",
        # BAR.RED: a barrier that also counts the threads whose predicate is true (kind 0:
        # the count, 1: all true, 2: any true), through two LDS counters at LDS 0 and 4
        # (the kernel's shared window starts after them, see _lds_front).
        "__cass_barrier_red": """define internal i32 @__cass_barrier_red(i32 %kind, i1 zeroext %p) #2 {
entry:
  %tx = call i32 @llvm.amdgcn.workitem.id.x()
  %ty = call i32 @llvm.amdgcn.workitem.id.y()
  %tz = call i32 @llvm.amdgcn.workitem.id.z()
  %txy = or i32 %tx, %ty
  %txyz = or i32 %txy, %tz
  %first = icmp eq i32 %txyz, 0
  %ctrue = getelementptr i8, ptr addrspace(3) null, i32 0
  %cfalse = getelementptr i8, ptr addrspace(3) null, i32 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  br i1 %first, label %clear, label %count
clear:
  store volatile i32 0, ptr addrspace(3) %ctrue, align 4
  store volatile i32 0, ptr addrspace(3) %cfalse, align 4
  br label %count
count:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %np = xor i1 %p, true
  %pv = zext i1 %p to i32
  %npv = zext i1 %np to i32
  %bt = call i32 asm sideeffect "v_cmp_ne_u32_e64 $0, 0, $1", "=s,v"(i32 %pv) #1
  %bf = call i32 asm sideeffect "v_cmp_ne_u32_e64 $0, 0, $1", "=s,v"(i32 %npv) #1
  %nt = call i32 @llvm.ctpop.i32(i32 %bt)
  %nf = call i32 @llvm.ctpop.i32(i32 %bf)
  %act = call i32 asm sideeffect "s_mov_b32 $0, exec_lo", "=s"() #1
  %lead = call i32 @llvm.cttz.i32(i32 %act, i1 true)
  %lane = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %isleader = icmp eq i32 %lane, %lead
  br i1 %isleader, label %add, label %wait
add:
  %o1 = atomicrmw add ptr addrspace(3) %ctrue, i32 %nt syncscope("workgroup") monotonic, align 4
  %o2 = atomicrmw add ptr addrspace(3) %cfalse, i32 %nf syncscope("workgroup") monotonic, align 4
  br label %wait
wait:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %t = load volatile i32, ptr addrspace(3) %ctrue, align 4
  %f = load volatile i32, ptr addrspace(3) %cfalse, align 4
  %all = icmp eq i32 %f, 0
  %any = icmp ne i32 %t, 0
  %allv = zext i1 %all to i32
  %anyv = zext i1 %any to i32
  %is1 = icmp eq i32 %kind, 1
  %is0 = icmp eq i32 %kind, 0
  %r12 = select i1 %is1, i32 %allv, i32 %anyv
  %r = select i1 %is0, i32 %t, i32 %r12
  ret i32 %r
}""",
        # MATCH over the active lanes: compare with each active lane's value in turn.
        "__cass_match": """define internal i32 @__cass_match(i32 %kind, i64 %v) #2 {
entry:
  %mask = call i32 asm sideeffect "s_mov_b32 $0, exec_lo", "=s"() #1
  %vlo = trunc i64 %v to i32
  %vs = lshr i64 %v, 32
  %vhi = trunc i64 %vs to i32
  br label %check
check:
  %m = phi i32 [ %mask, %entry ], [ %m2, %body ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %body ]
  %done = icmp eq i32 %m, 0
  br i1 %done, label %exit, label %body
body:
  %l = call i32 @llvm.cttz.i32(i32 %m, i1 true)
  %xlo = call i32 @llvm.amdgcn.readlane(i32 %vlo, i32 %l)
  %xhi = call i32 @llvm.amdgcn.readlane(i32 %vhi, i32 %l)
  %eqlo = icmp eq i32 %xlo, %vlo
  %eqhi = icmp eq i32 %xhi, %vhi
  %eq = and i1 %eqlo, %eqhi
  %bit = shl i32 1, %l
  %add = select i1 %eq, i32 %bit, i32 0
  %acc2 = or i32 %acc, %add
  %mm = sub i32 %m, 1
  %m2 = and i32 %m, %mm
  br label %check
exit:
  %all = icmp eq i32 %acc, %mask
  %allr = select i1 %all, i32 %mask, i32 0
  %isany = icmp eq i32 %kind, 0
  %r = select i1 %isany, i32 %acc, i32 %allr
  ret i32 %r
}""",
        # PTX shfl.sync semantics: lane j, validity p, own value when p is false.
        "__cass_shfl": """define internal i64 @__cass_shfl(i32 %mode, i32 %v, i32 %b, i32 %c) #2 {
  %lane = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %bv = and i32 %b, 31
  %cv = and i32 %c, 31
  %c8 = lshr i32 %c, 8
  %seg = and i32 %c8, 31
  %nseg = xor i32 %seg, -1
  %ls = and i32 %lane, %seg
  %cn = and i32 %cv, %nseg
  %max = or i32 %ls, %cn
  %bn = and i32 %bv, %nseg
  %jidx = or i32 %ls, %bn
  %jup = sub i32 %lane, %bv
  %jdown = add i32 %lane, %bv
  %jbfly = xor i32 %lane, %bv
  %is0 = icmp eq i32 %mode, 0
  %is1 = icmp eq i32 %mode, 1
  %is2 = icmp eq i32 %mode, 2
  %j23 = select i1 %is2, i32 %jdown, i32 %jbfly
  %j123 = select i1 %is1, i32 %jup, i32 %j23
  %j = select i1 %is0, i32 %jidx, i32 %j123
  %pup = icmp sge i32 %j, %max
  %ple = icmp sle i32 %j, %max
  %p = select i1 %is1, i1 %pup, i1 %ple
  %src = select i1 %p, i32 %j, i32 %lane
  %addr = shl i32 %src, 2
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %v)
  %r64 = zext i32 %r to i64
  %p64 = zext i1 %p to i64
  %ph = shl i64 %p64, 32
  %out = or i64 %r64, %ph
  ret i64 %out
}""",
    }
    return [_directed_fma(n, "gfx1100") if n.startswith("__cass_dfma_") else defs[n] for n in sorted(used)]


def _dim3(name: str, calls: list[str]) -> str:
    return f"""define internal i32 @{name}(i32 %d) #0 {{
  %x = {calls[0]}
  %y = {calls[1]}
  %z = {calls[2]}
  %is0 = icmp eq i32 %d, 0
  %is1 = icmp eq i32 %d, 1
  %yz = select i1 %is1, i32 %y, i32 %z
  %r = select i1 %is0, i32 %x, i32 %yz
  ret i32 %r
}}"""


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
    parts += _globals(lifted)
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
    if target.name == "nvptx":
        from . import nvptx

        return nvptx.module(lifted, kernels)
    return _amd_module(lifted, kernels)
