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


def prelude(hip_names: set[str]) -> str:
    """The text to prepend for a translation that emitted `hip_names`."""
    parts = [BASE]
    parts.extend(KERNEL_OVERLOADS[name] for name in sorted(hip_names) if name in KERNEL_OVERLOADS)
    return "".join(parts)
