/* cass-cc: CUDA's cuda_bf16.h API for HIP versions without a complete hip/hip_bf16.h (5.2, 5.7).
   Put before a translation that includes <cuda_bf16.h>; the types take HIP's names
   (__hip_bfloat16, __hip_bfloat162), the functions keep CUDA's, as in hip_bf16.h.
   Arithmetic is done in float and rounded once to bfloat16 (products of two bfloat16 values
   are exact in float; sums and fused multiply-adds may round twice where exponents are more
   than 16 apart). Conversions from double round to odd in float first, so they round once. */
#ifndef CASS_BF16_PRELUDE
#define CASS_BF16_PRELUDE
#if defined(__HIP_PLATFORM_NVIDIA__) || defined(__HIP_PLATFORM_NVCC__)
#include <hip/hip_bf16.h> /* HIP on NVIDIA: CUDA's own cuda_bf16.h */
#else
/* HIP 5.7's own hip_bf16.h (a part of CUDA's API) defines the same types: a later include of it
   is kept empty by defining its guard */
#define _HIP_INCLUDE_HIP_AMD_DETAIL_HIP_BF16_H_
#define CASS_BF16_FN static __host__ __device__ inline

CASS_BF16_FN unsigned int __cass_f2u(float f) { return __builtin_bit_cast(unsigned int, f); }
CASS_BF16_FN float __cass_u2f(unsigned int u) { return __builtin_bit_cast(float, u); }
CASS_BF16_FN bool __cass_isnan(unsigned int u) { return (u & 0x7fffffffu) > 0x7f800000u; }

/* float -> bfloat16 bits: to nearest even (0), toward zero (1), down (2), up (3). */
CASS_BF16_FN unsigned short __cass_bf16_bits(float f, int mode) {
  unsigned int u = __cass_f2u(f);
  if (__cass_isnan(u)) return (unsigned short)((u >> 16) | 0x40u);
  unsigned int t = u >> 16;
  bool inexact = (u & 0xffffu) != 0, negative = (u >> 31) != 0;
  if (mode == 0) return (unsigned short)((u + 0x7fffu + (t & 1u)) >> 16);
  if (inexact && ((mode == 2 && negative) || (mode == 3 && !negative))) t += 1;
  return (unsigned short)t;
}

/* double -> float rounded to odd: truncated toward zero, lowest bit set when inexact. */
CASS_BF16_FN float __cass_d2f_odd(double d) {
  float f = (float)d;
  if (d != d || (double)f == d) return f;
  unsigned int u = __cass_f2u(f);
  if (__builtin_fabs((double)f) > __builtin_fabs(d)) u -= 1;
  return __cass_u2f(u | 1u);
}

struct alignas(2) __hip_bfloat16 {
  unsigned short x;
  __hip_bfloat16() = default;
  __host__ __device__ __hip_bfloat16(float f) : x(__cass_bf16_bits(f, 0)) {}
  __host__ __device__ __hip_bfloat16(double d) : x(__cass_bf16_bits(__cass_d2f_odd(d), 0)) {}
  __host__ __device__ __hip_bfloat16(int i) : x(__cass_bf16_bits(__cass_d2f_odd((double)i), 0)) {}
  __host__ __device__ __hip_bfloat16(unsigned int i) : x(__cass_bf16_bits(__cass_d2f_odd((double)i), 0)) {}
  __host__ __device__ __hip_bfloat16(long long i) : x(__cass_bf16_bits(__cass_d2f_odd((double)i), 0)) {}
  __host__ __device__ __hip_bfloat16(unsigned long long i) : x(__cass_bf16_bits(__cass_d2f_odd((double)i), 0)) {}
  __host__ __device__ __hip_bfloat16& operator=(float f) { x = __cass_bf16_bits(f, 0); return *this; }
  __host__ __device__ __hip_bfloat16& operator=(double d) { x = __cass_bf16_bits(__cass_d2f_odd(d), 0); return *this; }
  __host__ __device__ __hip_bfloat16& operator=(int i) { return *this = (double)i; }
  __host__ __device__ __hip_bfloat16& operator=(unsigned int i) { return *this = (double)i; }
  __host__ __device__ __hip_bfloat16& operator=(long long i) { return *this = (double)i; }
  __host__ __device__ __hip_bfloat16& operator=(unsigned long long i) { return *this = (double)i; }
  __host__ __device__ operator float() const { return __cass_u2f((unsigned int)x << 16); }
};

