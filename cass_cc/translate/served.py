"""CUDA names cass-cc serves itself, where HIP (the target version) has no counterpart.

A served name keeps its CUDA spelling in the translation, and the text defining it goes
into the prelude (prelude.py) when the translation uses it:

* `CUDART_*` constants of <math_constants.h> (HIP has them as HIP_* only from 5.3/5.7): their
  exact values, read from CUDA's header once (math_constants.tsv, made by
  scripts/extract_math_constants.py), spelled as hex literals;
* the integer functions of CUDA's math API (`umin`, `umax`, `llmin`, ..., host and device);
* `cudaDeviceProp`: HIP's hipDeviceProp_t plus the fields CUDA 12/13 have and HIP 5.x lacks
  (`deviceOverlap`, `sharedMemPerBlockOptin`, `asyncEngineCount`, ...), filled by an
  overload of hipGetDeviceProperties from HIP's device attributes; fields HIP has no
  information for are left out (a read is a compile error, not an invented value), except
  those whose value on an AMD GPU through HIP is known (no clusters, no MPS, ...).

Each helper is a template or an overload that a HIP defining the same name with the same
signature wins against, so a newer HIP never sees a redefinition.
"""
from __future__ import annotations

import functools
import struct
from pathlib import Path

from ..records import record

MATH_CONSTANTS_FILE = Path(__file__).with_name("math_constants.tsv")
# Version macros CUDA's headers define, as the CUDA release cass-cc reproduces (12.4 -> 12040).
VERSION_MACROS = {"cuda_runtime_api.h": "CUDART_VERSION", "cuda.h": "CUDA_VERSION"}


@record
class Served:
    key: str  # the prelude piece: a served_text() key
    until: tuple[int, int] | None  # first HIP version whose own name serves instead; None: always


def _literal(kind: str, bits: int) -> str:
    """A C literal of exactly these bits (valid C and C++, host and device)."""
    if kind == "u32":
        return f"{bits}U"
    if kind == "f32":
        value = struct.unpack("<f", struct.pack("<I", bits))[0]
        suffix, nan = "F", "__builtin_nanf"
        inf = "__builtin_inff()"
        mantissa_bits = 23
    else:
        value = struct.unpack("<d", struct.pack("<Q", bits))[0]
        suffix, nan = "", "__builtin_nan"
        inf = "__builtin_inf()"
        mantissa_bits = 52
    sign = "-" if bits >> (31 if kind == "f32" else 63) else ""
    if value != value:  # NaN: keep the payload (CUDART_NAN_F is 0x7fffffff, not the default NaN)
        payload = bits & ((1 << (mantissa_bits - 1)) - 1)
        return f"({sign}{nan}(\"{payload:#x}\"))"
    if value in (float("inf"), float("-inf")):
        return f"({sign}{inf})"
    return f"({value.hex()}{suffix})" if value != 0 or not sign else f"(-0.0{suffix})"


@functools.lru_cache(maxsize=None)
def math_constants() -> dict[str, str]:
    """CUDART_* name -> C literal."""
    out: dict[str, str] = {}
    for line in MATH_CONSTANTS_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, kind, bits = line.split("\t")
            out[name] = _literal(kind, int(bits, 16))
    return out


def _math_constants_text() -> str:
    return "".join(f"#ifndef {name}\n#define {name} {value}\n#endif\n" for name, value in math_constants().items())


# CUDA math API integer functions (device and host), as templates a HIP's own non-template wins against.
_MINMAX = {
    "umin": "unsigned int", "umax": "unsigned int", "llmin": "long long int", "llmax": "long long int",
    "ullmin": "unsigned long long int", "ullmax": "unsigned long long int",
}


def _minmax_text(name: str) -> str:
    t = _MINMAX[name]
    op = "<" if name.endswith("min") else ">"
    return (f"template <class = void> static __host__ __device__ inline {t} {name}({t} a, {t} b)"
            f" {{ return a {op} b ? a : b; }}\n")


