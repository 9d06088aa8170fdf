"""C++ text the rules translator puts before the `#line 1` of its output.

CUDA's runtime header has C++ template overloads that take a kernel itself
(`cudaFuncGetAttributes(&attr, kernel)`); HIP 5.2 has only the `const void*` forms for
some of them, so a translated call would not compile. For each HIP name below that a
translation emits, the matching overload is prepended. Their parameter is a function
pointer `R (*)(A...)`, more specialised than any `T` or `T*` template a later HIP might
add, so they never clash with one.
"""
from __future__ import annotations

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


# CUDA's __reduce_*_sync and __match_*_sync (sm_70/sm_80) for HIP versions without them.
# They work on 32-lane groups, as CUDA warps are, whatever the wave size; the mask is
# taken to be the whole warp (rules.py drops it, as for the shuffles).
_REDUCE = (
    "template <class T> static __device__ inline T {name}(T v) {{"
    " for (int o = 16; o > 0; o /= 2) {{ T w = __shfl_xor(v, o, 32); v = {combine}; }} return v; }}\n"
)
WARP_HELPERS: dict[str, str] = {
    "__cass_reduce_add": _REDUCE.format(name="__cass_reduce_add", combine="v + w"),
    "__cass_reduce_min": _REDUCE.format(name="__cass_reduce_min", combine="w < v ? w : v"),
    "__cass_reduce_max": _REDUCE.format(name="__cass_reduce_max", combine="w > v ? w : v"),
    "__cass_reduce_and": _REDUCE.format(name="__cass_reduce_and", combine="v & w"),
    "__cass_reduce_or": _REDUCE.format(name="__cass_reduce_or", combine="v | w"),
    "__cass_reduce_xor": _REDUCE.format(name="__cass_reduce_xor", combine="v ^ w"),
    "__cass_match_any":
        "template <class T> static __device__ inline unsigned int __cass_match_any(T v) {"
        " unsigned int m = 0; for (int l = 0; l < 32; ++l) m |= (__shfl(v, l, 32) == v ? 1u : 0u) << l;"
        " return m; }\n",
    "__cass_match_all":
        "template <class T> static __device__ inline unsigned int __cass_match_all(T v, int* pred) {"
        " bool same = true; for (int l = 0; l < 32; ++l) same = same && (__shfl(v, l, 32) == v);"
        " *pred = same; return same ? 0xffffffffu : 0u; }\n",
}


def prelude(hip_names: set[str]) -> str:
    """The text to prepend for a translation that emitted `hip_names`."""
    parts = [BASE]
    parts.extend(KERNEL_OVERLOADS[name] for name in sorted(hip_names) if name in KERNEL_OVERLOADS)
    parts.extend(WARP_HELPERS[name] for name in sorted(hip_names) if name in WARP_HELPERS)
    return "".join(parts)