struct alignas(4) __hip_bfloat162 {
  __hip_bfloat16 x, y;
  __hip_bfloat162() = default;
  __host__ __device__ __hip_bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) : x(a), y(b) {}
};

CASS_BF16_FN __hip_bfloat16 __cass_bf16(unsigned short bits) { __hip_bfloat16 h; h.x = bits; return h; }

/* conversions */
CASS_BF16_FN float __bfloat162float(__hip_bfloat16 a) { return (float)a; }
CASS_BF16_FN __hip_bfloat16 __float2bfloat16(float f) { return __cass_bf16(__cass_bf16_bits(f, 0)); }
CASS_BF16_FN __hip_bfloat16 __float2bfloat16_rn(float f) { return __cass_bf16(__cass_bf16_bits(f, 0)); }
CASS_BF16_FN __hip_bfloat16 __float2bfloat16_rz(float f) { return __cass_bf16(__cass_bf16_bits(f, 1)); }
CASS_BF16_FN __hip_bfloat16 __float2bfloat16_rd(float f) { return __cass_bf16(__cass_bf16_bits(f, 2)); }
CASS_BF16_FN __hip_bfloat16 __float2bfloat16_ru(float f) { return __cass_bf16(__cass_bf16_bits(f, 3)); }
CASS_BF16_FN __hip_bfloat16 __double2bfloat16(double d) { return __hip_bfloat16(d); }
CASS_BF16_FN unsigned short __bfloat16_as_ushort(__hip_bfloat16 h) { return h.x; }
CASS_BF16_FN short __bfloat16_as_short(__hip_bfloat16 h) { return (short)h.x; }
CASS_BF16_FN __hip_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __cass_bf16(u); }
CASS_BF16_FN __hip_bfloat16 __short_as_bfloat16(short s) { return __cass_bf16((unsigned short)s); }

/* bfloat16 -> integers (saturating, NaN -> 0) and integers -> bfloat16 (to nearest even) */
#define CASS_BF16_TO_INT(T, name)                                                               \
  CASS_BF16_FN T __bfloat162##name##_rn(__hip_bfloat16 h) { return __cass_sat_##name(__builtin_rintf((float)h)); }  \
  CASS_BF16_FN T __bfloat162##name##_rz(__hip_bfloat16 h) { return __cass_sat_##name(__builtin_truncf((float)h)); } \
  CASS_BF16_FN T __bfloat162##name##_rd(__hip_bfloat16 h) { return __cass_sat_##name(__builtin_floorf((float)h)); } \
  CASS_BF16_FN T __bfloat162##name##_ru(__hip_bfloat16 h) { return __cass_sat_##name(__builtin_ceilf((float)h)); }  \
  CASS_BF16_FN __hip_bfloat16 __##name##2bfloat16_rn(T i) { return __hip_bfloat16(__cass_d2f_odd((double)i)); }
#define CASS_BF16_SAT(T, name, lo, hi)                                                          \
  CASS_BF16_FN T __cass_sat_##name(float f) {                                                   \
    return f != f ? (T)0 : f <= (float)(lo) ? (T)(lo) : f >= (float)(hi) ? (T)(hi) : (T)f;      \
  }
CASS_BF16_SAT(int, int, -2147483647 - 1, 2147483647)
CASS_BF16_SAT(unsigned int, uint, 0, 4294967295u)
CASS_BF16_SAT(short, short, -32768, 32767)
CASS_BF16_SAT(unsigned short, ushort, 0, 65535)
CASS_BF16_SAT(long long, ll, -9223372036854775807ll - 1, 9223372036854775807ll)
CASS_BF16_SAT(unsigned long long, ull, 0, 18446744073709551615ull)
CASS_BF16_TO_INT(int, int)
CASS_BF16_TO_INT(unsigned int, uint)
CASS_BF16_TO_INT(short, short)
CASS_BF16_TO_INT(unsigned short, ushort)
CASS_BF16_TO_INT(long long, ll)
CASS_BF16_TO_INT(unsigned long long, ull)
#undef CASS_BF16_TO_INT
#undef CASS_BF16_SAT