# cudaDeviceProp fields (CUDA 12 and 13) that HIP 5.x's hipDeviceProp_t lacks, with where
# HIP has the value: ("attr", hipDeviceAttribute...), ("field", a hipDeviceProp_t field), or
# ("value", what it is on an AMD GPU through HIP).
DEVICE_PROP_FIELDS: dict[str, tuple[str, str, str]] = {
    "deviceOverlap": ("int", "attr", "hipDeviceAttributeDeviceOverlap"),
    "asyncEngineCount": ("int", "attr", "hipDeviceAttributeAsyncEngineCount"),
    "unifiedAddressing": ("int", "attr", "hipDeviceAttributeUnifiedAddressing"),
    "luidDeviceNodeMask": ("unsigned int", "attr", "hipDeviceAttributeLuidDeviceNodeMask"),
    "maxTexture1DMipmap": ("int", "attr", "hipDeviceAttributeMaxTexture1DMipmap"),
    "maxTextureCubemap": ("int", "attr", "hipDeviceAttributeMaxTextureCubemap"),
    "maxSurface1D": ("int", "attr", "hipDeviceAttributeMaxSurface1D"),
    "maxSurfaceCubemap": ("int", "attr", "hipDeviceAttributeMaxSurfaceCubemap"),
    "surfaceAlignment": ("size_t", "attr", "hipDeviceAttributeSurfaceAlignment"),
    "persistingL2CacheMaxSize": ("int", "attr", "hipDeviceAttributePersistingL2CacheMaxSize"),
    "streamPrioritiesSupported": ("int", "attr", "hipDeviceAttributeStreamPrioritiesSupported"),
    "globalL1CacheSupported": ("int", "attr", "hipDeviceAttributeGlobalL1CacheSupported"),
    "localL1CacheSupported": ("int", "attr", "hipDeviceAttributeLocalL1CacheSupported"),
    "sharedMemPerMultiprocessor": ("size_t", "field", "maxSharedMemoryPerMultiProcessor"),
    "regsPerMultiprocessor": ("int", "attr", "hipDeviceAttributeMaxRegistersPerMultiprocessor"),
    "multiGpuBoardGroupID": ("int", "attr", "hipDeviceAttributeMultiGpuBoardGroupID"),
    "hostNativeAtomicSupported": ("int", "attr", "hipDeviceAttributeHostNativeAtomicSupported"),
    "computePreemptionSupported": ("int", "attr", "hipDeviceAttributeComputePreemptionSupported"),
    "canUseHostPointerForRegisteredMem": ("int", "attr", "hipDeviceAttributeCanUseHostPointerForRegisteredMem"),
    "sharedMemPerBlockOptin": ("size_t", "attr", "hipDeviceAttributeSharedMemPerBlockOptin"),
    "maxBlocksPerMultiProcessor": ("int", "attr", "hipDeviceAttributeMaxBlocksPerMultiProcessor"),
    "accessPolicyMaxWindowSize": ("int", "attr", "hipDeviceAttributeAccessPolicyMaxWindowSize"),
    "reservedSharedMemPerBlock": ("size_t", "attr", "hipDeviceAttributeReservedSharedMemPerBlock"),
    "memoryPoolsSupported": ("int", "attr", "hipDeviceAttributeMemoryPoolsSupported"),
    # Known on an AMD GPU through HIP: no thread-block clusters, no MPS, no NUMA placement
    # of device memory reported, host registration (hipHostRegister) supported.
    "hostRegisterSupported": ("int", "value", "1"),
    "clusterLaunch": ("int", "value", "0"),
    "mpsEnabled": ("int", "value", "0"),
    "deviceNumaConfig": ("int", "value", "0"),
    "deviceNumaId": ("int", "value", "-1"),
    "hostNumaId": ("int", "value", "-1"),
}


