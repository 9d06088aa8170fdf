"""C++ text the rules translator puts before the `#line 1` of its output.

CUDA's runtime header has C++ template overloads that take a kernel itself
(`cudaFuncGetAttributes(&attr, kernel)`); HIP 5.2 has only the `const void*` forms for
some of them, so a translated call would not compile. For each HIP name below that a
translation emits, the matching overload is prepended. Their parameter is a function
pointer `R (*)(A...)`, more specialised than any `T` or `T*` template a later HIP might
add, so they never clash with one.
"""
from __future__ import annotations

import functools

from pathlib import Path

from . import mappings
from .corrected import family_text
from .ptx import PTX_HELPERS
from .served import _on_amd, header_macros, served_text
from ..util import sha256_hex

BASE = "#include <hip/hip_runtime.h>\n"

_FN = "template <class R, class... A> static inline hipError_t"

KERNEL_OVERLOADS: dict[str, str] = {
    "hipFuncGetAttributes":
        f"{_FN} hipFuncGetAttributes(hipFuncAttributes* attr, R (*func)(A...))"
        " { return hipFuncGetAttributes(attr, reinterpret_cast<const void*>(func)); }\n",
    "hipFuncSetAttribute":
        f"{_FN} hipFuncSetAttribute(R (*func)(A...), hipFuncAttribute attr, int value)"
        " { return hipFuncSetAttribute(reinterpret_cast<const void*>(func), attr, value); }\n",
    "hipFuncSetCacheConfig":
        f"{_FN} hipFuncSetCacheConfig(R (*func)(A...), hipFuncCache_t config)"
        " { return hipFuncSetCacheConfig(reinterpret_cast<const void*>(func), config); }\n",
    "hipFuncSetSharedMemConfig":
        f"{_FN} hipFuncSetSharedMemConfig(R (*func)(A...), hipSharedMemConfig config)"
        " { return hipFuncSetSharedMemConfig(reinterpret_cast<const void*>(func), config); }\n",
    "hipLaunchKernel":
        f"{_FN} hipLaunchKernel(R (*func)(A...), dim3 grid, dim3 block, void** args,"
        " size_t shared = 0, hipStream_t stream = nullptr)"
        " { return hipLaunchKernel(reinterpret_cast<const void*>(func), grid, block, args, shared, stream); }\n",
}


# C++ overloads CUDA's runtime header adds to the C API (cuda_runtime.h) that HIP 5.x lacks:
# flags on cudaEventCreate, typed pointers T** where the C function takes void**.
CXX_OVERLOADS: dict[str, str] = {
    "hipEventCreate":
        "static inline hipError_t hipEventCreate(hipEvent_t* event, unsigned int flags)"
        " { return hipEventCreateWithFlags(event, flags); }\n",
    "hipMallocPitch":
        "template <class T> static inline hipError_t hipMallocPitch(T** p, size_t* pitch, size_t width, size_t height)"
        " { return hipMallocPitch(reinterpret_cast<void**>(p), pitch, width, height); }\n",
    "hipHostGetDevicePointer":
        "template <class T> static inline hipError_t hipHostGetDevicePointer(T** p, void* host, unsigned int flags)"
        " { return hipHostGetDevicePointer(reinterpret_cast<void**>(p), host, flags); }\n",
}

# Default arguments CUDA's runtime API declares (`__dv(0)` in cuda_runtime_api.h) where HIP 5.x's
# declaration has none: HIP name -> (arguments a CUDA call may stop at, the defaults after them).
# Found by comparing the two headers; each is compiled with CUDA's shorter call in test_served.py.
CUDA_DEFAULT_ARGS: dict[str, tuple[int, tuple[str, ...]]] = {
    "hipStreamWaitEvent": (2, ("0u",)),
    "hipGraphInstantiateWithFlags": (2, ("0ull",)),
    "hipMalloc3DArray": (3, ("0u",)),
}


