"""Generated uses of inventory names, and the chunk files that hold them.

Each name gets one line of CUDA code that uses it the way a program would: a call with
arguments of the declared parameter types (every overload of that header), a pointer of the
type (and the `enum X`/`struct X` spelling), a field read through a pointer, an enumerator or
macro as a value, `#if !defined(...)` for guards and attribute-like macros. Uses are grouped in
chunks (one `.cu` per group and entry header); the line a use sits on attributes clang's errors.
"""
from __future__ import annotations

import re

from ..util import split_top_level
from .data import Name

# Device-side groups: their functions, members and variables are used in a __device__ function.
DEVICE_GROUPS = ("device", "math", "fp16", "bf16", "fp8", "cooperative_groups")
# Headers a program includes itself (nvcc includes cuda_runtime.h on its own); others are reached
# through the public header that includes them.
ENTRY = {
    "cuda_fp16.hpp": "cuda_fp16.h", "cuda_bf16.hpp": "cuda_bf16.h", "cuda_fp8.hpp": "cuda_fp8.h",
    "cuda_fp6.hpp": "cuda_fp6.h", "cuda_fp4.hpp": "cuda_fp4.h", "vector_functions.hpp": "vector_functions.h",
    "device_atomic_functions.hpp": "device_atomic_functions.h", "cuda_device_runtime_api.h": "cuda_runtime.h",
    "sm_20_atomic_functions.hpp": "sm_20_atomic_functions.h", "sm_20_intrinsics.hpp": "sm_20_intrinsics.h",
    "sm_30_intrinsics.hpp": "sm_30_intrinsics.h", "sm_32_intrinsics.hpp": "sm_32_intrinsics.h",
    "sm_32_atomic_functions.hpp": "sm_32_atomic_functions.h", "sm_60_atomic_functions.hpp": "sm_60_atomic_functions.h",
    "sm_61_intrinsics.hpp": "sm_61_intrinsics.h", "cuda_awbarrier_helpers.h": "cuda_awbarrier.h",
    "cuda_awbarrier_primitives.h": "cuda_awbarrier.h", "cuda_pipeline_helpers.h": "cuda_pipeline.h",
    "cuda_pipeline_primitives.h": "cuda_pipeline.h",
    "cooperative_groups/details/reduce.h": "cooperative_groups/reduce.h",
    "cooperative_groups/details/coalesced_reduce.h": "cooperative_groups/reduce.h",
    "cooperative_groups/details/functional.h": "cooperative_groups/reduce.h",
    "cooperative_groups/details/scan.h": "cooperative_groups/scan.h",
    "cooperative_groups/details/coalesced_scan.h": "cooperative_groups/scan.h",
    "cooperative_groups/details/async.h": "cooperative_groups/memcpy_async.h",
}
# Headers every chunk of a group includes too (a function's overloads may take their types).
GROUP_INCLUDES = {"fp16": ("cuda_fp16.h",), "bf16": ("cuda_fp16.h", "cuda_bf16.h"),
                  "fp8": ("cuda_fp16.h", "cuda_bf16.h"), "cooperative_groups": ("cooperative_groups.h",)}
CHUNK_SIZE = 700

PRELUDE = """\
template <class T> struct inv_rr { typedef T type; };
template <class T> struct inv_rr<T&> { typedef T type; };
template <class T> struct inv_rr<T&&> { typedef T type; };
template <class T> __host__ __device__ T inv_any() { return static_cast<T>(*(typename inv_rr<T>::type*)0); }
"""

_ATTRIBUTE_VALUE = re.compile(r"^(__location__|__attribute__|__declspec|__annotate__|_CRTIMP|static\b|extern\b|inline\b|"
                              r"__forceinline__|__device__|__host__|__inline__|__noinline__|__thread__|__cudart_builtin__|"
                              r"__device_builtin__|__CUDA_|__DEPRECATED|\[\[)")
CG = "cooperative_groups"
TILE = f"{CG}::thread_block_tile<32, {CG}::thread_block>"
# Objects a member of these classes is used through.
_OBJECT = {f"{CG}::thread_block_tile": TILE}


def entry_header(header: str) -> str:
    if header in ENTRY:
        return ENTRY[header]
    if header == "crt/mma.h":
        return "mma.h"
    if header.startswith("crt/"):
        return "cuda_runtime.h"
    if header.startswith(f"{CG}/details/"):
        return f"{CG}.h"
    return header


def chunk_of(n: Name) -> str:
    """The group: a chunk includes the entry headers of all its names (fewer, larger compiles)."""
    return "headers" if n.kind == "header" else n.group


def _qualified(n: Name) -> str:
    return f"{n.scope}::{n.name}" if n.scope else n.name