/* pairs */
CASS_BF16_FN __hip_bfloat162 make_bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat162(a, b); }
CASS_BF16_FN __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat162(a, b); }
CASS_BF16_FN __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 a) { return __hip_bfloat162(a, a); }
CASS_BF16_FN __hip_bfloat162 __floats2bfloat162_rn(float a, float b) { return __hip_bfloat162(__hip_bfloat16(a), __hip_bfloat16(b)); }
CASS_BF16_FN __hip_bfloat162 __float2bfloat162_rn(float a) { return __bfloat162bfloat162(__hip_bfloat16(a)); }
CASS_BF16_FN __hip_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
CASS_BF16_FN float2 __bfloat1622float2(__hip_bfloat162 h) { return make_float2((float)h.x, (float)h.y); }
CASS_BF16_FN float __low2float(__hip_bfloat162 h) { return (float)h.x; }
CASS_BF16_FN float __high2float(__hip_bfloat162 h) { return (float)h.y; }
CASS_BF16_FN __hip_bfloat16 __low2bfloat16(__hip_bfloat162 h) { return h.x; }
CASS_BF16_FN __hip_bfloat16 __high2bfloat16(__hip_bfloat162 h) { return h.y; }
CASS_BF16_FN __hip_bfloat162 __low2bfloat162(__hip_bfloat162 h) { return __hip_bfloat162(h.x, h.x); }
CASS_BF16_FN __hip_bfloat162 __high2bfloat162(__hip_bfloat162 h) { return __hip_bfloat162(h.y, h.y); }
CASS_BF16_FN __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(a.x, b.x); }
CASS_BF16_FN __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(a.y, b.y); }
CASS_BF16_FN __hip_bfloat162 __lowhigh2highlow(__hip_bfloat162 h) { return __hip_bfloat162(h.y, h.x); }

/* arithmetic: computed in float, rounded once to nearest even */
CASS_BF16_FN __hip_bfloat16 __hadd(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat16((float)a + (float)b); }
CASS_BF16_FN __hip_bfloat16 __hsub(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat16((float)a - (float)b); }
CASS_BF16_FN __hip_bfloat16 __hmul(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat16((float)a * (float)b); }
CASS_BF16_FN __hip_bfloat16 __hdiv(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat16((float)a / (float)b); }
/* __hfma rounds a*b + c once. Rounding the float fma again to bf16 rounds twice (1.125 * 0.90625 +
   2^-30 is a bf16 tie in float and went to even; found by cass-data fuzz, r1:247). a*b is exact in
   double; the sum's error comes from two-sum; the double is made round-to-odd, then again to 24 bits,
   and only then rounded to nearest bf16: rounding to odd at >= 8 + 2 bits first is exact. */
