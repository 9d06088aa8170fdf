"""What the random kernels compute: per result type, the operations (a C format over typed
operands), each free of undefined behaviour and of answers the platforms may legitimately give
differently.

- Signed integer arithmetic goes through the unsigned type (wraps on both platforms); shift counts
  are masked; division and remainder guard zero and INT_MIN / -1 (PRELUDE's fz_ helpers).
- Float -> integer conversions are guarded to the destination's range (out of range is undefined).
- NaN bits never reach an integer or a sign test: copysign and signbit take their sign from a
  non-NaN, and output slots compare NaN with NaN whatever the payload (NVIDIA's and AMD's default
  NaNs differ).
- Approximate math (sinf, expf, powf, ...) feeds only an output slot compared in units in the last
  place (APPROX), never other arithmetic: two correct libraries may differ in the last bits.
- Where nvcc itself is wrong, the truth would be: nvcc 13.0 folds `ceil((double)LLONG_MAX)` to -2^63
  (at run time ceil gives +2^63; checked on the H200, fuzz r2:209), so ceil goes through fz_ceil,
  which leaves alone the doubles that are already integers (|x| >= 2^52) and is ceil elsewhere.
"""
from __future__ import annotations

# Types an expression can have; "bool" only as a condition or an operand.
INT_TYPES = ("i32", "u32", "i64", "u64")
FLOAT_TYPES = ("f32", "f64", "f16", "bf16")
SCALARS = INT_TYPES + FLOAT_TYPES

PRELUDE = r"""#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
@EXTRA@
#define FZ_FULL 0xffffffffu
static __device__ __forceinline__ int fz_div_i32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == -1)) ? a : a / b; }
static __device__ __forceinline__ int fz_rem_i32(int a, int b) { return (b == 0 || b == -1) ? a : a % b; }
static __device__ __forceinline__ unsigned fz_div_u32(unsigned a, unsigned b) { return b == 0u ? a : a / b; }
static __device__ __forceinline__ unsigned fz_rem_u32(unsigned a, unsigned b) { return b == 0u ? a : a % b; }
static __device__ __forceinline__ long long fz_div_i64(long long a, long long b) { return (b == 0 || (a == (-9223372036854775807ll - 1) && b == -1)) ? a : a / b; }
static __device__ __forceinline__ long long fz_rem_i64(long long a, long long b) { return (b == 0 || b == -1) ? a : a % b; }
static __device__ __forceinline__ unsigned long long fz_div_u64(unsigned long long a, unsigned long long b) { return b == 0ull ? a : a / b; }
static __device__ __forceinline__ unsigned long long fz_rem_u64(unsigned long long a, unsigned long long b) { return b == 0ull ? a : a % b; }
static __device__ __forceinline__ double fz_ceil(double x) { return (x >= 0x1p52 || x <= -0x1p52) ? x : ceil(x); }
static __device__ __forceinline__ int fz_abs_i32(int a) { return a == (-2147483647 - 1) ? a : abs(a); }
static __device__ __forceinline__ long long fz_abs_i64(long long a) { return a == (-9223372036854775807ll - 1) ? a : llabs(a); }
static __device__ __forceinline__ int fz_f2i(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? (int)x : 0; }
static __device__ __forceinline__ unsigned fz_f2u(float x) { return (x > -1.0f && x < 4294967296.0f) ? (unsigned)x : 0u; }
static __device__ __forceinline__ int fz_d2i(double x) { return (x > -2147483649.0 && x < 2147483648.0) ? (int)x : 0; }
static __device__ __forceinline__ long long fz_d2ll(double x) { return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (long long)x : 0ll; }
static __device__ __forceinline__ unsigned long long fz_d2ull(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? (unsigned long long)x : 0ull; }
static __device__ __forceinline__ bool fz_inrange_f(float x) { return x >= -2147483648.0f && x <= 2147483520.0f; }
static __device__ __forceinline__ int fz_h2i(__half h) { return (__hisnan(h) || __hisinf(h)) ? 0 : __half2int_rz(h); }
static __device__ __forceinline__ float fz_copysignf(float a, float b) { return isnan(b) ? a : copysignf(a, b); }
static __device__ __forceinline__ double fz_copysign(double a, double b) { return isnan(b) ? a : copysign(a, b); }
static __device__ __forceinline__ bool fz_signbitf(float a) { return !isnan(a) && signbit(a); }
static __device__ __forceinline__ unsigned fz_hbits(__half h) { return __hisnan(h) ? 0x7fffu : (unsigned)__half_as_ushort(h); }
static __device__ __forceinline__ unsigned fz_bbits(__nv_bfloat16 h) { return __hisnan(h) ? 0x7fffu : (unsigned)__bfloat16_as_ushort(h); }
static __device__ __forceinline__ float fz_small(float x) { return isfinite(x) ? fmodf(x, 3.0f) : 0.5f; }
static __device__ __forceinline__ unsigned long long fz_ld64(const unsigned* in, unsigned i) { return (unsigned long long)in[i & 1023u] << 32 | in[(i + 1u) & 1023u]; }
"""

