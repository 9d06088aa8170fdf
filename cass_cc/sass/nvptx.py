"""NVPTX: the lifted bodies compiled back for an NVIDIA GPU, to check the lifter on real
hardware (bench/sass_gpu_check.py runs them beside the original cubin on the same inputs).

Each kernel is a `ptx_kernel` taking one pointer: a global-memory copy of the CUDA
parameter block (so CUDA's layout is read exactly as the original reads constant bank 0).
Shared memory is one `extern` dynamic array: the static part at its start, dynamic
shared memory after it, as on gfx1100 (launch with `static + dynamic` bytes). The
runtime helpers map to PTX's own operations: special registers, `bar.sync`, `shfl.sync`,
`vote.ballot.sync`, `redux.sync`, `match.*.sync`, `bar.red`, and MUFU's ex2/lg2 to the
same `.approx` instructions the original used, so most kernels should match bit for bit.

64- and 128-bit loads and stores are `<2/4 x i32>` vectors here (Spaces.vector_wide), not the
i64/i128 integers of the other targets: LLVM lowers an i128 store to two u64 stores of packed
32-bit words, and ptxas (CUDA 13.0, sm_90) put one packed word in the wrong register of the
pair (HeCBench relu's ReluGrad_impl2: one half of every vector came out of the neighbouring
word on the H100, while the same lifted IR run on the CPU harness is exact). As vectors they
become ld/st.global.v4.u32 and LDG/STG.E.128, as nvcc itself emits them.
"""
from __future__ import annotations

import re

from .base import Lifted, Spaces
from .cubin import Kernel
from .targets import STRICTFP_ATTRS, WARP_OP_ATTRS, Target, _globals, intrinsic_declarations, tanhf_definition

NVPTX = Target(
    "nvptx",
    "nvptx64-nvidia-cuda",
    "e-i64:64-i128:128-v16:16-v32:32-n16:32:64",
    Spaces(glob=1, shared=3, local=0, param=1, const=4, vector_wide=True),
)
SMEM = "@__cass_smem"

_SREG = {"__cass_tid": "tid", "__cass_ctaid": "ctaid", "__cass_ntid": "ntid", "__cass_nctaid": "nctaid"}
# MUFU.EX2/LG2/SIN/COS are PTX's .approx instructions (LLVM 16's NVPTX cannot select the
# generic intrinsics for f32 anyway).
_APPROX = {"@llvm.exp2.f32(": "@llvm.nvvm.ex2.approx.f(", "@llvm.log2.f32(": "@llvm.nvvm.lg2.approx.f(",
           "@llvm.sin.f32(": "@llvm.nvvm.sin.approx.f(", "@llvm.cos.f32(": "@llvm.nvvm.cos.approx.f("}
_REDUX = [(0, "add"), (1, "umin"), (2, "umax"), (3, "and"), (4, "or"), (5, "xor"), (9, "min")]
# LLVM 16 has no activemask intrinsic.
ACTIVEMASK = 'call i32 asm sideeffect "activemask.b32 $0;", "=r"() #1'
_STRUCT_RETURNING = {
    **{f"llvm.nvvm.shfl.sync.{m}.i32p": "i32, i32, i32, i32" for m in ("idx", "up", "down", "bfly")},
    "llvm.nvvm.match.all.sync.i64p": "i32, i64",
}
_DIRECTED = {"rp": "rp", "rm": "rm", "rz": "rz"}


def _sreg(name: str, reg: str) -> str:
    reads = [f"  %{d} = call i32 @llvm.nvvm.read.ptx.sreg.{reg}.{d}()" for d in "xyz"]
    return "\n".join([f"define internal i32 @{name}(i32 %d) #0 {{", *reads,
                      "  %is0 = icmp eq i32 %d, 0", "  %is1 = icmp eq i32 %d, 1",
                      "  %yz = select i1 %is1, i32 %y, i32 %z", "  %r = select i1 %is0, i32 %x, i32 %yz",
                      "  ret i32 %r", "}"])


def _redux() -> str:
    lines = ["define internal i32 @__cass_redux(i32 %kind, i32 %v, i32 %group) #2 {", "entry:",
             f"  %active = {ACTIVEMASK}", "  %mask = and i32 %active, %group", "  switch i32 %kind, label %max ["]
    lines += [f"    i32 {k}, label %{op}" for k, op in _REDUX]
    lines.append("  ]")
    for _, op in [*_REDUX, (None, "max")]:
        lines += [f"{op}:", f"  %r.{op} = call i32 @llvm.nvvm.redux.sync.{op}(i32 %v, i32 %mask)", f"  ret i32 %r.{op}"]
    lines.append("}")
    return "\n".join(lines)