def _default_args_overload(name: str) -> str:
    count, defaults = CUDA_DEFAULT_ARGS[name]
    types = ", ".join(f"class A{i}" for i in range(count))
    params = ", ".join(f"A{i} a{i}" for i in range(count))
    args = ", ".join([f"a{i}" for i in range(count)] + list(defaults))
    # the return type is the longer call's (hipError_t; CUDA's error type on HIP's NVIDIA platform)
    return f"template <{types}> static inline auto {name}({params}) -> decltype({name}({args})) {{ return {name}({args}); }}\n"



# CUDA's __reduce_*_sync and __match_*_sync (sm_70/sm_80) for HIP versions without them.
# They work on 32-lane groups, as CUDA warps are, whatever the wave size, and over the lanes of
# their mask only (CUDA requires those lanes to make the call; the others may not be running):
# a butterfly for the whole warp, lane by lane otherwise.
_REDUCE_BODY = (
    "template <class T> static __device__ inline T {name}_t(unsigned int mask, T v) {{"
    " if (mask == 0xffffffffu) {{ for (int o = 16; o > 0; o /= 2) {{ T w = __shfl_xor(v, o, 32); v = {combine}; }} return v; }}"
    " T r = v; bool first = true;"
    " for (int l = 0; l < 32; ++l) if ((mask >> l) & 1u) {{ T w = __shfl(v, l, 32);"
    " if (first) {{ r = w; first = false; }} else {{ T v = r; r = {combine}; }} }}"
    " return r; }}\n"
)


def _overloads(name: str, result: str, params: str, call: str, types: tuple[str, ...]) -> str:
    """CUDA's overload set for a helper whose body is the template `{name}_t`: an argument of another
    type converts as it does under nvcc (a char to int, blockDim.x to unsigned) instead of
    instantiating the template with it."""
    return "".join(
        f"static __device__ inline {result.format(T=t)} {name}({params.format(T=t)}) {{ return {name}_t<{t}>({call}); }}\n"
        for t in types)


def _reduce(name: str, combine: str, types: tuple[str, ...]) -> str:
    return (_REDUCE_BODY.format(name=name, combine=combine)
            + _overloads(name, "{T}", "unsigned int mask, {T} v", "mask, v", types))