CASS_BF16_FN float __cass_bf16_fma_odd(float a, float b, float c) {
  double p = (double)a * (double)b, cd = (double)c, s = p + cd;
  double t = s - p, e = (p - (s - t)) + (cd - t);
  if (e != 0.0 && s == s && s - s == 0.0) {
    unsigned long long u = __builtin_bit_cast(unsigned long long, s);
    if ((s > 0.0) != (e > 0.0) && s != 0.0) u -= 1; /* the exact value lies toward zero */
    s = __builtin_bit_cast(double, u | 1ull);
  }
  float f = (float)s;
  if (f - f != 0.0f && s - s == 0.0) f = s > 0.0 ? 3.4028234663852886e38f : -3.4028234663852886e38f;
  else if ((double)f != s && s - s == 0.0) {
    unsigned int v = __builtin_bit_cast(unsigned int, f);
    if (__builtin_fabs((double)f) > __builtin_fabs(s)) v -= 1;
    f = __builtin_bit_cast(float, v | 1u);
  }
  return f;
}
CASS_BF16_FN __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return __hip_bfloat16(__cass_bf16_fma_odd((float)a, (float)b, (float)c));
}
CASS_BF16_FN __hip_bfloat16 __hneg(__hip_bfloat16 a) { return __cass_bf16((unsigned short)(a.x ^ 0x8000u)); }
CASS_BF16_FN __hip_bfloat16 __habs(__hip_bfloat16 a) { return __cass_bf16((unsigned short)(a.x & 0x7fffu)); }
CASS_BF16_FN bool __hisnan(__hip_bfloat16 a) { return (a.x & 0x7fffu) > 0x7f80u; }
/* __hmax/__hmin: the other value when one is NaN, the canonical NaN (0x7fff) for two, -0 < +0 */
CASS_BF16_FN bool __cass_bf16_above(__hip_bfloat16 a, __hip_bfloat16 b) {
  return (float)a > (float)b || ((float)a == (float)b && !(a.x & 0x8000u));
}
CASS_BF16_FN __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) {
  if (__hisnan(a) || __hisnan(b)) return __hisnan(a) && __hisnan(b) ? __cass_bf16((unsigned short)0x7fffu) : (__hisnan(a) ? b : a);
  return __cass_bf16_above(a, b) ? a : b;
}
CASS_BF16_FN __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) {
  if (__hisnan(a) || __hisnan(b)) return __hisnan(a) && __hisnan(b) ? __cass_bf16((unsigned short)0x7fffu) : (__hisnan(a) ? b : a);
  return __cass_bf16_above(a, b) ? b : a;
}
CASS_BF16_FN int __hisinf(__hip_bfloat16 a) { return a.x == 0x7f80u ? 1 : a.x == 0xff80u ? -1 : 0; }

/* comparisons: ordered (false with a NaN) as in CUDA; __hneu and friends unordered */
CASS_BF16_FN bool __heq(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a == (float)b; }
CASS_BF16_FN bool __hne(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a < (float)b || (float)a > (float)b; }
CASS_BF16_FN bool __hlt(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a < (float)b; }
CASS_BF16_FN bool __hle(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a <= (float)b; }
CASS_BF16_FN bool __hgt(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a > (float)b; }
CASS_BF16_FN bool __hge(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a >= (float)b; }
CASS_BF16_FN bool __hneu(__hip_bfloat16 a, __hip_bfloat16 b) { return !((float)a == (float)b); }

/* pairs, lane by lane */
#define CASS_BF16_PAIR2(name, one)                                                              \
  CASS_BF16_FN __hip_bfloat162 name(__hip_bfloat162 a, __hip_bfloat162 b) {                     \
    return __hip_bfloat162(one(a.x, b.x), one(a.y, b.y));                                       \
  }
