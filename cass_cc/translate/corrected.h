/* cass-cc: CUDA functions HIP 5.2 defines with other results than CUDA documents (or whose
   definition does not link). corrected.py renames each call `name` to `__cass_cuda_<name>`
   (leading underscores dropped) and puts the family's section below in the prelude, on AMD only;
   on HIP's NVIDIA platform the helper is CUDA's own function (a #define, corrected.py).
   Sections start at a line `//== family`; a section may use those above it. */
//== common
#include <type_traits>
/* a template that forwards to HIP's own function for operands that are not arithmetic (__half,
   __half2, the bfloat16 stand-in): only the overloads here stand for HIP's arithmetic ones */
template <class... A> struct __cass_any_arithmetic : std::false_type {};
template <class T, class... R> struct __cass_any_arithmetic<T, R...>
    : std::integral_constant<bool, std::is_arithmetic<T>::value || __cass_any_arithmetic<R...>::value> {};
#define CASS_FORWARD(fixed, hip)                                                                  \
  template <class... A, typename std::enable_if<!__cass_any_arithmetic<A...>::value, int>::type = 0> \
  static __host__ __device__ inline auto fixed(A... a) -> decltype(hip(a...)) { return hip(a...); }
/* a float rounded by a mode: 0 to nearest even, 1 toward zero, 2 down, 3 up */
#define CASS_RN 0
#define CASS_RZ 1
#define CASS_RD 2
#define CASS_RU 3

//== int_average
/* (a + b) >> 1 and (a + b + 1) >> 1 without overflow (HIP 5.2: `(value >> 1) || sign`, a bool) */
static __device__ inline int __cass_cuda_hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static __device__ inline int __cass_cuda_rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static __device__ inline unsigned int __cass_cuda_uhadd(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a + b) >> 1);
}
static __device__ inline unsigned int __cass_cuda_urhadd(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a + b + 1) >> 1);
}
CASS_FORWARD(__cass_cuda_hadd, __hadd)

//== saturatef
/* +0 for x <= 0 (-0 too) and for NaN, 1 for x >= 1 */
static __device__ inline float __cass_cuda_saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

//== int_to_float
/* an integer's magnitude rounded to P significant bits by the mode, in integer arithmetic:
   the bits shifted out decide; the kept bits times a power of two are exact in F */
template <class F, int P>
static __device__ inline F __cass_int_to_fp(unsigned long long m, bool negative, int mode) {
  if (m == 0) return (F)0;
  int drop = (64 - __builtin_clzll(m)) - P;
  F r;
  if (drop <= 0) {
    r = (F)m;
  } else {
    unsigned long long kept = m >> drop, rest = m & ((1ull << drop) - 1), half = 1ull << (drop - 1);
    bool up = mode == CASS_RN ? (rest > half || (rest == half && (kept & 1u)))
            : mode == CASS_RD ? (negative && rest != 0)
            : mode == CASS_RU ? (!negative && rest != 0) : false;
    r = (F)(kept + (up ? 1u : 0u)) * (F)(1ull << drop);
  }
  return negative ? -r : r;
}
#define CASS_I2F(name, T, F, P, mode)                                                               \
  static __device__ inline F name(T x) {                                                            \
    bool negative = std::is_signed<T>::value && x < 0;                                              \
    unsigned long long m = negative ? 0ull - (unsigned long long)(long long)x : (unsigned long long)x; \
    return __cass_int_to_fp<F, P>(m, negative, mode);                                               \
  }