def _device_prop_text() -> str:
    fields = "".join(f" {ctype} {name};" for name, (ctype, _, _) in DEVICE_PROP_FIELDS.items())
    fills = []
    for name, (ctype, how, source) in DEVICE_PROP_FIELDS.items():
        if how == "attr":
            fills.append(f" v = 0; (void)hipDeviceGetAttribute(&v, {source}, d); p->{name} = ({ctype})v;")
        elif how == "field":
            fills.append(f" p->{name} = p->{source};")
        else:
            fills.append(f" p->{name} = {source};")
    # Guarded: a translation and the shim toolkit's headers (reached through -I) both define it.
    return (
        "/* CUDA's cudaDeviceProp: HIP's fields, and those HIP keeps as device attributes. */\n"
        "#ifndef CASS_SERVED_CUDA_DEVICE_PROP\n#define CASS_SERVED_CUDA_DEVICE_PROP\n"
        f"struct cudaDeviceProp : hipDeviceProp_t {{{fields} }};\n"
        "static inline hipError_t hipGetDeviceProperties(cudaDeviceProp* p, int d) {"
        " hipError_t e = hipGetDeviceProperties(static_cast<hipDeviceProp_t*>(p), d);"
        " if (e != hipSuccess) return e; int v;" + "".join(fills) +
        " return hipSuccess; }\n#endif\n"
    )


@functools.lru_cache(maxsize=None)
def _inventory_headers() -> list:
    from ..inventory import data

    return data.headers()


@functools.lru_cache(maxsize=None)
def guards_of(header: str) -> tuple[str, ...]:
    """The guard macros `#include <header>` defines in CUDA, its own and its includes'
    (the inventory's headers.tsv, extracted from CUDA's headers)."""
    from ..inventory import data

    return tuple(data.guards_defined_by(header, _inventory_headers()))


def _version_number() -> int:
    from .. import CUDA_COMPAT_VERSION

    major, minor = CUDA_COMPAT_VERSION.split(".")[:2]
    return int(major) * 1000 + int(minor) * 10


def header_macros(headers: set[str]) -> str:
    """#defines of what including these CUDA headers defines in CUDA: guards, versions."""
    guards = sorted({g for h in headers for g in guards_of(h)})
    lines = [f"#ifndef {g}\n#define {g}\n#endif\n" for g in guards]
    # a version macro comes with its header, however that header was reached
    versions = {macro for h, macro in VERSION_MACROS.items() if guards_of(h) and guards_of(h)[0] in guards}
    versions |= {VERSION_MACROS[h] for h in headers if h in VERSION_MACROS}
    lines += [f"#ifndef {m}\n#define {m} {_version_number()}\n#endif\n" for m in sorted(versions)]
    return "".join(lines)


@functools.lru_cache(maxsize=None)
def data_hash() -> str:
    """sha256 over this module and its data files (part of the shim toolkit's key)."""
    from ..util import sha256_hex

    from ..inventory import data

    files = (Path(__file__), MATH_CONSTANTS_FILE, data.DATA_DIR / "headers.tsv")
    return sha256_hex(*(p.read_text(encoding="utf-8") for p in files))


# CUDA's calling-convention macros (`void CUDART_CB callback(...)`): __stdcall on Windows,
# nothing elsewhere; HIP has no counterpart.
CALLING_CONVENTIONS = ("CUDART_CB", "CUDARTAPI", "CUDA_CB", "CUDAAPI")
# Attributes with no effect on AMD's code: `__grid_constant__` (CUDA 11.7) lets a kernel take the
# address of a const parameter without a copy; HIP's kernel arguments are read-only memory already.
# The rest: host_defines.h's markers, empty for a host compiler too (Windows' dllexport/import,
# NVIDIA's builtin-type and inlining/purity annotations).
EMPTY_ATTRIBUTES = ("__grid_constant__", "CUDARTAPI_CDECL", "__cudart_builtin__", "__device_builtin__",
                    "__device_builtin_surface_type__", "__device_builtin_texture_type__", "__export__", "__import__",
                    "__inline_hint__", "__nv_pure__")