EXTRA_HEADERS = {"cg": "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
                       "namespace cg = cooperative_groups;"}

# (weight, format, operand types) per result type.
Op = tuple[int, str, tuple[str, ...]]


def _int_ops(ty: str) -> list[Op]:
    c = {"i32": "int", "u32": "unsigned", "i64": "long long", "u64": "unsigned long long"}[ty]
    u = {"i32": "unsigned", "u32": "unsigned", "i64": "unsigned long long", "u64": "unsigned long long"}[ty]
    bits = 31 if ty in ("i32", "u32") else 63
    sfx = "u" if bits == 31 else "ull"
    w = ty[1:]
    signed = ty[0] == "i"

    def wrap(op: str) -> str:
        return f"({c})(({u})({{0}}) {op} ({u})({{1}}))" if signed else f"({{0}} {op} {{1}})"

    ops: list[Op] = [
        (6, wrap("+"), (ty, ty)), (4, wrap("-"), (ty, ty)), (4, wrap("*"), (ty, ty)),
        (3, "({0} & {1})", (ty, ty)), (3, "({0} | {1})", (ty, ty)), (3, "({0} ^ {1})", (ty, ty)),
        (1, "(~{0})", (ty,)),
        (2, f"({c})(({u})({{0}}) << ({{1}} & {bits}{sfx}))" if signed else f"({{0}} << ({{1}} & {bits}{sfx}))",
         (ty, "u32" if bits == 31 else "u64")),
        (2, f"({{0}} >> ({{1}} & {bits}{sfx}))", (ty, "u32" if bits == 31 else "u64")),
        (2, f"fz_div_{ty}({{0}}, {{1}})", (ty, ty)), (2, f"fz_rem_{ty}({{0}}, {{1}})", (ty, ty)),
        (2, "({0} ? {1} : {2})", ("bool", ty, ty)),
        (2, f"({c})({{0}})", ("bool",)),
        (2, "min({0}, {1})", (ty, ty)), (2, "max({0}, {1})", (ty, ty)),
    ]
    # conversions from the other integer types and guarded ones from floats
    for other in INT_TYPES:
        if other != ty:
            ops.append((2, f"({c})({{0}})", (other,)))
    ops += {
        "i32": [(1, "(int)(signed char)({0})", ("i32",)), (1, "(int)(short)({0})", ("u32",)),
                (2, "fz_f2i({0})", ("f32",)), (1, "fz_d2i({0})", ("f64",)), (1, "fz_h2i({0})", ("f16",)),
                (1, "(fz_inrange_f({0}) ? __float2int_rn({0}) : 0)", ("f32",)),
                (1, "(fz_inrange_f({0}) ? __float2int_rd({0}) : 0)", ("f32",)),
                (1, "(fz_inrange_f({0}) ? __float2int_ru({0}) : 0)", ("f32",)),
                (1, "fz_f2i(__bfloat162float({0}))", ("bf16",)),
                (1, "__popc({0})", ("u32",)), (1, "__popcll({0})", ("u64",)), (1, "__clz({0})", ("i32",)),
                (1, "__clzll({0})", ("i64",)), (1, "__ffs({0})", ("i32",)), (1, "__ffsll({0})", ("i64",)),
                (1, "__mulhi({0}, {1})", ("i32", "i32")), (1, "__mul24({0}, {1})", ("i32", "i32")),
                (1, "__hadd({0}, {1})", ("i32", "i32")), (1, "__rhadd({0}, {1})", ("i32", "i32")),
                (1, "fz_abs_i32({0})", ("i32",)),
                (1, "__sad({0}, {1}, {2})", ("i32", "i32", "u32")),
                (1, "(int)isnan({0})", ("f32",)), (1, "(int)fz_signbitf({0})", ("f32",)),
                (1, "(int)isinf({0})", ("f64",))],
        "u32": [(1, "(unsigned)(unsigned char)({0})", ("u32",)), (1, "(unsigned)(unsigned short)({0})", ("i32",)),
                (2, "fz_f2u({0})", ("f32",)), (1, "(unsigned)fz_d2ll({0})", ("f64",)),
                (1, "__brev({0})", ("u32",)), (1, "__byte_perm({0}, {1}, {2})", ("u32", "u32", "u32")),
                (1, "__funnelshift_l({0}, {1}, {2})", ("u32", "u32", "u32")),
                (1, "__funnelshift_r({0}, {1}, {2})", ("u32", "u32", "u32")),
                (1, "__funnelshift_lc({0}, {1}, {2})", ("u32", "u32", "u32")),
                (1, "__funnelshift_rc({0}, {1}, {2})", ("u32", "u32", "u32")),
                (1, "__umulhi({0}, {1})", ("u32", "u32")), (1, "__umul24({0}, {1})", ("u32", "u32")),
                (1, "__usad({0}, {1}, {2})", ("u32", "u32", "u32")), (1, "__uhadd({0}, {1})", ("u32", "u32")),
                (1, "__urhadd({0}, {1})", ("u32", "u32")), (1, "__vadd4({0}, {1})", ("u32", "u32")),
                (1, "__vsub2({0}, {1})", ("u32", "u32")), (1, "__vabsdiffu4({0}, {1})", ("u32", "u32")),
                (1, "__vmaxu4({0}, {1})", ("u32", "u32")), (1, "__vcmpeq4({0}, {1})", ("u32", "u32")),
                (1, "fz_hbits({0})", ("f16",)), (1, "fz_bbits({0})", ("bf16",)),
                (3, "in[({0}) & 1023u]", ("u32",))],
        "i64": [(1, "fz_d2ll({0})", ("f64",)), (1, "fz_abs_i64({0})", ("i64",)),
                (1, "__mul64hi({0}, {1})", ("i64", "i64")), (1, "(long long)fz_f2i({0}) * 3ll", ("f32",))],
        "u64": [(1, "fz_d2ull({0})", ("f64",)), (1, "__brevll({0})", ("u64",)),
                (1, "__umul64hi({0}, {1})", ("u64", "u64")), (2, "fz_ld64(in, {0})", ("u32",))],
    }[ty]
    return ops