CASS_I2F(__cass_cuda_int2float_rz, int, float, 24, CASS_RZ)
CASS_I2F(__cass_cuda_int2float_rd, int, float, 24, CASS_RD)
CASS_I2F(__cass_cuda_int2float_ru, int, float, 24, CASS_RU)
CASS_I2F(__cass_cuda_uint2float_rz, unsigned int, float, 24, CASS_RZ)
CASS_I2F(__cass_cuda_uint2float_rd, unsigned int, float, 24, CASS_RD)
CASS_I2F(__cass_cuda_uint2float_ru, unsigned int, float, 24, CASS_RU)
CASS_I2F(__cass_cuda_ll2float_rz, long long, float, 24, CASS_RZ)
CASS_I2F(__cass_cuda_ll2float_rd, long long, float, 24, CASS_RD)
CASS_I2F(__cass_cuda_ll2float_ru, long long, float, 24, CASS_RU)
CASS_I2F(__cass_cuda_ull2float_rz, unsigned long long, float, 24, CASS_RZ)
CASS_I2F(__cass_cuda_ull2float_rd, unsigned long long, float, 24, CASS_RD)
CASS_I2F(__cass_cuda_ull2float_ru, unsigned long long, float, 24, CASS_RU)
CASS_I2F(__cass_cuda_ll2double_rz, long long, double, 53, CASS_RZ)
CASS_I2F(__cass_cuda_ll2double_rd, long long, double, 53, CASS_RD)
CASS_I2F(__cass_cuda_ll2double_ru, long long, double, 53, CASS_RU)
CASS_I2F(__cass_cuda_ull2double_rz, unsigned long long, double, 53, CASS_RZ)
CASS_I2F(__cass_cuda_ull2double_rd, unsigned long long, double, 53, CASS_RD)
CASS_I2F(__cass_cuda_ull2double_ru, unsigned long long, double, 53, CASS_RU)
/* HIP 5.2 declares it on int: values from 2^31 up came out negative */
static __device__ inline double __cass_cuda_uint2double_rn(unsigned int x) { return (double)x; }
#undef CASS_I2F

//== narrow
/* a wider value W narrowed to N by a mode: N's own conversion to nearest, then one step of N
   (its bit pattern +-1 in magnitude) where that went past the value in the wrong direction */
template <class N, class U, class W>
static __host__ __device__ inline N __cass_narrow(W w, int mode) {
  N n = (N)w;
  W back = (W)n;
  if (w != w || back == w || mode == CASS_RN) return n;
  bool down = mode == CASS_RD || (mode == CASS_RZ && w > 0);  /* where the result must lie from w */
  if (down ? !(back > w) : !(back < w)) return n;
  const U sign = (U)((U)1 << (sizeof(U) * 8 - 1));
  U u = __builtin_bit_cast(U, n);
  if ((U)(u & (U)~sign) == 0) return __builtin_bit_cast(N, (U)((down ? sign : (U)0) | (U)1));  /* +-0: the smallest */
  bool negative = (u & sign) != 0;
  return __builtin_bit_cast(N, (U)(negative == down ? u + 1u : u - 1u));  /* +1: larger magnitude */
}
static __device__ inline float __cass_cuda_double2float_rz(double x) { return __cass_narrow<float, unsigned int>(x, CASS_RZ); }
static __device__ inline float __cass_cuda_double2float_rd(double x) { return __cass_narrow<float, unsigned int>(x, CASS_RD); }
static __device__ inline float __cass_cuda_double2float_ru(double x) { return __cass_narrow<float, unsigned int>(x, CASS_RU); }

//== half_narrow
#include <hip/hip_fp16.h>
#define CASS_F2H(name, mode)                                                              \
  static __host__ __device__ inline __half name(float x) {                                \
    __half_raw r;                                                                         \
    r.x = __builtin_bit_cast(unsigned short, __cass_narrow<_Float16, unsigned short>(x, mode)); \
    return __half(r);                                                                     \
  }
CASS_F2H(__cass_cuda_float2half_rz, CASS_RZ)
CASS_F2H(__cass_cuda_float2half_rd, CASS_RD)
CASS_F2H(__cass_cuda_float2half_ru, CASS_RU)
#undef CASS_F2H