# host_defines.h's spellings of GNU attributes and keywords, as it defines them for a host compiler.
GNU_SPELLINGS = {"__no_return__": "__attribute__((noreturn))", "__thread__": "__thread"}
# `__maxnreg__(N)` (CUDA 12.4) caps a kernel's registers per thread: a tuning hint, which HIP's
# compiler makes its own choices for (no effect on results).
HINT_ATTRIBUTES = ("__maxnreg__", "__local_maxnreg__")
# `__managed__` variables: clang has the attribute and libamdhip64 5.2 registers them
# (__hipRegisterManagedVar), but HIP 5.2's headers never define the keyword.
MANAGED = "#ifndef __managed__\n#define __managed__ __attribute__((managed))\n#endif\n"
# cudaMemLocationTypeHost (CUDA 12.2): HIP 5.x's hipMemLocationType has the device kind only.
# Served with CUDA's value; prelude.py's cudaMemLocation overloads of hipMemPrefetchAsync and
# hipMemAdvise send every location that is not a device to the CPU (hipCpuDeviceId).
MEM_LOCATION_HOST = "#ifndef cudaMemLocationTypeHost\n#define cudaMemLocationTypeHost ((hipMemLocationType)2)\n#endif\n"


# float overloads of <cmath> functions clang 15 declares for the device (its CUDA/HIP math forward
# declarations) and HIP 5.2 never defines: a call compiles and the device link fails ("undefined
# symbol: frexp(float, int*)", cuda-samples' eigenvalues). Found by calling every float overload
# those declarations list; defined here, with the declarations' own storage class.
_DEVICE_DECL = "static __inline__ __attribute__((always_inline)) __attribute__((device))"
FLOAT_OVERLOADS = {
    "frexp": f"{_DEVICE_DECL} float frexp(float x, int* e) {{ return frexpf(x, e); }}\n",
    "modf": f"{_DEVICE_DECL} float modf(float x, float* i) {{ return modff(x, i); }}\n",
    "remquo": f"{_DEVICE_DECL} float remquo(float x, float y, int* q) {{ return remquof(x, y, q); }}\n",
    "scalbln": f"{_DEVICE_DECL} float scalbln(float x, long n) {{ return scalblnf(x, n); }}\n",
}


