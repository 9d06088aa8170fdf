/* cass-cc: what CUDA's cuda_fp16.h offers and HIP 5.x's hip_fp16.h lacks.
   - __half and __half2 arithmetic, negation and comparisons in host code: HIP 5.x declares
     those operators __device__ only, CUDA __host__ __device__ (reference code on the CPU uses them).
     Host arithmetic is done in float and rounded once to half; float carries more than twice
     half's precision plus two bits, so + - * / round as if done exactly.
   - __hmax/__hmin (and the _nan forms) on __half and __half2, host and device.
   - warp shuffles (__shfl, __shfl_xor, __shfl_up, __shfl_down) of __half and __half2, whose calls
     are ambiguous among HIP's int/float/double overloads.
   Every function here is a template taking exactly __half (or __half2), so where a HIP declares
   the same function, HIP's non-template one is chosen and these stay unused. */
#ifndef CASS_FP16_PRELUDE
#define CASS_FP16_PRELUDE
#if !defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_NVCC__)
#include <hip/hip_fp16.h>
#include <type_traits>

#define CASS_ONLY(H, T) class H, typename std::enable_if<std::is_same<H, T>::value, int>::type = 0

/* host forms of functions HIP 5.x declares __device__ only. A template with nothing to deduce
   loses to a non-template of the same signature, so a HIP with host forms keeps its own. */
#define CASS_HOST template <int = 0> static __host__ inline
CASS_HOST unsigned short __half_as_ushort(__half h) { return static_cast<__half_raw>(h).x; }
CASS_HOST short __half_as_short(__half h) { return (short)static_cast<__half_raw>(h).x; }
CASS_HOST __half __ushort_as_half(unsigned short u) { __half_raw r; r.x = u; return __half(r); }
CASS_HOST __half __short_as_half(short s) { __half_raw r; r.x = (unsigned short)s; return __half(r); }
#define CASS_BINARY(name, expr) \
  CASS_HOST __half name(__half a, __half b) { float x = (float)a, y = (float)b; return __half(expr); }
CASS_BINARY(__hadd, x + y)
CASS_BINARY(__hsub, x - y)
CASS_BINARY(__hmul, x * y)
CASS_BINARY(__hdiv, x / y)
#undef CASS_BINARY
CASS_HOST __half __hneg(__half a) { __half_raw r = a; r.x ^= 0x8000u; return __half(r); }
CASS_HOST __half __hfma(__half a, __half b, __half c) { return __half(__builtin_fma((double)(float)a, (double)(float)b, (double)(float)c)); }
#define CASS_RELATION(name, op) \
  CASS_HOST bool name(__half a, __half b) { return (float)a op (float)b; }
CASS_RELATION(__heq, ==)
CASS_RELATION(__hne, !=)
CASS_RELATION(__hlt, <)
CASS_RELATION(__hle, <=)
CASS_RELATION(__hgt, >)
CASS_RELATION(__hge, >=)
#undef CASS_RELATION
#undef CASS_HOST

/* host operators on __half through the functions above, and on __half2 lane by lane */
#define CASS_HALF template <CASS_ONLY(H, __half)> static __host__ inline
#define CASS_HALF2 template <CASS_ONLY(H, __half2)> static __host__ inline
#define CASS_ARITH(op, fn)                                                                  \
  CASS_HALF H operator op(const H& a, const H& b) { return fn(a, b); }                      \
  CASS_HALF H& operator op##=(H& a, const H& b) { return a = fn(a, b); }                    \
  CASS_HALF2 H operator op(const H& a, const H& b) {                                        \
    return __halves2half2(fn(__low2half(a), __low2half(b)), fn(__high2half(a), __high2half(b))); \
  }                                                                                         \
  CASS_HALF2 H& operator op##=(H& a, const H& b) { return a = a op b; }
CASS_ARITH(+, __hadd)
CASS_ARITH(-, __hsub)
CASS_ARITH(*, __hmul)
CASS_ARITH(/, __hdiv)
#undef CASS_ARITH
CASS_HALF H operator-(const H& a) { return __hneg(a); }
CASS_HALF H operator+(const H& a) { return a; }
CASS_HALF2 H operator-(const H& a) { return __halves2half2(__hneg(__low2half(a)), __hneg(__high2half(a))); }
#define CASS_COMPARE(op, fn) \
  CASS_HALF bool operator op(const H& a, const H& b) { return fn(a, b); }
