"""Which kernel of a HIP code object stands for a cubin's kernel (cass_cc/emu/differential.py):
its own name, or the one whose signature, spelled as CUDA spells it, is the same. HIP's vector
types are templates and the translation's bf16 type is HIP's, so their kernels mangle otherwise."""
from __future__ import annotations

from types import SimpleNamespace

from cass_cc.emu.differential import cuda_spelling, kernel_in


def cubin_kernel(name: str, demangled: str) -> SimpleNamespace:
    return SimpleNamespace(name=name, demangled=demangled)


def code_object(*names: str) -> SimpleNamespace:
    return SimpleNamespace(kernels={n: object() for n in names})


def test_cuda_spelling_of_hip_types() -> None:
    assert cuda_spelling("k(HIP_vector_type<int, 3u>*, HIP_vector_type<unsigned char, 4u> const*)") == "k(int3*, uchar4 const*)"
    assert cuda_spelling("b(__hip_bfloat16*, __hip_bfloat162)") == "b(__nv_bfloat16*, __nv_bfloat162)"
    assert cuda_spelling("t<float2 >(float*)") == "t<float2>(float*)"
    assert cuda_spelling("m(HIP_vector_type<my_t, 2u>*)") == "m(HIP_vector_type<my_t, 2u>*)"  # no CUDA name: as is


def test_kernel_found_by_name_then_by_cuda_signature() -> None:
    k = cubin_kernel("_Z1kP4int3", "k(int3*)")
    assert kernel_in(code_object("_Z1kP4int3", "_Z1kP15HIP_vector_typeIiLj3EE"), k) == "_Z1kP4int3"
    assert kernel_in(code_object("_Z1kP15HIP_vector_typeIiLj3EE"), k) == "_Z1kP15HIP_vector_typeIiLj3EE"
    bf = cubin_kernel("_Z1bP13__nv_bfloat16", "b(__nv_bfloat16*)")
    assert kernel_in(code_object("_Z1bP14__hip_bfloat16", "_Z1kP4int3"), bf) == "_Z1bP14__hip_bfloat16"
    # another element type is another kernel; none at all is ""
    assert kernel_in(code_object("_Z1kP15HIP_vector_typeIjLj3EE"), k) == ""
    assert kernel_in(code_object(), k) == ""