def _float_ops(ty: str) -> list[Op]:
    if ty == "f32":
        return [
            (6, "({0} + {1})", (ty, ty)), (4, "({0} - {1})", (ty, ty)), (5, "({0} * {1})", (ty, ty)),
            (2, "({0} / {1})", (ty, ty)), (2, "fmaf({0}, {1}, {2})", (ty, ty, ty)), (1, "(-{0})", (ty,)),
            (2, "fminf({0}, {1})", (ty, ty)), (2, "fmaxf({0}, {1})", (ty, ty)), (1, "fabsf({0})", (ty,)),
            (1, "floorf({0})", (ty,)), (1, "ceilf({0})", (ty,)), (1, "truncf({0})", (ty,)),
            (1, "rintf({0})", (ty,)), (1, "roundf({0})", (ty,)), (1, "fz_copysignf({0}, {1})", (ty, ty)),
            (1, "fmodf({0}, {1})", (ty, ty)), (1, "remainderf({0}, {1})", (ty, ty)), (1, "fdimf({0}, {1})", (ty, ty)),
            (1, "ldexpf({0}, (int)({1} & 63u) - 32)", (ty, "u32")), (1, "__saturatef({0})", (ty,)),
            (1, "__fadd_rn({0}, {1})", (ty, ty)), (1, "__fmul_rn({0}, {1})", (ty, ty)),
            (1, "__fmaf_rn({0}, {1}, {2})", (ty, ty, ty)), (1, "__fdiv_rn({0}, {1})", (ty, ty)),
            (1, "__frcp_rn({0})", (ty,)), (1, "__fsqrt_rn({0})", (ty,)),
                        (2, "({0} ? {1} : {2})", ("bool", ty, ty)),
            (2, "(float)({0})", ("i32",)), (1, "(float)({0})", ("u32",)), (1, "(float)({0})", ("i64",)),
            (1, "(float)({0})", ("u64",)), (2, "(float)({0})", ("f64",)), (2, "__half2float({0})", ("f16",)),
            (2, "__bfloat162float({0})", ("bf16",)), (1, "__int2float_rz({0})", ("i32",)),
            (1, "__uint2float_rd({0})", ("u32",)),
            (3, "__uint_as_float(in[({0}) & 1023u])", ("u32",)),
        ]
    if ty == "f64":
        return [
            (6, "({0} + {1})", (ty, ty)), (4, "({0} - {1})", (ty, ty)), (5, "({0} * {1})", (ty, ty)),
            (2, "({0} / {1})", (ty, ty)), (2, "fma({0}, {1}, {2})", (ty, ty, ty)), (1, "(-{0})", (ty,)),
            (2, "fmin({0}, {1})", (ty, ty)), (2, "fmax({0}, {1})", (ty, ty)), (1, "fabs({0})", (ty,)),
            (1, "floor({0})", (ty,)), (1, "fz_ceil({0})", (ty,)), (1, "trunc({0})", (ty,)), (1, "rint({0})", (ty,)),
            (1, "round({0})", (ty,)), (1, "fz_copysign({0}, {1})", (ty, ty)), (1, "fmod({0}, {1})", (ty, ty)),
            (1, "sqrt({0})", (ty,)), (1, "__dadd_rn({0}, {1})", (ty, ty)), (1, "__drcp_rn({0})", (ty,)),
            (1, "ldexp({0}, (int)({1} & 127u) - 64)", (ty, "u32")),
            (2, "({0} ? {1} : {2})", ("bool", ty, ty)),
            (2, "(double)({0})", ("i32",)), (1, "(double)({0})", ("u32",)), (1, "(double)({0})", ("i64",)),
            (1, "(double)({0})", ("u64",)), (3, "(double)({0})", ("f32",)),
            (2, "__longlong_as_double((long long)fz_ld64(in, {0}))", ("u32",)),
        ]
    if ty == "f16":
        return [
            (4, "__hadd({0}, {1})", (ty, ty)), (3, "__hsub({0}, {1})", (ty, ty)), (3, "__hmul({0}, {1})", (ty, ty)),
            (2, "__hfma({0}, {1}, {2})", (ty, ty, ty)), (1, "__hneg({0})", (ty,)), (1, "__habs({0})", (ty,)),
            (1, "__hmax({0}, {1})", (ty, ty)), (1, "__hmin({0}, {1})", (ty, ty)),
            (1, "__hadd_sat({0}, {1})", (ty, ty)), (1, "__hmul_sat({0}, {1})", (ty, ty)),
            (1, "({0} + {1})", (ty, ty)), (1, "({0} * {1})", (ty, ty)),
            (2, "({0} ? {1} : {2})", ("bool", ty, ty)),
            (3, "__float2half({0})", ("f32",)), (1, "__float2half_rz({0})", ("f32",)),
            (1, "__int2half_rn({0})", ("i32",)),
            (2, "__ushort_as_half((unsigned short)in[({0}) & 1023u])", ("u32",)),
        ]
    return [  # bf16
        (4, "__hadd({0}, {1})", (ty, ty)), (3, "__hsub({0}, {1})", (ty, ty)), (3, "__hmul({0}, {1})", (ty, ty)),
        (2, "__hfma({0}, {1}, {2})", (ty, ty, ty)), (1, "__hneg({0})", (ty,)), (1, "__habs({0})", (ty,)),
        (1, "__hmax({0}, {1})", (ty, ty)), (1, "__hmin({0}, {1})", (ty, ty)),
        (2, "({0} ? {1} : {2})", ("bool", ty, ty)),
        (3, "__float2bfloat16({0})", ("f32",)), (1, "__float2bfloat16_rz({0})", ("f32",)),
        (1, "__int2bfloat16_rn({0})", ("i32",)),
        (2, "__ushort_as_bfloat16((unsigned short)in[({0}) & 1023u])", ("u32",)),
    ]