CASS_COMPARE(==, __heq)
CASS_COMPARE(!=, __hne)
CASS_COMPARE(<, __hlt)
CASS_COMPARE(>, __hgt)
CASS_COMPARE(<=, __hle)
CASS_COMPARE(>=, __hge)
#undef CASS_COMPARE
CASS_HALF2 bool operator==(const H& a, const H& b) {
  return __heq(__low2half(a), __low2half(b)) && __heq(__high2half(a), __high2half(b));
}
CASS_HALF2 bool operator!=(const H& a, const H& b) { return !(a == b); }
#undef CASS_HALF
#undef CASS_HALF2

/* __hmax/__hmin as cuda_fp16.h documents them: the other value when one is NaN, CUDA's canonical
   NaN (0x7fff) for two; the _nan forms: the canonical NaN when either is; -0 < +0 in all four. */
#define CASS_HALF_HD template <CASS_ONLY(H, __half)> static __host__ __device__ inline
#define CASS_HALF2_HD template <CASS_ONLY(H, __half2)> static __host__ __device__ inline
CASS_HALF_HD H __cass_half_nan() { __half_raw r; r.x = 0x7fffu; return H(r); }
/* a is the larger: by value, and +0 over -0 */
CASS_HALF_HD bool __cass_half_above(H a, H b) {
  float x = (float)a, y = (float)b;
  return x > y || (x == y && !(static_cast<__half_raw>(a).x & 0x8000u));
}
CASS_HALF_HD bool __cass_half_isnan(H a) { return (static_cast<__half_raw>(a).x & 0x7fffu) > 0x7c00u; }
CASS_HALF_HD H __hmax(H a, H b) {
  if (__cass_half_isnan(a) || __cass_half_isnan(b))
    return __cass_half_isnan(a) && __cass_half_isnan(b) ? __cass_half_nan<H>() : (__cass_half_isnan(a) ? b : a);
  return __cass_half_above(a, b) ? a : b;
}
CASS_HALF_HD H __hmin(H a, H b) {
  if (__cass_half_isnan(a) || __cass_half_isnan(b))
    return __cass_half_isnan(a) && __cass_half_isnan(b) ? __cass_half_nan<H>() : (__cass_half_isnan(a) ? b : a);
  return __cass_half_above(a, b) ? b : a;
}
CASS_HALF_HD H __hmax_nan(H a, H b) {
  return __cass_half_isnan(a) || __cass_half_isnan(b) ? __cass_half_nan<H>() : (__cass_half_above(a, b) ? a : b);
}
CASS_HALF_HD H __hmin_nan(H a, H b) {
  return __cass_half_isnan(a) || __cass_half_isnan(b) ? __cass_half_nan<H>() : (__cass_half_above(a, b) ? b : a);
}
#define CASS_PAIR(pair, name)                                                                 \
  CASS_HALF2_HD H pair(H a, H b) {                                                             \
    return __halves2half2(name(__low2half(a), __low2half(b)), name(__high2half(a), __high2half(b))); \
  }
CASS_PAIR(__hmax2, __hmax)
CASS_PAIR(__hmin2, __hmin)
CASS_PAIR(__hmax2_nan, __hmax_nan)
CASS_PAIR(__hmin2_nan, __hmin_nan)
#undef CASS_PAIR
#undef CASS_HALF_HD
#undef CASS_HALF2_HD

/* warp shuffles of the 16- and 32-bit patterns (HIP's overloads take int) */
#define CASS_SHFL(name, Arg)                                                                         \
  template <CASS_ONLY(H, __half)> static __device__ inline H name(H v, Arg a, int width = warpSize) { \
    __half_raw r = v;                                                                                \
    r.x = (unsigned short)name((int)r.x, a, width);                                                  \
    return H(r);                                                                                     \
  }                                                                                                  \
  template <CASS_ONLY(H, __half2)> static __device__ inline H name(H v, Arg a, int width = warpSize) { \
    return __builtin_bit_cast(H, name(__builtin_bit_cast(int, v), a, width));                        \
  }
CASS_SHFL(__shfl, int)
CASS_SHFL(__shfl_xor, int)
CASS_SHFL(__shfl_up, unsigned int)
CASS_SHFL(__shfl_down, unsigned int)
#undef CASS_SHFL
#undef CASS_ONLY
#endif
#endif