# Scoped atomics HIP 5.x lacks. `_block` (CTA scope): HIP's device-scope atomic, a stronger
# guarantee. `_system`: the __hip_atomic builtins at system scope for the types HIP 5.x has no
# overload of (long long and, or, xor, min, max), and inc/dec as compare-and-swap loops. Templates,
# so HIP's own non-template overloads win wherever they exist.
_ATOMIC_OPS = ("Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "CAS", "And", "Or", "Xor")
_SYSTEM_FETCH = {"And": "and", "Or": "or", "Xor": "xor", "Min": "min", "Max": "max"}
_STEP = {"Inc": "o >= v ? 0u : o + 1u", "Dec": "(o == 0u || o > v) ? v : o - 1u"}


def _atomic_text(name: str) -> str:
    op, scope = name[len("atomic"):].split("_")
    if scope == "block":
        return (f"template <class... A> static __device__ inline auto {name}(A... a) -> decltype(atomic{op}(a...))"
                f" {{ return atomic{op}(a...); }}\n")
    if op in _STEP:
        return (f"static __device__ inline unsigned int {name}(unsigned int* p, unsigned int v) {{"
                " unsigned int o = *(volatile unsigned int*)p, seen;"
                f" while ((seen = atomicCAS_system(p, o, {_STEP[op]})) != o) o = seen; return o; }}\n")
    return (f"template <class T> static __device__ inline T {name}(T* p, T v) {{"
            f" return __hip_atomic_fetch_{_SYSTEM_FETCH[op]}(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM); }}\n")


# Overloads CUDA has and HIP 5.2 lacks (found by the inventory: sm_32/sm_60/sm_70/sm_90 headers):
# signed 64-bit And/Or/Xor (the unsigned ones' bits) and Min/Max (a compare-and-swap loop), a 16-bit
# compare-and-swap (on its aligned 32-bit word), and float2/float4 adds, atomic per element as
# CUDA documents them. Its key sorts before the `_block` templates above, which must see them.
ATOMIC_OVERLOADS_KEY = "atomic overloads"
_ATOMIC_OVERLOADS = "".join(
    [f"static __device__ inline long long atomic{op}(long long* p, long long v) {{"
     f" return (long long)atomic{op}((unsigned long long*)p, (unsigned long long)v); }}\n" for op in ("And", "Or", "Xor")]
    + [f"static __device__ inline long long atomic{op}(long long* p, long long v) {{"
       " unsigned long long* u = (unsigned long long*)p; unsigned long long seen = *(volatile unsigned long long*)u, o;"
       f" do {{ o = seen; if (!((long long)o {cmp} v)) break; seen = atomicCAS(u, o, (unsigned long long)v); }}"
       " while (seen != o); return (long long)o; }\n" for op, cmp in (("Min", ">"), ("Max", "<"))]
    + ["static __device__ inline unsigned short atomicCAS(unsigned short* p, unsigned short compare, unsigned short val) {"
       " unsigned int* w = (unsigned int*)((unsigned long long)p & ~3ull);"
       " unsigned int shift = ((unsigned long long)p & 2ull) ? 16u : 0u;"
       " unsigned int seen = *(volatile unsigned int*)w, o;"
       " do { o = seen; unsigned short cur = (unsigned short)(o >> shift); if (cur != compare) return cur;"
       " seen = atomicCAS(w, o, (o & ~(0xffffu << shift)) | ((unsigned int)val << shift)); } while (seen != o);"
       " return compare; }\n",
       "static __device__ inline float2 atomicAdd(float2* p, float2 v) {"
       " return make_float2(atomicAdd(&p->x, v.x), atomicAdd(&p->y, v.y)); }\n",
       "static __device__ inline float4 atomicAdd(float4* p, float4 v) {"
       " return make_float4(atomicAdd(&p->x, v.x), atomicAdd(&p->y, v.y), atomicAdd(&p->z, v.z), atomicAdd(&p->w, v.w)); }\n"])
ATOMIC_OVERLOADED = ("atomicAnd", "atomicOr", "atomicXor", "atomicMin", "atomicMax", "atomicCAS", "atomicAdd")

# __hadd_rn, __hsub_rn, __hmul_rn (and their 2-lane forms): the plain operation, which the
# compiler must not contract with a neighbouring one into a fused multiply-add. HIP 5.2 has none:
# on halves, the _Float16 operation under `contract(off)`; on the bfloat16 stand-in, whose
# functions round through bits and never contract, the plain functions.
_RN_OPS = {"add": "+", "sub": "-", "mul": "*"}
_HALF_RN = "".join(
    ["#include <hip/hip_fp16.h>\n"]
    + [f"static __device__ inline __half __h{op}_rn(__half a, __half b) {{\n#pragma clang fp contract(off)\n"
       f"  return __half_raw{{static_cast<__half_raw>(a).data {sym} static_cast<__half_raw>(b).data}};\n}}\n"
       f"static __device__ inline __half2 __h{op}2_rn(__half2 a, __half2 b) {{"
       f" return __halves2half2(__h{op}_rn(__low2half(a), __low2half(b)), __h{op}_rn(__high2half(a), __high2half(b))); }}\n"
       for op, sym in _RN_OPS.items()]
    + ["#ifdef CASS_BF16_PRELUDE\n"]
    + [f"static __device__ inline __hip_bfloat16 __h{op}_rn(__hip_bfloat16 a, __hip_bfloat16 b) {{ return __h{op}(a, b); }}\n"
       f"static __device__ inline __hip_bfloat162 __h{op}2_rn(__hip_bfloat162 a, __hip_bfloat162 b) {{"
       f" return __h{op}2(a, b); }}\n" for op in _RN_OPS]
    + ["#endif\n"])
HALF_RN_NAMES = tuple(f"__h{op}{two}_rn" for op in _RN_OPS for two in ("", "2"))

SCOPED_ATOMICS = ([f"atomic{op}_block" for op in _ATOMIC_OPS]
                  + [f"atomic{op}_system" for op in (*_SYSTEM_FETCH, *_STEP)])


# thread_block_tile::meta_group_rank()/meta_group_size() for HIP 5.x, whose templated tiles are
# always tiles of the thread block (its tiled_partition<N> takes a thread_block only): the
# tile's index in the block and the number of tiles, as CUDA defines them.
CG_TILE_META = (
    "#include <hip/hip_cooperative_groups.h>\n"
    "template <unsigned int S, class P> static __device__ inline unsigned int"
    " __cass_meta_group_rank(const cooperative_groups::thread_block_tile<S, P>&) {"
    " return cooperative_groups::this_thread_block().thread_rank() / S; }\n"
    "template <unsigned int S, class P> static __device__ inline unsigned int"
    " __cass_meta_group_size(const cooperative_groups::thread_block_tile<S, P>&) {"
    " return (blockDim.x * blockDim.y * blockDim.z + S - 1) / S; }\n"
)


# cuBLAS math modes (cublasSetMathMode/GetMathMode): hipBLAS 5.x has no such call. Each mode is a
# permission to compute with less precision than the inputs' type (tensor ops, TF32) or a demand not
# to; rocBLAS computes every mode's products in the inputs' own precision, which satisfies all of
# them, so the mode is checked, kept per handle for cublasGetMathMode, and the computation unchanged.
CUBLAS_MATH_MODES = {"CUBLAS_DEFAULT_MATH": 0, "CUBLAS_TENSOR_OP_MATH": 1, "CUBLAS_PEDANTIC_MATH": 2,
                     "CUBLAS_TF32_TENSOR_OP_MATH": 3, "CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION": 16}
CUBLAS_MATH_NAMES = ("cublasMath_t", "cublasSetMathMode", "cublasGetMathMode", *CUBLAS_MATH_MODES)
_CUBLAS_MATH = (
    "#include <hipblas/hipblas.h>\n#include <mutex>\n#include <unordered_map>\n"
    "typedef enum { " + ", ".join(f"{name} = {value}" for name, value in CUBLAS_MATH_MODES.items()) + " } cublasMath_t;\n"
    "inline std::unordered_map<hipblasHandle_t, cublasMath_t>& __cass_cublas_math_modes(std::mutex** lock) {"
    " static std::mutex m; static std::unordered_map<hipblasHandle_t, cublasMath_t> modes; *lock = &m; return modes; }\n"
    "inline hipblasStatus_t cublasSetMathMode(hipblasHandle_t h, cublasMath_t mode) {"
    " if (!h) return HIPBLAS_STATUS_NOT_INITIALIZED;"
    " if ((mode & ~16) > 3) return HIPBLAS_STATUS_INVALID_VALUE;"
    " std::mutex* m; auto& modes = __cass_cublas_math_modes(&m); std::lock_guard<std::mutex> g(*m);"
    " modes[h] = mode; return HIPBLAS_STATUS_SUCCESS; }\n"
    "inline hipblasStatus_t cublasGetMathMode(hipblasHandle_t h, cublasMath_t* mode) {"
    " if (!h) return HIPBLAS_STATUS_NOT_INITIALIZED; if (!mode) return HIPBLAS_STATUS_INVALID_VALUE;"
    " std::mutex* m; auto& modes = __cass_cublas_math_modes(&m); std::lock_guard<std::mutex> g(*m);"
    " auto it = modes.find(h); *mode = it == modes.end() ? CUBLAS_DEFAULT_MATH : it->second;"
    " return HIPBLAS_STATUS_SUCCESS; }\n"
)


# CUDA's byte and half-word dot products (sm_61_intrinsics.h): HIP has none. CUDA's documented
# arithmetic: __dp4a sums the four byte products of its first two operands into the third;
# __dp2a_lo/_hi the products of the first operand's two 16-bit halves with the second's low/high two
# bytes; signed or unsigned as the operands are, 32-bit wrapping. Templates: a HIP's own wins.
def _dot(name: str, t: str, a: str, b: str, c: str, terms: list[tuple[str, str]]) -> str:
    total = " + ".join(f"(unsigned int)(({t})({x}) * ({t})({y}))" for x, y in terms)
    return (f"template <class = void> static __device__ inline {c} {name}({a} a, {b} b, {c} c)"
            f" {{ return ({c})((unsigned int)c + {total}); }}\n")


_BYTES = [(f"(signed char)(a >> {8 * k})", f"(signed char)(b >> {8 * k})") for k in range(4)]
_UBYTES = [(f"(unsigned char)(a >> {8 * k})", f"(unsigned char)(b >> {8 * k})") for k in range(4)]
_LANES = ("x", "y", "z", "w")
DOT_PRODUCTS = "".join([
    _dot("__dp4a", "int", "int", "int", "int", _BYTES),
    _dot("__dp4a", "unsigned int", "unsigned int", "unsigned int", "unsigned int", _UBYTES),
    _dot("__dp4a", "int", "char4", "char4", "int", [(f"a.{v}", f"b.{v}") for v in _LANES]),
    _dot("__dp4a", "unsigned int", "uchar4", "uchar4", "unsigned int", [(f"a.{v}", f"b.{v}") for v in _LANES]),
    *(_dot(f"__dp2a_{half}", "int", "int", "int", "int",
           [("(short)a", f"(signed char)(b >> {base})"), ("(short)(a >> 16)", f"(signed char)(b >> {base + 8})")])
      for half, base in (("lo", 0), ("hi", 16))),
    *(_dot(f"__dp2a_{half}", "unsigned int", "unsigned int", "unsigned int", "unsigned int",
           [("(unsigned short)a", f"(unsigned char)(b >> {base})"),
            ("(unsigned short)(a >> 16)", f"(unsigned char)(b >> {base + 8})")])
      for half, base in (("lo", 0), ("hi", 16))),
    *(_dot(f"__dp2a_{half}", "int", "short2", "char4", "int", [("a.x", f"b.{lanes[0]}"), ("a.y", f"b.{lanes[1]}")])
      for half, lanes in (("lo", "xy"), ("hi", "zw"))),
    *(_dot(f"__dp2a_{half}", "unsigned int", "ushort2", "uchar4", "unsigned int",
           [("a.x", f"b.{lanes[0]}"), ("a.y", f"b.{lanes[1]}")]) for half, lanes in (("lo", "xy"), ("hi", "zw"))),
])


@functools.lru_cache(maxsize=None)
def served_names() -> dict[str, Served]:
    """CUDA name -> how it is served (the rules translator keeps these names)."""
    from . import mappings

    names: dict[str, Served] = {}
    for name in math_constants():
        row = mappings.lookup(name)
        until = row.hip_version if row is not None and row.hip_name else None
        names[name] = Served("math_constants.h", until or (99, 0))
    for name in _MINMAX:
        names[name] = Served(name, None)
    names["cudaDeviceProp"] = Served("cudaDeviceProp", None)
    for name in FLOAT_OVERLOADS:
        names[name] = Served(name, (5, 3))
    for name in SCOPED_ATOMICS:
        names[name] = Served(name, None)
    for name in ATOMIC_OVERLOADED:
        names[name] = Served(ATOMIC_OVERLOADS_KEY, (5, 3))  # measured on 5.2 only: later HIPs unknown
    names["cudaMemLocationTypeHost"] = Served("cudaMemLocationTypeHost", None)
    names["__managed__"] = Served("__managed__", None)
    for name in HALF_RN_NAMES:
        names[name] = Served("half _rn", (5, 3))  # measured on 5.2 only
    for name in (*CALLING_CONVENTIONS, *EMPTY_ATTRIBUTES, *HINT_ATTRIBUTES, *GNU_SPELLINGS):
        names[name] = Served(name, None)
    for name in CUBLAS_MATH_NAMES:
        names[name] = Served("cublas math modes", None)
    for name in ("__dp4a", "__dp2a_lo", "__dp2a_hi"):
        names[name] = Served("dot products", None)
    return names


# On HIP's NVIDIA platform (cass-cc verify, cass-cc hipcc) CUDA's own headers stand behind HIP's:
# what CUDA has is not defined again there, and helpers reach CUDA's own members.
_NVIDIA_DEVICE_PROP = ("static inline hipError_t hipGetDeviceProperties(cudaDeviceProp* p, int d)"
                       " { return cudaGetDeviceProperties(p, d); }\n")  # hipnv: hipError_t is cudaError
_NVIDIA_TILE_META = (
    "template <class T> static __device__ inline unsigned int __cass_meta_group_rank(const T& t) { return t.meta_group_rank(); }\n"
    "template <class T> static __device__ inline unsigned int __cass_meta_group_size(const T& t) { return t.meta_group_size(); }\n"
)


def _on_amd(text: str, nvidia: str = "") -> str:
    other = f"#else\n{nvidia}" if nvidia else ""
    return f"#if defined(__HIP_PLATFORM_AMD__)\n{text}{other}#endif\n"


@functools.lru_cache(maxsize=None)
def served_text(key: str) -> str:
    if key == "math_constants.h":
        return _math_constants_text()
    if key in _MINMAX:
        return _minmax_text(key)
    if key in CALLING_CONVENTIONS + EMPTY_ATTRIBUTES:
        return f"#ifndef {key}\n#define {key}\n#endif\n"
    if key in HINT_ATTRIBUTES:
        return f"#ifndef {key}\n#define {key}(n)\n#endif\n"
    if key in GNU_SPELLINGS:
        return f"#ifndef {key}\n#define {key} {GNU_SPELLINGS[key]}\n#endif\n"
    if key == "cudaDeviceProp":
        return _on_amd(_device_prop_text(), _NVIDIA_DEVICE_PROP)
    if key == "cg_tile_meta":
        return _on_amd(CG_TILE_META, _NVIDIA_TILE_META)
    if key in SCOPED_ATOMICS:
        return _on_amd(_atomic_text(key))
    if key == ATOMIC_OVERLOADS_KEY:
        return _on_amd(_ATOMIC_OVERLOADS)
    if key in FLOAT_OVERLOADS:
        return _on_amd(FLOAT_OVERLOADS[key])
    if key == "cudaMemLocationTypeHost":
        return _on_amd(MEM_LOCATION_HOST)
    if key == "__managed__":
        return _on_amd(MANAGED)
    if key == "half _rn":
        return _on_amd(_HALF_RN)
    if key == "cublas math modes":
        return _on_amd(_CUBLAS_MATH)
    if key == "dot products":
        return _on_amd(DOT_PRODUCTS)
    raise KeyError(key)


def is_served(name: str, hip_version: tuple[int, int]) -> Served | None:
    """How `name` is served on this HIP, or None when HIP's own name (or nothing) serves."""
    served = served_names().get(name)
    if served is None or (served.until is not None and hip_version >= served.until):
        return None
    return served