//== half_sat
#include <hip/hip_fp16.h>
/* clamped to [+0, 1]: NaN and -0 give +0 (HIP 5.2 keeps NaN and -0) */
static __host__ __device__ inline __half __cass_half_sat(__half h) {
  float f = __half2float(h);
  return f > 0.0f ? (f < 1.0f ? h : __float2half(1.0f)) : __float2half(0.0f);
}
static __host__ __device__ inline __half2 __cass_half2_sat(__half2 h) {
  return __halves2half2(__cass_half_sat(__low2half(h)), __cass_half_sat(__high2half(h)));
}
static __host__ __device__ inline __half __cass_cuda_hadd_sat(__half a, __half b) { return __cass_half_sat(__hadd(a, b)); }
static __host__ __device__ inline __half __cass_cuda_hsub_sat(__half a, __half b) { return __cass_half_sat(__hsub(a, b)); }
static __host__ __device__ inline __half __cass_cuda_hmul_sat(__half a, __half b) { return __cass_half_sat(__hmul(a, b)); }
static __host__ __device__ inline __half __cass_cuda_hfma_sat(__half a, __half b, __half c) { return __cass_half_sat(__hfma(a, b, c)); }
static __host__ __device__ inline __half2 __cass_cuda_hadd2_sat(__half2 a, __half2 b) { return __cass_half2_sat(__hadd2(a, b)); }
static __host__ __device__ inline __half2 __cass_cuda_hsub2_sat(__half2 a, __half2 b) { return __cass_half2_sat(__hsub2(a, b)); }
static __host__ __device__ inline __half2 __cass_cuda_hmul2_sat(__half2 a, __half2 b) { return __cass_half2_sat(__hmul2(a, b)); }
static __host__ __device__ inline __half2 __cass_cuda_hfma2_sat(__half2 a, __half2 b, __half2 c) { return __cass_half2_sat(__hfma2(a, b, c)); }
CASS_FORWARD(__cass_cuda_hadd_sat, __hadd_sat)
CASS_FORWARD(__cass_cuda_hsub_sat, __hsub_sat)
CASS_FORWARD(__cass_cuda_hmul_sat, __hmul_sat)
CASS_FORWARD(__cass_cuda_hfma_sat, __hfma_sat)
CASS_FORWARD(__cass_cuda_hadd2_sat, __hadd2_sat)
CASS_FORWARD(__cass_cuda_hsub2_sat, __hsub2_sat)
CASS_FORWARD(__cass_cuda_hmul2_sat, __hmul2_sat)
CASS_FORWARD(__cass_cuda_hfma2_sat, __hfma2_sat)

//== half_compare
#include <hip/hip_fp16.h>
/* ordered != is false with a NaN; the unordered forms are true with one (HIP 5.2 compares
   _Float16 with !=, and its unordered forms are the ordered ones) */