def _substitute(signature: str) -> tuple[str, list[str]] | None:
    """(return, parameter types) of one signature, template parameters replaced by concrete types."""
    tparams: dict[str, str] = {}
    m = re.match(r"template <(.*?)> (.*)$", signature)
    if m:
        for p in m.group(1).split(", "):
            word = p.split()[-1] if p.split() else ""
            if p.startswith("class "):
                tparams[word] = _type_for(word)
            elif word:
                tparams[word] = "32" if "ize" in word or word in ("N", "Size") else "0"
        signature = m.group(2)
    if not signature.endswith(")") or "(" not in signature:
        return None
    ret, _, params = signature.partition(" (")
    params = params[:-1]
    out = split_top_level(params, "(<[", ")>]")
    result = []
    for p in out:
        if p == "...":
            continue
        for word, concrete in tparams.items():
            p = re.sub(rf"\b{re.escape(word)}\b", concrete, p)
        if re.search(r"\btype-parameter-|\bdecltype\b|\btypename\b", p):
            return None
        result.append(re.sub(r"\b(enum|struct|union|class) ", "", p))
    return ret, result


def _type_for(param: str) -> str:
    low = param.lower()
    if "group" in low or low in ("tyvoid", "typarent", "parentt"):
        return TILE
    if low.endswith(("op", "fn")) or "op" == low[-2:]:
        return f"{CG}::plus<int>"
    return "int"


def _call(expr: str, signature: str) -> str | None:
    """`(void)expr(args);` per overload (templates only when no plain overload exists)."""
    sigs = signature.split(" | ")
    plain = [s for s in sigs if not s.startswith("template ")]
    chosen = plain or sigs[:1]
    stmts = []
    for sig in chosen:
        parsed = _substitute(sig)
        if parsed is None:
            return None
        _, params = parsed
        args = [f"inv_any<{p}>()" for p in params]
        op = expr[len("operator"):].strip() if expr.startswith("operator") else ""
        if op and not op[0].isalpha():  # operators are written as operators: a + b, ++a, a++
            if len(args) == 1:
                stmts.append(f"(void)({op}{args[0]});")
            elif op in ("++", "--") and params[1].replace("const ", "") == "int":
                stmts.append(f"(void)({args[0]}{op});")
            else:
                stmts.append(f"(void)({args[0]} {op} {args[1]});")
            continue
        stmts.append(f"(void){expr}({', '.join(args)});")
    return " ".join(dict.fromkeys(stmts))


# Templates whose parameters a generated call cannot supply (a callable, `cuda::atomic_ref`, a
# non-deduced count): used through a using-declaration (nvcc rejects the generated call).
USING_ONLY = frozenset({"invoke_one", "invoke_one_broadcast", "wait_prior", "reduce_store_async",
                        "reduce_update_async", "exclusive_scan_update", "inclusive_scan_update",
                        "operator new", "operator new[]", "operator delete", "operator delete[]"})


# Attribute-like macros: used where a program writes them ({fn} is the use's own name); a
# `defined` test would fail for those HIP has as keywords or attributes rather than macros.
# (Not __maxnreg__(n)/__cluster_dims__(...): where HIP lacks them, `void __maxnreg__(32) k() {}`
# derails clang's parser for the rest of the chunk; they get a `defined` test.)
ATTRIBUTE_USES = {
    "__restrict__": "void {fn}(int *__restrict__ p) {{ (void)p; }}",
    "__managed__": "__device__ __managed__ int {fn};",
    "__inline__": "static __inline__ void {fn}() {{}}",
    "__volatile__": "void {fn}() {{ __asm__ __volatile__(\"\"); }}",
    "__noinline__": "__device__ __noinline__ void {fn}() {{}}",
    "__forceinline__": "__device__ __forceinline__ void {fn}() {{}}",
    "__grid_constant__": "__global__ void {fn}(const __grid_constant__ int x) {{ (void)x; }}",
    "__launch_bounds__": "__global__ void __launch_bounds__(256) {fn}() {{}}",
    "__align__": "struct __align__(16) {fn} {{ float a; }};",
    "__builtin_align__": "struct __builtin_align__(16) {fn} {{ float a; }};",
    "__no_return__": "__device__ __no_return__ void {fn}() {{ __builtin_trap(); }}",
    "CUDARTAPI": "cudaError_t CUDARTAPI {fn}();",
    "CUDART_CB": "void CUDART_CB {fn}(cudaStream_t s, cudaError_t e, void *d) {{ (void)s; (void)e; (void)d; }}",
    "CUDAAPI": "CUresult CUDAAPI {fn}();",
    "CUDA_CB": "void CUDA_CB {fn}(CUstream s, CUresult e, void *d) {{ (void)s; (void)e; (void)d; }}",
}