CASS_BF16_PAIR2(__hadd2, __hadd)
CASS_BF16_PAIR2(__hsub2, __hsub)
CASS_BF16_PAIR2(__hmul2, __hmul)
CASS_BF16_PAIR2(__h2div, __hdiv)
CASS_BF16_PAIR2(__hmax2, __hmax)
CASS_BF16_PAIR2(__hmin2, __hmin)
CASS_BF16_FN __hip_bfloat162 __hfma2(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return __hip_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
CASS_BF16_FN __hip_bfloat162 __hneg2(__hip_bfloat162 a) { return __hip_bfloat162(__hneg(a.x), __hneg(a.y)); }
CASS_BF16_FN __hip_bfloat162 __habs2(__hip_bfloat162 a) { return __hip_bfloat162(__habs(a.x), __habs(a.y)); }

/* math, through float */
#define CASS_BF16_MATH(name, fn)                                                                \
  CASS_BF16_FN __hip_bfloat16 h##name(__hip_bfloat16 a) { return __hip_bfloat16(fn((float)a)); } \
  CASS_BF16_FN __hip_bfloat162 h2##name(__hip_bfloat162 a) { return __hip_bfloat162(h##name(a.x), h##name(a.y)); }
CASS_BF16_FN float __cass_rcpf(float f) { return 1.0f / f; }
CASS_BF16_FN float __cass_rsqrtf(float f) { return 1.0f / __builtin_sqrtf(f); }
CASS_BF16_FN float __cass_exp10f(float f) { return __builtin_powf(10.0f, f); }
CASS_BF16_MATH(sqrt, __builtin_sqrtf)
CASS_BF16_MATH(rsqrt, __cass_rsqrtf)
CASS_BF16_MATH(rcp, __cass_rcpf)
CASS_BF16_MATH(exp, __builtin_expf)
CASS_BF16_MATH(exp2, __builtin_exp2f)
CASS_BF16_MATH(exp10, __cass_exp10f)
CASS_BF16_MATH(log, __builtin_logf)
CASS_BF16_MATH(log2, __builtin_log2f)
CASS_BF16_MATH(log10, __builtin_log10f)
CASS_BF16_MATH(sin, __builtin_sinf)
CASS_BF16_MATH(cos, __builtin_cosf)
CASS_BF16_MATH(floor, __builtin_floorf)
CASS_BF16_MATH(ceil, __builtin_ceilf)
CASS_BF16_MATH(trunc, __builtin_truncf)
CASS_BF16_MATH(rint, __builtin_rintf)
#undef CASS_BF16_MATH

/* operators */
#define CASS_BF16_OPS(T, add, sub, mul, div)                                                    \
  CASS_BF16_FN T operator+(T a, T b) { return add(a, b); }                                      \
  CASS_BF16_FN T operator-(T a, T b) { return sub(a, b); }                                      \
  CASS_BF16_FN T operator*(T a, T b) { return mul(a, b); }                                      \
  CASS_BF16_FN T operator/(T a, T b) { return div(a, b); }                                      \
  CASS_BF16_FN T& operator+=(T& a, T b) { return a = add(a, b); }                               \
  CASS_BF16_FN T& operator-=(T& a, T b) { return a = sub(a, b); }                               \
  CASS_BF16_FN T& operator*=(T& a, T b) { return a = mul(a, b); }                               \
  CASS_BF16_FN T& operator/=(T& a, T b) { return a = div(a, b); }                               \
  CASS_BF16_FN T operator+(T a) { return a; }
CASS_BF16_OPS(__hip_bfloat16, __hadd, __hsub, __hmul, __hdiv)
CASS_BF16_OPS(__hip_bfloat162, __hadd2, __hsub2, __hmul2, __h2div)
#undef CASS_BF16_OPS
CASS_BF16_FN __hip_bfloat16 operator-(__hip_bfloat16 a) { return __hneg(a); }
CASS_BF16_FN __hip_bfloat162 operator-(__hip_bfloat162 a) { return __hneg2(a); }
CASS_BF16_FN bool operator==(__hip_bfloat16 a, __hip_bfloat16 b) { return __heq(a, b); }
CASS_BF16_FN bool operator!=(__hip_bfloat16 a, __hip_bfloat16 b) { return __hneu(a, b); }
CASS_BF16_FN bool operator<(__hip_bfloat16 a, __hip_bfloat16 b) { return __hlt(a, b); }
CASS_BF16_FN bool operator<=(__hip_bfloat16 a, __hip_bfloat16 b) { return __hle(a, b); }
CASS_BF16_FN bool operator>(__hip_bfloat16 a, __hip_bfloat16 b) { return __hgt(a, b); }
CASS_BF16_FN bool operator>=(__hip_bfloat16 a, __hip_bfloat16 b) { return __hge(a, b); }

/* saturated arithmetic: clamped to [0, 1], NaN to +0 */
CASS_BF16_FN __hip_bfloat16 __cass_bf16_sat(float f) { return __hip_bfloat16(f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f); }
CASS_BF16_FN __hip_bfloat16 __hadd_sat(__hip_bfloat16 a, __hip_bfloat16 b) { return __cass_bf16_sat((float)__hadd(a, b)); }
CASS_BF16_FN __hip_bfloat16 __hsub_sat(__hip_bfloat16 a, __hip_bfloat16 b) { return __cass_bf16_sat((float)__hsub(a, b)); }
CASS_BF16_FN __hip_bfloat16 __hmul_sat(__hip_bfloat16 a, __hip_bfloat16 b) { return __cass_bf16_sat((float)__hmul(a, b)); }
CASS_BF16_FN __hip_bfloat16 __hfma_sat(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return __cass_bf16_sat((float)__hfma(a, b, c));
}
CASS_BF16_FN __hip_bfloat162 __hfma2_sat(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return __hip_bfloat162(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}

/* NaN-propagating max/min: a NaN operand gives the canonical NaN */
CASS_BF16_FN __hip_bfloat16 __hmax_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hisnan(a) || __hisnan(b) ? __cass_bf16((unsigned short)0x7fffu) : __hmax(a, b);
}
CASS_BF16_FN __hip_bfloat16 __hmin_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hisnan(a) || __hisnan(b) ? __cass_bf16((unsigned short)0x7fffu) : __hmin(a, b);
}