# CUDA declares __reduce_add/min/max_sync for int and unsigned, and/or/xor for unsigned only;
# __match_*_sync for the 32- and 64-bit integers, float and double.
_REDUCE_ARITH = ("int", "unsigned int")
_REDUCE_BITS = ("unsigned int",)
_MATCH_TYPES = ("int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "float", "double")
WARP_HELPERS: dict[str, str] = {
    # __syncwarp: a wave-level barrier with the memory ordering CUDA promises (lanes of one wave);
    # CUDA's own on HIP's NVIDIA platform, so a ported tree still builds there (cass-cc verify)
    "__cass_syncwarp":
        "static __device__ inline void __cass_syncwarp() {\n#if defined(__HIP_PLATFORM_AMD__)\n"
        '  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"); __builtin_amdgcn_wave_barrier();'
        ' __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");\n#else\n  __syncwarp();\n#endif\n}\n',
    "__cass_reduce_add": _reduce("__cass_reduce_add", "v + w", _REDUCE_ARITH),
    "__cass_reduce_min": _reduce("__cass_reduce_min", "w < v ? w : v", _REDUCE_ARITH),
    "__cass_reduce_max": _reduce("__cass_reduce_max", "w > v ? w : v", _REDUCE_ARITH),
    "__cass_reduce_and": _reduce("__cass_reduce_and", "v & w", _REDUCE_BITS),
    "__cass_reduce_or": _reduce("__cass_reduce_or", "v | w", _REDUCE_BITS),
    "__cass_reduce_xor": _reduce("__cass_reduce_xor", "v ^ w", _REDUCE_BITS),
    "__cass_match_any":
        "template <class T> static __device__ inline unsigned int __cass_match_any_t(unsigned int mask, T v) {"
        " unsigned int m = 0; for (int l = 0; l < 32; ++l) if ((mask >> l) & 1u) m |= (__shfl(v, l, 32) == v ? 1u : 0u) << l;"
        " return m; }\n"
        + _overloads("__cass_match_any", "unsigned int", "unsigned int mask, {T} v", "mask, v", _MATCH_TYPES),
    "__cass_match_all":
        "template <class T> static __device__ inline unsigned int __cass_match_all_t(unsigned int mask, T v, int* pred) {"
        # every lane shuffles every time: a shuffle skipped by `same &&` left the lanes still
        # comparing to read an inactive lane's stale register (found by cass-data fuzz)
        " bool same = true; for (int l = 0; l < 32; ++l) if ((mask >> l) & 1u) { T w = __shfl(v, l, 32); same = same && (w == v); }"
        " *pred = same; return same ? mask : 0u; }\n"
        + _overloads("__cass_match_all", "unsigned int", "unsigned int mask, {T} v, int* pred", "mask, v, pred", _MATCH_TYPES),
}


# CUDA's SIMD video intrinsics (__vmaxs4, __vadd2, ...): per-byte or per-halfword
# operations on a 32-bit word, which HIP 5.2 lacks. Each helper works lane by lane.
_SIMD_OPS = {
    "add": "x + y", "sub": "x - y", "max": "x > y ? x : y", "min": "x < y ? x : y",
    "absdiff": "x > y ? x - y : y - x", "cmpeq": "x == y ? -1 : 0", "cmpne": "x != y ? -1 : 0",
    "cmpgt": "x > y ? -1 : 0", "cmpge": "x >= y ? -1 : 0", "cmplt": "x < y ? -1 : 0", "cmple": "x <= y ? -1 : 0",
    "addss": "x + y", "subss": "x - y", "addus": "x + y", "subus": "x - y",
}
_SIMD_LANES = {"4": (8, "signed char", "unsigned char", 0xFF), "2": (16, "short", "unsigned short", 0xFFFF)}


def _simd_names() -> dict[str, tuple[str, str, str]]:
    """CUDA name -> (operation, lanes, signedness 's'/'u'/'' for wrap-around)."""
    names: dict[str, tuple[str, str, str]] = {}
    for lanes in _SIMD_LANES:
        for op in ("add", "sub", "cmpeq", "cmpne"):
            names[f"__v{op}{lanes}"] = (op, lanes, "")
        for op in ("max", "min", "absdiff", "cmpgt", "cmpge", "cmplt", "cmple"):
            for sign in "su":
                names[f"__v{op}{sign}{lanes}"] = (op, lanes, sign)
        for op in ("addss", "subss"):
            names[f"__v{op}{lanes}"] = (op, lanes, "s")
        for op in ("addus", "subus"):
            names[f"__v{op}{lanes}"] = (op, lanes, "u")
    return names


SIMD_NAMES = _simd_names()


def _simd_helper(name: str) -> str:
    op, lanes, sign = SIMD_NAMES[name]
    bits, signed_t, unsigned_t, mask = _SIMD_LANES[lanes]
    lane_t = signed_t if sign == "s" else unsigned_t
    value = _SIMD_OPS[op]
    if op in ("addss", "subss", "addus", "subus"):  # saturate to the lane type's range
        lo, hi = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if sign == "s" else (0, (1 << bits) - 1))
        value = f"({value}) < {lo} ? {lo} : (({value}) > {hi} ? {hi} : ({value}))"
    return (
        f"static __host__ __device__ inline unsigned int __cass{name}(unsigned int a, unsigned int b) {{"
        f" unsigned int r = 0; for (int i = 0; i < 32; i += {bits}) {{"
        f" int x = ({lane_t})(a >> i), y = ({lane_t})(b >> i); int v = {value};"
        f" r |= ((unsigned int)v & 0x{mask:X}u) << i; }} return r; }}\n"
    )


# CUDA 12.2+/13 forms that take a cudaMemLocation, where HIP 5.x takes a device number
# (hipCpuDeviceId for the host). Overloads, so the HIP forms stay available too.
LOCATION_OVERLOADS: dict[str, str] = {
    "hipMemPrefetchAsync":
        "static inline hipError_t hipMemPrefetchAsync(const void* p, size_t n, hipMemLocation loc,"
        " unsigned int flags, hipStream_t stream = nullptr) { (void)flags; return hipMemPrefetchAsync(p, n,"
        " loc.type == hipMemLocationTypeDevice ? loc.id : hipCpuDeviceId, stream); }\n",
    "hipMemAdvise":
        "static inline hipError_t hipMemAdvise(const void* p, size_t n, hipMemoryAdvise advice, hipMemLocation loc)"
        " { return hipMemAdvise(p, n, advice, loc.type == hipMemLocationTypeDevice ? loc.id : hipCpuDeviceId); }\n",
}