def _prelude(used: set[str]) -> list[str]:
    defs = {name: _sreg(name, reg) for name, reg in _SREG.items()}
    defs.update({
        "__cass_laneid": """define internal i32 @__cass_laneid() #0 {
  %r = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  ret i32 %r
}""",
        "__cass_barrier": """define internal void @__cass_barrier() #2 {
  call void @llvm.nvvm.barrier0()
  ret void
}""",
        "__cass_ballot": """define internal i32 @__cass_ballot(i1 zeroext %p) #2 {
  %mask = call i32 asm sideeffect "activemask.b32 $0;", "=r"() #1
  %r = call i32 @llvm.nvvm.vote.ballot.sync(i32 %mask, i1 %p)
  ret i32 %r
}""",
        "__cass_clock": """define internal i64 @__cass_clock() #0 {
  %r = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  ret i64 %r
}""",
        "__cass_tanhf": tanhf_definition(),  # its exp2 becomes ex2.approx below
        "__cass_redux": _redux(),
        "__cass_match": """define internal i32 @__cass_match(i32 %kind, i64 %v) #2 {
entry:
  %mask = call i32 asm sideeffect "activemask.b32 $0;", "=r"() #1
  %isany = icmp eq i32 %kind, 0
  br i1 %isany, label %any, label %all
any:
  %ra = call i32 @llvm.nvvm.match.any.sync.i64(i32 %mask, i64 %v)
  ret i32 %ra
all:
  %s = call {i32, i1} @llvm.nvvm.match.all.sync.i64p(i32 %mask, i64 %v)
  %m = extractvalue {i32, i1} %s, 0
  ret i32 %m
}""",
        "__cass_barrier_red": """define internal i32 @__cass_barrier_red(i32 %kind, i1 zeroext %p) #2 {
entry:
  %pi = zext i1 %p to i32
  switch i32 %kind, label %or [ i32 0, label %popc
                                i32 1, label %and ]
popc:
  %c = call i32 @llvm.nvvm.barrier0.popc(i32 %pi)
  ret i32 %c
and:
  %a = call i32 @llvm.nvvm.barrier0.and(i32 %pi)
  ret i32 %a
or:
  %o = call i32 @llvm.nvvm.barrier0.or(i32 %pi)
  ret i32 %o
}""",
        # PTX shfl.sync itself: (value, lane valid) packed as the runtime contract says.
        "__cass_shfl": """define internal i64 @__cass_shfl(i32 %mode, i32 %v, i32 %b, i32 %c) #2 {
entry:
  %mask = call i32 asm sideeffect "activemask.b32 $0;", "=r"() #1
  switch i32 %mode, label %bfly [ i32 0, label %idx
                                  i32 1, label %up
                                  i32 2, label %down ]
idx:
  %si = call {i32, i1} @llvm.nvvm.shfl.sync.idx.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %done
up:
  %su = call {i32, i1} @llvm.nvvm.shfl.sync.up.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %done
down:
  %sd = call {i32, i1} @llvm.nvvm.shfl.sync.down.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %done
bfly:
  %sb = call {i32, i1} @llvm.nvvm.shfl.sync.bfly.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %done
done:
  %s = phi {i32, i1} [ %si, %idx ], [ %su, %up ], [ %sd, %down ], [ %sb, %bfly ]
  %r = extractvalue {i32, i1} %s, 0
  %p = extractvalue {i32, i1} %s, 1
  %r64 = zext i32 %r to i64
  %p64 = zext i1 %p to i64
  %ph = shl i64 %p64, 32
  %out = or i64 %r64, %ph
  ret i64 %out
}""",
    })
    out = []
    for name in sorted(used):
        if name.startswith("__cass_dfma_"):
            mode = _DIRECTED[name.rsplit("_", 1)[1]]
            out.append(f"""define internal double @{name}(double %a, double %b, double %c) #0 {{
  %r = call double @llvm.nvvm.fma.{mode}.d(double %a, double %b, double %c)
  ret double %r
}}""")
        else:
            out.append(defs[name])
    return out


def shared_bytes(lk: Lifted) -> int:
    """Bytes of the extern shared array a launch must give before any dynamic shared memory."""
    return lk.shared_size


def module(lifted: list[Lifted], kernels: dict[str, Kernel]) -> str:
    parts = [f'target datalayout = "{NVPTX.datalayout}"', f'target triple = "{NVPTX.triple}"', ""]
    parts += _globals(lifted)
    parts.append(f"{SMEM} = external addrspace(3) global [0 x i8], align 16")
    for lk in lifted:
        parts.append(lk.body.replace("define void @", "define internal void @", 1))
        parts.append("\n".join([
            f'define ptx_kernel void @"{lk.name}"(ptr addrspace(1) %args) #3 {{',
            f'  call void @"{lk.name}.body"(ptr addrspace(1) %args, ptr addrspace(3) {SMEM})',
            "  ret void",
            "}",
        ]))
    used: set[str] = set().union(*(lk.runtime for lk in lifted)) if lifted else set()
    parts += _prelude(used)
    text = "\n".join(parts)
    # PTX names may not hold '.': a kernel's own constant bank `__cass_cbank2.<kernel>` is renamed.
    text = re.sub(r'@"__cass_cbank(\d+)\.([^"]+)"', lambda m: f"@__cass_cbank{m.group(1)}_{re.sub(r'[^A-Za-z0-9_$]', '_', m.group(2))}", text)
    for old, new in _APPROX.items():
        text = text.replace(old, new)
    # LLVM 16's NVPTX cannot select `fence` (MEMBAR): PTX's membar.sys, the strongest, for all.
    text = re.sub(r'\bfence(?: syncscope\("[^"]*"\))? seq_cst', "call void @llvm.nvvm.membar.sys()", text)
    decls = intrinsic_declarations(text)  # its pattern does not read struct return types:
    decls += [f"declare {{i32, i1}} @{name}({args})" for name, args in _STRUCT_RETURNING.items() if f"@{name}(" in text]
    attrs = ['attributes #0 = { alwaysinline nounwind }', f"attributes #1 = {{ {WARP_OP_ATTRS} }}",
             'attributes #2 = { alwaysinline convergent nounwind }', "attributes #3 = { nounwind }", STRICTFP_ATTRS]
    return "\n".join([text, *decls, *attrs]) + "\n"