/* unordered comparisons: true when either operand is NaN */
CASS_BF16_FN bool __hequ(__hip_bfloat16 a, __hip_bfloat16 b) { return !((float)a < (float)b || (float)a > (float)b); }
CASS_BF16_FN bool __hltu(__hip_bfloat16 a, __hip_bfloat16 b) { return !((float)a >= (float)b); }
CASS_BF16_FN bool __hleu(__hip_bfloat16 a, __hip_bfloat16 b) { return !((float)a > (float)b); }
CASS_BF16_FN bool __hgtu(__hip_bfloat16 a, __hip_bfloat16 b) { return !((float)a <= (float)b); }
CASS_BF16_FN bool __hgeu(__hip_bfloat16 a, __hip_bfloat16 b) { return !((float)a < (float)b); }

/* pairs: lane by lane (1.0 / 0.0 per lane, or bool for both lanes: __hb*2) */
CASS_BF16_PAIR2(__hadd2_sat, __hadd_sat)
CASS_BF16_PAIR2(__hsub2_sat, __hsub_sat)
CASS_BF16_PAIR2(__hmul2_sat, __hmul_sat)
CASS_BF16_PAIR2(__hmax2_nan, __hmax_nan)
CASS_BF16_PAIR2(__hmin2_nan, __hmin_nan)
#undef CASS_BF16_PAIR2
#define CASS_BF16_CMP2(name, one)                                                               \
  CASS_BF16_FN __hip_bfloat162 __h##name##2(__hip_bfloat162 a, __hip_bfloat162 b) {            \
    return __hip_bfloat162(__hip_bfloat16(one(a.x, b.x) ? 1.0f : 0.0f), __hip_bfloat16(one(a.y, b.y) ? 1.0f : 0.0f)); \
  }                                                                                             \
  CASS_BF16_FN bool __hb##name##2(__hip_bfloat162 a, __hip_bfloat162 b) { return one(a.x, b.x) && one(a.y, b.y); }
CASS_BF16_CMP2(eq, __heq)
CASS_BF16_CMP2(ne, __hne)
CASS_BF16_CMP2(lt, __hlt)
CASS_BF16_CMP2(le, __hle)
CASS_BF16_CMP2(gt, __hgt)
CASS_BF16_CMP2(ge, __hge)
CASS_BF16_CMP2(equ, __hequ)
CASS_BF16_CMP2(neu, __hneu)
CASS_BF16_CMP2(ltu, __hltu)
CASS_BF16_CMP2(leu, __hleu)
CASS_BF16_CMP2(gtu, __hgtu)
CASS_BF16_CMP2(geu, __hgeu)
#undef CASS_BF16_CMP2
CASS_BF16_FN __hip_bfloat162 __hisnan2(__hip_bfloat162 a) {
  return __hip_bfloat162(__hip_bfloat16(__hisnan(a.x) ? 1.0f : 0.0f), __hip_bfloat16(__hisnan(a.y) ? 1.0f : 0.0f));
}
CASS_BF16_FN bool operator==(__hip_bfloat162 a, __hip_bfloat162 b) { return __hbeq2(a, b); }
CASS_BF16_FN bool operator!=(__hip_bfloat162 a, __hip_bfloat162 b) { return __hbneu2(a, b); }
CASS_BF16_FN bool operator<(__hip_bfloat162 a, __hip_bfloat162 b) { return __hblt2(a, b); }
CASS_BF16_FN bool operator<=(__hip_bfloat162 a, __hip_bfloat162 b) { return __hble2(a, b); }
CASS_BF16_FN bool operator>(__hip_bfloat162 a, __hip_bfloat162 b) { return __hbgt2(a, b); }
CASS_BF16_FN bool operator>=(__hip_bfloat162 a, __hip_bfloat162 b) { return __hbge2(a, b); }

