"""NVPTX: the lifted bodies compiled back for an NVIDIA GPU, to check the lifter on real
hardware (bench/sass_gpu_check.py runs them beside the original cubin on the same inputs).

Each kernel is a `ptx_kernel` taking one pointer: a global-memory copy of the CUDA
parameter block (so CUDA's layout is read exactly as the original reads constant bank 0).
Shared memory is one `extern` dynamic array: the static part at its start, dynamic
shared memory after it, as on gfx1100 (launch with `static + dynamic` bytes). The
runtime helpers (runtime_ir/nvptx.ll) map to PTX's own operations: special registers,
`bar.sync`, `shfl.sync`, `vote.ballot.sync`, `redux.sync`, `match.*.sync`, `bar.red`, and
MUFU's ex2/lg2 to the same `.approx` instructions the original used, so most kernels should
match bit for bit.

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
from .runtime import (DIRECTED, STRICTFP_ATTRS, WARP_OP_ATTRS, Target, dim3_definition, intrinsic_declarations,
                      runtime_definitions, unique_globals)

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
_STRUCT_RETURNING = {
    **{f"llvm.nvvm.shfl.sync.{m}.i32p": "i32, i32, i32, i32" for m in ("idx", "up", "down", "bfly")},
    "llvm.nvvm.match.all.sync.i64p": "i32, i64",
}


def _prelude(used: set[str]) -> list[str]:
    defs = runtime_definitions("nvptx.ll", "tanhf.ll")  # tanhf's exp2 becomes ex2.approx in module()
    defs.update({name: dim3_definition(name, f"llvm.nvvm.read.ptx.sreg.{reg}") for name, reg in _SREG.items()})
    defs.update({f"__cass_dfma_{mode}": _directed_fma(mode) for mode in DIRECTED})
    return [defs[n] for n in sorted(used)]


def _directed_fma(mode: str) -> str:
    """`__cass_dfma_<mode>`: PTX's fma.rp/rm/rz.f64."""
    return f"""define internal double @__cass_dfma_{mode}(double %a, double %b, double %c) #0 {{
  %r = call double @llvm.nvvm.fma.{mode}.d(double %a, double %b, double %c)
  ret double %r
}}"""


def shared_bytes(lk: Lifted) -> int:
    """Bytes of the extern shared array a launch must give before any dynamic shared memory."""
    return lk.shared_size


def module(lifted: list[Lifted], kernels: dict[str, Kernel]) -> str:
    parts = [f'target datalayout = "{NVPTX.datalayout}"', f'target triple = "{NVPTX.triple}"', ""]
    parts += unique_globals(lifted)
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