def use_of(n: Name, number: int, types: frozenset[str] = frozenset()) -> str:
    """One line (macros and guards: three) using the name; `types`: type names (a macro naming one
    is used as a type)."""
    fn = f"inv_u{number}"
    device = n.group in DEVICE_GROUPS
    qual = "__device__ " if device else ""
    q = _qualified(n)
    if n.kind == "macro" and n.name in ATTRIBUTE_USES:
        return ATTRIBUTE_USES[n.name].format(fn=fn)
    if n.kind == "guard" or (n.kind == "macro" and _defined_only(n)):
        return f"#if !defined({n.name})\n#error \"inv: {n.name} is not defined\"\n#endif"
    if n.kind == "macro" and n.value in types:
        return f"void {fn}() {{ {n.name} *p0 = 0; (void)p0; }}"
    if n.kind == "macro":
        return f"{qual}void {fn}() {{ (void)({n.name}); }}"
    if n.kind == "type":
        if n.signature.startswith("template"):
            ns = n.scope or ""
            return f"namespace {fn} {{ using {'::' + ns if ns else ''}::{n.name}; }}"
        # `enum cudaError e` is how C code spells an enum; struct types are used by their plain names.
        # (a tag's own row: signature "enum"/"struct"/"union"; a typedef's row holds the type it names)
        words = n.signature.split()
        is_tag = n.signature in ("enum", "struct", "union", "class", "enum class", "enum struct")
        # (not `struct X *p`: it declares X where X is unknown, and cass-cc then takes X for the
        # program's own name in the whole chunk, so other uses of X would lose their warning)
        tag = words[0] if is_tag and words[0] == "enum" else ""
        extra = f" {tag} {q} *p1 = 0; (void)p1;" if tag else ""
        return f"void {fn}() {{ {q} *p0 = 0; (void)p0;{extra} }}"
    if n.kind == "enumerator":
        return f"void {fn}() {{ (void)(long long)({q}); }}"
    if n.kind == "field":
        # (the object comes from inv_any inside the body: an unknown type in a parameter list can
        # derail clang's parser for the rest of the chunk)
        owner = _OBJECT.get(n.scope, n.scope)
        return f"{qual}void {fn}() {{ (void)inv_any<{owner} *>()->{n.name}; }}"
    if n.kind == "variable":
        return f"{qual}void {fn}() {{ (void)&{q}; }}"
    if n.kind == "member":
        owner = _OBJECT.get(n.scope, n.scope)
        body = _call(f"inv_any<{owner} &>().{n.name}", n.signature)
        if body is None:
            return f"struct {fn} : {owner} {{ using {owner}::{n.name}; }};"
        return f"{qual}void {fn}() {{ {body} }}"
    if n.kind == "function":
        body = None if n.name in USING_ONLY else _call(q, n.signature)
        if body is None:
            return f"namespace {fn} {{ using {'::' + n.scope if n.scope else ''}::{n.name}; }}"
        return f"{qual}void {fn}() {{ {body} }}"
    raise ValueError(f"no use for kind {n.kind!r}")


def _defined_only(n: Name) -> bool:
    """Macros tested by `defined`: empty, function-like, attribute-like, or declaration text."""
    value = n.value
    return (not value or n.signature == "function-like" or bool(_ATTRIBUTE_VALUE.match(value))
            or ";" in value or "{" in value or bool(re.fullmatch(r"__[a-z][a-z0-9_]*__", n.name))
            or value.startswith("#") or bool(re.fullmatch(r"[A-Za-z_]\w*", value) and value.isupper() is False
                                                and not value.startswith(("cuda", "CU", "cu"))))


SENTINEL = 'static_assert(sizeof(char) == 0, "inv: sentinel");'
SENTINEL_EVERY = 25  # uses between sentinels


def chunk_text(includes: list[str], uses: list[tuple[str, str]]) -> tuple[str, dict[int, str]]:
    """The chunk's source and line -> key (each use's lines). Every SENTINEL_EVERY uses, and last,
    a line that always fails: when its error is missing, a use before it derailed clang's parser
    and the errors after that use were never reported."""
    lines = [f"#include <{h}>" for h in includes] + PRELUDE.rstrip("\n").split("\n")
    owner: dict[int, str] = {}
    for number, (key, use) in enumerate(uses, 1):
        for part in use.split("\n"):
            lines.append(part)
            owner[len(lines)] = key
        if number % SENTINEL_EVERY == 0:
            lines.append(SENTINEL)
    lines.append(SENTINEL)
    return "\n".join(lines) + "\n", owner