# <cooperative_groups/reduce.h>: cg::reduce over a tile, and the operator objects it takes.
# Every thread of the group gets the result, as in CUDA (butterfly over shfl_xor).
CG_REDUCE = (
    "#include <hip/hip_cooperative_groups.h>\n"
    "namespace cooperative_groups {\n"
    "template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };\n"
    "template <class T> struct less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };\n"
    "template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };\n"
    "template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };\n"
    "template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };\n"
    "template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };\n"
    "template <class Group, class T, class Op> __device__ T reduce(const Group& g, T v, Op op) {"
    " for (unsigned int o = g.size() / 2; o > 0; o /= 2) v = op(v, g.shfl_xor(v, o)); return v; }\n"
    "}\n"
)

# <cuda_bf16.h> for a HIP without hip/hip_bf16.h (its row in mappings/headers.tsv says from which
# version HIP has it): prelude_bf16.h defines __hip_bfloat16/__hip_bfloat162 and CUDA's functions
# on them. BF16_NAMES: the rows of mappings/bf16.tsv it serves (rules.py translates them on such
# a HIP instead of reporting them).
BF16_HEADER = "hip/hip_bf16.h"
BF16_PRELUDE = Path(__file__).with_name("prelude_bf16.h").read_text()
_ROUNDED = ("rn", "rz", "rd", "ru")
BF16_NAMES = frozenset({
    "__nv_bfloat16", "__nv_bfloat162", "__bfloat162float", "__float2bfloat16", "__double2bfloat16",
    *(f"__float2bfloat16_{r}" for r in _ROUNDED),
    "__bfloat16_as_ushort", "__bfloat16_as_short", "__ushort_as_bfloat16", "__short_as_bfloat16",
    *(f"__bfloat162{t}_{r}" for t in ("int", "uint", "short", "ushort", "ll", "ull") for r in _ROUNDED),
    *(f"__{t}2bfloat16_rn" for t in ("int", "uint", "short", "ushort", "ll", "ull")),
    "__halves2bfloat162", "__bfloat162bfloat162", "__floats2bfloat162_rn", "__float2bfloat162_rn",
    "__float22bfloat162_rn", "__bfloat1622float2", "__low2bfloat16", "__high2bfloat16", "__low2bfloat162",
    "__high2bfloat162", "__lows2bfloat162", "__highs2bfloat162",
})
# <cuda_fp16.h> on a HIP whose hip_fp16.h has __half operators for the device only and no
# __hmax/__hmin (5.x): prelude_fp16.h adds host operators, __hmax/__hmin and __half shuffles.
FP16_PRELUDE = Path(__file__).with_name("prelude_fp16.h").read_text()
FP16_NAMES = frozenset(f"__h{op}{pair}{nan}" for op in ("max", "min") for pair in ("", "2") for nan in ("", "_nan"))
HEADER_HELPERS = {"cooperative_groups/reduce.h": CG_REDUCE, "cuda_bf16.h": BF16_PRELUDE, "cuda_fp16.h": FP16_PRELUDE}
# Switches a HIP library header reads, set where the CUDA header that maps to it is included:
# cuSOLVER takes cuBLAS's enumerations (CUBLAS_FILL_MODE_LOWER, which become hipBLAS's), and
# hipSOLVER takes hipBLAS's only with HIPSOLVER_USE_HIPBLAS_ENUMS (its own otherwise).
HEADER_SWITCHES = {"cusolverDn.h": ("HIPSOLVER_USE_HIPBLAS_ENUMS",)}


@functools.lru_cache(maxsize=None)
def bf16_stand_in(hip_version: tuple[int, int]) -> bool:
    """Whether a translation for this HIP carries prelude_bf16.h in place of hip/hip_bf16.h: where
    HIP has no hip_bf16.h (5.2), and where its hip_bf16.h lacks part of what the stand-in serves
    (5.7's has the types and a few conversions, not __floats2bfloat162_rn, __low2bfloat16 ...:
    mappings/bf16.tsv says which names each HIP has)."""
    rows = [mappings.lookup(name) for name in sorted(BF16_NAMES)]
    return any(row is None or not row.available_on(hip_version) for row in rows)