#define CASS_HCMP(name, expr)                                                                          \
  static __host__ __device__ inline bool __cass_cuda_h##name(__half a, __half b) {                              \
    float x = __half2float(a), y = __half2float(b);                                                    \
    return expr;                                                                                       \
  }                                                                                                    \
  static __host__ __device__ inline __half2 __cass_cuda_h##name##2(__half2 a, __half2 b) {                     \
    return __halves2half2(__float2half(__cass_cuda_h##name(__low2half(a), __low2half(b)) ? 1.0f : 0.0f), \
                          __float2half(__cass_cuda_h##name(__high2half(a), __high2half(b)) ? 1.0f : 0.0f)); \
  }                                                                                                    \
  static __host__ __device__ inline bool __cass_cuda_hb##name##2(__half2 a, __half2 b) {                        \
    return __cass_cuda_h##name(__low2half(a), __low2half(b)) && __cass_cuda_h##name(__high2half(a), __high2half(b)); \
  }                                                                                                    \
  CASS_FORWARD(__cass_cuda_h##name, __h##name)                                                         \
  CASS_FORWARD(__cass_cuda_h##name##2, __h##name##2)                                                   \
  CASS_FORWARD(__cass_cuda_hb##name##2, __hb##name##2)
CASS_HCMP(ne, x < y || x > y)
CASS_HCMP(equ, !(x < y || x > y))
CASS_HCMP(neu, !(x == y))
CASS_HCMP(ltu, !(x >= y))
CASS_HCMP(leu, !(x > y))
CASS_HCMP(gtu, !(x <= y))
CASS_HCMP(geu, !(x < y))
#undef CASS_HCMP

//== half_rcp
#include <hip/hip_fp16.h>
/* 1/x rounded once to half: float's 24 bits are at least twice half's 11 plus 2, so rounding
   the float quotient again to half is rounding the exact quotient (HIP 5.2's hrcp calls a
   builtin no device library defines: the link failed) */
static __host__ __device__ inline __half __cass_cuda_hrcp(__half x) { return __float2half(1.0f / __half2float(x)); }
static __host__ __device__ inline __half2 __cass_cuda_h2rcp(__half2 x) {
  return __halves2half2(__cass_cuda_hrcp(__low2half(x)), __cass_cuda_hrcp(__high2half(x)));
}
CASS_FORWARD(__cass_cuda_hrcp, hrcp)
CASS_FORWARD(__cass_cuda_h2rcp, h2rcp)

//== round
/* round half away from zero keeping the sign of a zero result, as CUDA does (roundf(-0.3f) is -0.0f;
   HIP 5.2's device library adds +0 to trunc(-0.3f) = -0 and answers +0): the result of rounding
   always has the argument's sign, so copying it back is exact for every input, NaN included */
static __host__ __device__ inline float __cass_cuda_roundf(float x) { return copysignf(roundf(x), x); }
static __host__ __device__ inline float __cass_cuda_round(float x) { return copysignf(roundf(x), x); }
static __host__ __device__ inline double __cass_cuda_round(double x) { return copysign(round(x), x); }
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static __host__ __device__ inline double __cass_cuda_round(T x) { return round((double)x); }

//== umul24
/* CUDA's __umul24 returns unsigned int; HIP 5.2's returns int (the same bits) */
static __device__ inline unsigned int __cass_cuda_umul24(unsigned int a, unsigned int b) {
  return (unsigned int)__umul24(a, b);
}

//== mul24
/* the low 32 bits of the product of the operands' low 24 bits, sign-extended, multiplied unsigned:
   nothing overflows (HIP 5.2's device library: `mul nsw`, poison past 2**31) */
static __device__ inline int __cass_cuda_mul24(int a, int b) {
  return (int)((unsigned int)((int)((unsigned int)a << 8) >> 8) * (unsigned int)((int)((unsigned int)b << 8) >> 8));
}

//== bit_count
/* CUDA's __popc, __popcll, __ffs and __ffsll return int (with CUDA's operand types); HIP 5.2's
   return unsigned int (the same bits) */
static __device__ inline int __cass_cuda_popc(unsigned int x) { return (int)__popc(x); }
static __device__ inline int __cass_cuda_popcll(unsigned long long int x) { return (int)__popcll(x); }
static __device__ inline int __cass_cuda_ffs(int x) { return (int)__ffs(x); }
static __device__ inline int __cass_cuda_ffsll(long long int x) { return (int)__ffsll(x); }

//== minmax
/* CUDA's overload set of min and max (crt/math_functions.hpp's signatures): same-type integers keep
   their type; a signed and an unsigned integer of one width compare as unsigned and return unsigned;
   float and double as fminf/fmin (fmaxf/fmax), a float beside a double as double. Other operand
   types go to HIP's own. */
#define CASS_MINMAX_INT(name, op, S, U)                                                                         \
  static __host__ __device__ inline S __cass_cuda_##name(S a, S b) { return a op b ? a : b; }                  \
  static __host__ __device__ inline U __cass_cuda_##name(U a, U b) { return a op b ? a : b; }                  \
  static __host__ __device__ inline U __cass_cuda_##name(S a, U b) { return __cass_cuda_##name((U)a, b); }     \
  static __host__ __device__ inline U __cass_cuda_##name(U a, S b) { return __cass_cuda_##name(a, (U)b); }
#define CASS_MINMAX(name, op, ff, f)                                                                              \
  CASS_MINMAX_INT(name, op, int, unsigned int)                                                                   \
  CASS_MINMAX_INT(name, op, long int, unsigned long int)                                                         \
  CASS_MINMAX_INT(name, op, long long int, unsigned long long int)                                               \
  static __host__ __device__ inline float __cass_cuda_##name(float a, float b) { return ff(a, b); }              \
  static __host__ __device__ inline double __cass_cuda_##name(double a, double b) { return f(a, b); }           \
  static __host__ __device__ inline double __cass_cuda_##name(float a, double b) { return f((double)a, b); }    \
  static __host__ __device__ inline double __cass_cuda_##name(double a, float b) { return f(a, (double)b); }    \
  CASS_FORWARD(__cass_cuda_##name, name)
CASS_MINMAX(min, <, fminf, fmin)
CASS_MINMAX(max, >, fmaxf, fmax)
#undef CASS_MINMAX
#undef CASS_MINMAX_INT