def _bool_ops() -> list[Op]:
    ops: list[Op] = []
    for ty in ("i32", "u32", "i64", "u64", "f32", "f64"):
        for op in ("<", "<=", "==", "!="):
            ops.append((2 if ty in ("i32", "u32", "f32") else 1, f"({{0}} {op} {{1}})", (ty, ty)))
    ops += [(1, "__hlt({0}, {1})", ("f16", "f16")), (1, "__hgeu({0}, {1})", ("f16", "f16")),
            (1, "__heq({0}, {1})", ("bf16", "bf16")), (1, "__hgt({0}, {1})", ("bf16", "bf16")),
            (1, "__hisnan({0})", ("f16",)), (1, "isnan({0})", ("f64",)), (1, "isfinite({0})", ("f32",)),
            (2, "(({0} & {1}) != 0u)", ("u32", "u32")), (1, "(!{0})", ("bool",)),
            (1, "({0} && {1})", ("bool", "bool")), (1, "({0} || {1})", ("bool", "bool"))]
    return ops


OPS: dict[str, list[Op]] = {ty: _int_ops(ty) for ty in INT_TYPES}
OPS.update({ty: _float_ops(ty) for ty in FLOAT_TYPES})
OPS["bool"] = _bool_ops()

# Approximate math: (format, operand type, slot type, tolerance in ulps). Results only reach an
# output slot. fz_small keeps the fast intrinsics' arguments where their error bound holds.
APPROX: list[tuple[str, str, str, int]] = [
    (f"{fn}({{0}})", "f32", "f32", ulps) for fn, ulps in (
        ("sinf", 4), ("cosf", 4), ("tanf", 6), ("expf", 4), ("exp2f", 4), ("exp10f", 4), ("logf", 4),
        ("log2f", 4), ("log10f", 4), ("log1pf", 4), ("expm1f", 4), ("sqrtf", 2), ("rsqrtf", 4),
        ("cbrtf", 4), ("atanf", 4), ("asinf", 6), ("acosf", 6), ("sinhf", 6), ("coshf", 6),
        ("tanhf", 6), ("erff", 6), ("asinhf", 6), ("atanhf", 6))
] + [
    ("powf({0}, 1.5f)", "f32", "f32", 8), ("atan2f({0}, 0.75f)", "f32", "f32", 6),
    ("hypotf({0}, 3.0f)", "f32", "f32", 4),
    ("__sinf(fz_small({0}))", "f32", "f32~abs", 0), ("__cosf(fz_small({0}))", "f32", "f32~abs", 0),
    ("__expf(fz_small({0}))", "f32", "f32~rel", 0), ("__logf(1.0f + fabsf(fz_small({0})))", "f32", "f32~rel", 0),
] + [
    (f"{fn}({{0}})", "f64", "f64", ulps) for fn, ulps in (
        ("sin", 4), ("cos", 4), ("exp", 4), ("log", 4), ("log2", 4), ("exp2", 4), ("atan", 4), ("tanh", 4),
        ("cbrt", 4), ("erf", 4), ("log1p", 4), ("expm1", 4))
] + [("hsqrt({0})", "f16", "f16", 1), ("hexp({0})", "f16", "f16", 1), ("hrcp({0})", "f16", "f16", 1)]