# Helpers a program does not call are not worth a -Wall warning each.
_QUIET_UNUSED = '#ifdef __clang__\n#pragma clang diagnostic push\n#pragma clang diagnostic ignored "-Wunused-function"\n#endif\n'
_QUIET_END = "#ifdef __clang__\n#pragma clang diagnostic pop\n#endif\n"


def _once(text: str) -> str:
    guard = "CASS_PRELUDE_" + sha256_hex(text)[:16]
    return f"#ifndef {guard}\n#define {guard}\n{text}#endif\n"


def prelude(hip_names: set[str]) -> str:
    """The text to prepend for a translation that emitted `hip_names`."""
    parts = [BASE]
    parts.extend(f"#ifndef {switch}\n#define {switch}\n#endif\n" for name in sorted(hip_names) if name.startswith("header:")
                 for switch in HEADER_SWITCHES.get(name[len("header:"):], ()))
    parts.extend(KERNEL_OVERLOADS[name] for name in sorted(hip_names) if name in KERNEL_OVERLOADS)
    parts.extend(LOCATION_OVERLOADS[name] for name in sorted(hip_names) if name in LOCATION_OVERLOADS)
    # (CUDA's own overloads serve these on HIP's NVIDIA platform; the default-argument templates
    # are needed there too, as HIP's NVIDIA wrappers have no defaults either)
    parts.extend(_on_amd(CXX_OVERLOADS[name]) for name in sorted(hip_names) if name in CXX_OVERLOADS)
    parts.extend(_default_args_overload(name) for name in sorted(hip_names) if name in CUDA_DEFAULT_ARGS)
    parts.extend(WARP_HELPERS[name] for name in sorted(hip_names) if name in WARP_HELPERS)
    parts.extend(HEADER_HELPERS[name] for name in sorted(hip_names) if name in HEADER_HELPERS)
    parts.extend(PTX_HELPERS[name] for name in sorted(hip_names) if name in PTX_HELPERS)
    parts.extend(_simd_helper(name[len("__cass"):]) for name in sorted(hip_names) if name[len("__cass"):] in SIMD_NAMES)
    parts.extend(served_text(name[len("served:"):]) for name in sorted(hip_names) if name.startswith("served:"))
    parts.extend(family_text(name[len("corrected:"):]) for name in sorted(hip_names) if name.startswith("corrected:"))
    # A translated file may include another (a .cu including a .cu, a translated header): each
    # piece is defined once however many preludes a compile reads.
    parts[1:] = [_once(p) for p in parts[1:]]
    # nvcc includes <cuda_runtime.h> in every CUDA source before its first line (and the prelude
    # includes HIP's runtime header in every translation): its guards and version hold everywhere.
    # (On HIP's NVIDIA platform CUDA's headers are there and define their own.)
    parts.append(_on_amd(header_macros({"cuda_runtime.h"} | {name[len("header:"):] for name in hip_names
                                                             if name.startswith("header:")})))
    parts = [p for p in parts if p]
    if len(parts) > 1:
        parts[1:1] = [_QUIET_UNUSED]
        parts.append(_QUIET_END)
    return "".join(parts)


def split_prelude(text: str) -> tuple[str, str]:
    """(prelude, body) of a rules translation: the prelude is everything prelude() put first,
    with the `#line 1` directive after it when the text still has one; ("", text) for text
    that does not start with a prelude (another translator's). The body is what a model
    trained on bodies answers (cass_train's data.answer = "body"): the translation of the
    user's code alone, which the rules' prelude of the same source completes."""
    if not text.startswith(BASE):
        return "", text
    end = text.find(_QUIET_END)
    at = end + len(_QUIET_END) if end >= 0 else len(BASE)
    if text.startswith('#line 1 "', at):
        line_end = text.find("\n", at)
        at = len(text) if line_end < 0 else line_end + 1
    return text[:at], text[at:]