/* increments, as CUDA defines them: by one, rounded */
CASS_BF16_FN __hip_bfloat16& operator++(__hip_bfloat16& a) { return a = __hadd(a, __hip_bfloat16(1.0f)); }
CASS_BF16_FN __hip_bfloat16& operator--(__hip_bfloat16& a) { return a = __hsub(a, __hip_bfloat16(1.0f)); }
CASS_BF16_FN __hip_bfloat16 operator++(__hip_bfloat16& a, int) { __hip_bfloat16 old = a; ++a; return old; }
CASS_BF16_FN __hip_bfloat16 operator--(__hip_bfloat16& a, int) { __hip_bfloat16 old = a; --a; return old; }
CASS_BF16_FN __hip_bfloat162& operator++(__hip_bfloat162& a) { return a = __hadd2(a, __hip_bfloat162(1.0f, 1.0f)); }
CASS_BF16_FN __hip_bfloat162& operator--(__hip_bfloat162& a) { return a = __hsub2(a, __hip_bfloat162(1.0f, 1.0f)); }
CASS_BF16_FN __hip_bfloat162 operator++(__hip_bfloat162& a, int) { __hip_bfloat162 old = a; ++a; return old; }
CASS_BF16_FN __hip_bfloat162 operator--(__hip_bfloat162& a, int) { __hip_bfloat162 old = a; --a; return old; }

/* loads through the read-only path (a plain load on AMD) and atomic adds (a compare-and-swap
   loop on the aligned 32-bit word: each bfloat16 sum is rounded once, as CUDA's is) */
static __device__ inline __hip_bfloat16 __ldg(const __hip_bfloat16* p) { return *p; }
static __device__ inline __hip_bfloat162 __ldg(const __hip_bfloat162* p) { return *p; }
static __device__ inline __hip_bfloat16 atomicAdd(__hip_bfloat16* address, __hip_bfloat16 val) {
  unsigned int* word = (unsigned int*)((unsigned long long)address & ~3ull);
  unsigned int shift = ((unsigned long long)address & 2ull) ? 16u : 0u;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    unsigned short sum = __hadd(__cass_bf16((unsigned short)(assumed >> shift)), val).x;
    old = atomicCAS(word, assumed, (assumed & ~(0xffffu << shift)) | ((unsigned int)sum << shift));
  } while (old != assumed);
  return __cass_bf16((unsigned short)(assumed >> shift));
}
static __device__ inline __hip_bfloat162 atomicAdd(__hip_bfloat162* address, __hip_bfloat162 val) {
  unsigned int* word = (unsigned int*)address;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    __hip_bfloat162 sum = __hadd2(__builtin_bit_cast(__hip_bfloat162, assumed), val);
    old = atomicCAS(word, assumed, __builtin_bit_cast(unsigned int, sum));
  } while (old != assumed);
  return __builtin_bit_cast(__hip_bfloat162, assumed);
}

/* warp shuffles of the 16- and 32-bit patterns (HIP's overloads take int) */
#define CASS_BF16_SHFL(name, Arg)                                                               \
  static __device__ inline __hip_bfloat16 name(__hip_bfloat16 v, Arg a, int width = warpSize) { \
    return __cass_bf16((unsigned short)name((int)v.x, a, width));                               \
  }                                                                                             \
  static __device__ inline __hip_bfloat162 name(__hip_bfloat162 v, Arg a, int width = warpSize) { \
    unsigned int bits = __builtin_bit_cast(unsigned int, v);                                    \
    return __builtin_bit_cast(__hip_bfloat162, (unsigned int)name((int)bits, a, width));       \
  }
CASS_BF16_SHFL(__shfl, int)
CASS_BF16_SHFL(__shfl_xor, int)
CASS_BF16_SHFL(__shfl_up, unsigned int)
CASS_BF16_SHFL(__shfl_down, unsigned int)
#undef CASS_BF16_SHFL
#endif
#endif
