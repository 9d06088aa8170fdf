"""One kernel of two gfx1100 code objects run side by side on the emulator: a reference that must
write something, and a candidate that must write the same.

The inputs are planned from the kernel's cubin record (cass_cc/sass/inputs: parameter sizes and
the demangled signature), and the launches of inputs.shapes() are tried in order (the program's
own block size first, when known) until the reference runs and writes a buffer; the candidate then
runs on that launch and those inputs, and every buffer is compared (bytes, or floats within the
planner's tolerance). Users: cass-data's prove stage (clang's kernel of the rules' translation
against the lifted one) and cass-cc's `model-check=emulator` (the lifted CUDA kernel against the
model's answer).

    same       every buffer the same
    differs    a buffer differs
    unchecked  no verdict either way, with the reason (inputs not planned, a fault, the budget,
               the reference writing nothing, another argument layout, an instruction the
               emulator does not cover)

Deterministic: the inputs depend on the plan alone, the emulator's budget counts instructions.
"""
from __future__ import annotations

import re
from typing import Any

from ..util import first_line

# HIP's vector types are HIP_vector_type<T, N> templates, CUDA's are plain structs (int2), and the
# translation's bf16 type is HIP's: a kernel taking (or templated on) them has another mangled name
# in clang's code object than in the cubin.
VECTOR_PREFIX = {"char": "char", "signed char": "char", "unsigned char": "uchar", "short": "short",
                 "unsigned short": "ushort", "int": "int", "unsigned int": "uint", "long": "long",
                 "unsigned long": "ulong", "long long": "longlong", "unsigned long long": "ulonglong",
                 "float": "float", "double": "double"}


def cuda_spelling(demangled: str) -> str:
    """A demangled HIP kernel name as CUDA spells it (vector and bf16 types), spaces before '>' dropped."""
    def vec(m: re.Match[str]) -> str:
        element = m.group(1).strip()
        return VECTOR_PREFIX[element] + m.group(2) if element in VECTOR_PREFIX else m.group(0)

    text = re.sub(r"HIP_vector_type<([^<>,]+),\s*(\d)u?>", vec, demangled)
    text = re.sub(r"\b__hip_bfloat16(2?)\b", r"__nv_bfloat16\1", text)
    return re.sub(r"\s+>", ">", text)


def kernel_in(code_object: Any, kernel: Any) -> str:
    """The name in a HIP code object of the cubin's `kernel`: its own, or the one kernel that
    demangles to the same signature once spelled as CUDA spells it; "" when there is none."""
    from ..sass.cubin import demangle

    if kernel.name in code_object.kernels:
        return str(kernel.name)
    want = cuda_spelling(kernel.demangled)
    hits = [n for n, d in demangle(sorted(code_object.kernels)).items() if cuda_spelling(d) == want]
    return hits[0] if len(hits) == 1 else ""


def run_beside(reference: Any, candidate: Any, kernel: Any, block: tuple[int, int, int] | None = None,
               names: tuple[str, str] = ("the reference kernel", "the candidate kernel"),
               budget: int | None = None) -> dict[str, Any]:
    """{"outcome": same | differs | unchecked, "reason", "detail"}; `names` say which is which in
    the reasons ("clang's kernel", "lifted kernel"). `kernel` is the cubin's; each code object
    runs its own kernel of that signature (kernel_in). `budget`: wave-instructions a launch may
    run (planned.BUDGET when None); with one given, a reference that runs out of it ends the
    trial instead of the next launch shape being tried (a wait bounded for a compile)."""
    from . import EmuError
    from .executor import BudgetExceeded
    from .planned import BUDGET, LayoutMismatch, run_planned
    from ..sass.inputs import PlanError, changed, compare, plan, shapes

    ref_name, cand_name = names

    def unchecked(reason: str, detail: str = "") -> dict[str, Any]:
        return {"outcome": "unchecked", "reason": reason, "detail": detail}

    ref_kernel, cand_kernel = kernel_in(reference, kernel), kernel_in(candidate, kernel)
    if not ref_kernel or not cand_kernel:
        return unchecked(f"{ref_name if not ref_kernel else cand_name} not found, by name or by its CUDA signature")

    try:
        base = plan(kernel)
    except PlanError as e:
        return unchecked("inputs not planned", str(e))
    first: dict[str, Any] | None = None
    for shape in shapes(block):
        p = base.with_shape(shape)
        try:
            before, ref = run_planned(reference, ref_kernel, p, budget=budget or BUDGET, exact_layout=True)
        except LayoutMismatch as e:
            return unchecked(f"{ref_name} takes its arguments at other offsets", first_line(e))
        except BudgetExceeded as e:
            first = first or unchecked(f"{ref_name} ran out of emulator budget", first_line(e))
            if budget is not None:
                return first
            continue
        except EmuError as e:
            first = first or unchecked(f"{ref_name} stopped on the emulator ({type(e).__name__})", first_line(e))
            continue
        written = changed(before, ref)
        if not written:
            first = first or unchecked(f"{ref_name} wrote no buffer under the planned launches", p.describe())
            continue
        try:
            _, got = run_planned(candidate, cand_kernel, p, budget=budget or BUDGET)
        except LayoutMismatch as e:
            return unchecked(f"{cand_name}'s arguments overlap its hidden arguments", first_line(e))
        except BudgetExceeded as e:
            return unchecked(f"{cand_name} ran out of emulator budget", first_line(e))
        except EmuError as e:
            return unchecked(f"{cand_name} stopped on the emulator ({type(e).__name__})", first_line(e))
        same, how = compare(p, ref, got)
        if not same:
            return {"outcome": "differs", "reason": f"{cand_name} differs on the emulator",
                    "detail": f"{how} ({p.describe()})"}
        return {"outcome": "same", "reason": "",
                "detail": f"{len(p.buffers)} buffers compared ({how}), {written} written; {p.describe()}"}
    return first or unchecked("no launch shape")
