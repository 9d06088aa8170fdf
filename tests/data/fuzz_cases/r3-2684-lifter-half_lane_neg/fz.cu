#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

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

extern "C" __global__ void __launch_bounds__(64) fz2684(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 6u
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 192 * FZ_SLOTS;
  unsigned n2 = (blockDim.x) & 7u;
  unsigned i1 = 0; do {
    double v3 = (__longlong_as_double((long long)fz_ld64(in, gid * 2u + 504u)) * fma(__longlong_as_double((long long)fz_ld64(in, gid * 2u + 3u)), (-0x1.f000000000000p+3), fmod(rint(__longlong_as_double((long long)fz_ld64(in, gid * 5u + 318u))), __longlong_as_double((long long)fz_ld64(in, gid * 3u + 124u)))));
    __nv_bfloat16 v4 = ((__uint_as_float(in[(gid * 6u + 450u) & 1023u]) == __uint_as_float(in[(gid * 6u + 722u) & 1023u])) ? __hneg(__hsub(__float2bfloat16(0x1.2aaaaa0000000p+2f), __ushort_as_bfloat16((unsigned short)in[(i1) & 1023u]))) : __hadd(__float2bfloat16(-0x1.5000000000000p+4f), __float2bfloat16(-0x1.aaaaaa0000000p+0f)));
    v3 = rint((double)((int)((unsigned)((int)in[(gid * 5u + 319u) & 1023u]) * (unsigned)((int)in[(gid * 4u + 663u) & 1023u]))));
    float v5 = roundf(__uint_as_float(in[(gid * 2u + 438u) & 1023u]));
  } while (++i1 < n2);
  if ((lane > 7u)) {
    int v6 = (int)((long long)((unsigned long long)(((long long)((unsigned long long)(4768516276524183209ll) - (unsigned long long)(256ll)) >> (5939237663596165535ull & 63ull))) + (unsigned long long)(0ll)));
  } else {
    switch ((gid) % 8u) { case 0: {
      float v7 = 0x1.5555560000000p+2f;
      v7 = __bfloat162float(__int2bfloat16_rn((int)lane - 16));
      break;
    } case 2: {
      __half a8[4];
      for (unsigned k9 = 0; k9 < 4u; ++k9) {
        a8[k9] = __float2half(0x1.0000000000000p+0f);
      }
      a8[((gid << (lane & 31u))) & 3u] = __ushort_as_half((unsigned short)in[((unsigned)blockIdx.x) & 1023u]);
      a8[(gid) & 3u] = a8[(gid) & 3u];
      break;
    } case 3: {
      unsigned v10 = (unsigned)((tid < lane));
      int v11 = (int)tid;
      break;
    } case 4: {
      unsigned v12 = 17u;
      int v13 = (int)(true);
    } case 5: {
      __half v14 = __ushort_as_half((unsigned short)in[(min((unsigned)blockIdx.x, (unsigned)(unsigned short)((int)in[(gid * 3u + 660u) & 1023u]))) & 1023u]);
    } case 6: {
      unsigned long long v15 = (unsigned long long)((unsigned)blockIdx.x);
      int v16 = __mul24((int)lane - 16, (-897546597));
      break;
    } default: {
      float v17 = roundf(__frcp_rn(__uint_as_float(in[(gid * 5u + 971u) & 1023u])));
    } }
  }
  for (int i18 = 0; i18 < 3; ++i18) {
    unsigned v19 = (((16ull ^ 26ull) <= 20ull) ? (unsigned)blockIdx.x : tid);
    int a20[8];
    for (unsigned k21 = 0; k21 < 8u; ++k21) {
      a20[k21] = (int)in[(gid * 1u + 710u) & 1023u];
    }
    a20[(v19) & 7u] = (int)(signed char)(fz_h2i(__float2half(0.0f)));
  }
  switch ((blockDim.x) % 5u) { case 0: {
    int v22 = fz_d2i(fmod((-0x1.bc6ba190d600fp+42), (__longlong_as_double((long long)fz_ld64(in, gid * 2u + 476u)) * fz_copysign(__longlong_as_double((long long)fz_ld64(in, gid * 3u + 639u)), __longlong_as_double((long long)fz_ld64(in, gid * 6u + 288u))))));
    v22 = ((((unsigned)blockIdx.x < (unsigned)blockIdx.x) ? fz_f2i(__uint_as_float(in[(gid * 6u + 128u) & 1023u])) : (fz_inrange_f((__uint_as_float(in[(gid * 2u + 126u) & 1023u]) / __uint_as_float(in[(gid * 7u + 296u) & 1023u]))) ? __float2int_rd((__uint_as_float(in[(gid * 2u + 126u) & 1023u]) / __uint_as_float(in[(gid * 7u + 296u) & 1023u]))) : 0)) & (int)(2918979233u));
  } case 2: {
    for (int i23 = 0; i23 < 3; ++i23) {
      long long v24 = (-1ll);
      v24 = fz_d2ll((double)((fz_inrange_f(((-0x1.00eee00000000p+12f) + __uint_as_float(in[(gid * 7u + 60u) & 1023u]))) ? __float2int_ru(((-0x1.00eee00000000p+12f) + __uint_as_float(in[(gid * 7u + 60u) & 1023u]))) : 0)));
    }
    break;
  } case 4: {
    int v25 = (int)fz_signbitf((__bfloat162float(__float2bfloat16(-0x1.c800000000000p+3f)) + (float)(__mul24((int)gid, 30))));
    break;
  } default: {
    float v26 = __uint_as_float(in[((unsigned)blockIdx.x) & 1023u]);
  } }
  switch ((blockDim.x) % 5u) { case 0: {
    if (((int)in[(gid * 7u + 509u) & 1023u] != (int)isinf(__longlong_as_double((long long)fz_ld64(in, gid * 4u + 371u))))) {
      __nv_bfloat16 v27 = __hfma(__float2bfloat16_rz(__uint_as_float(in[(in[(tid) & 1023u]) & 1023u])), __float2bfloat16(-0x1.a8d9a80000000p+68f), ((832327128360733951ll < 21ll) ? __ushort_as_bfloat16((unsigned short)in[(fz_f2u(__uint_as_float(in[(gid * 7u + 412u) & 1023u]))) & 1023u]) : __float2bfloat16(-0x1.c778320000000p-67f)));
      v27 = __hadd(__ushort_as_bfloat16((unsigned short)in[(in[(gid * 4u + 772u) & 1023u]) & 1023u]), __float2bfloat16(0x1.0000000000000p+0f));
      v27 = v27;
    } else {
      float v28 = __uint_as_float(in[((unsigned)blockIdx.x) & 1023u]);
      int v29 = (int)gid;
      unsigned long long a30[16];
      for (unsigned k31 = 0; k31 < 16u; ++k31) {
        a30[k31] = ((4792552231068544869ull + 602410379002642774ull) + (false ? 616491036365496116ull : 39ull));
      }
      a30[((2147483647u >> ((unsigned)blockIdx.x & 31u))) & 15u] = 16ull;
      a30[(__umul24(lane, __funnelshift_r(tid, 255u, blockDim.x))) & 15u] = a30[((unsigned)blockIdx.x) & 15u];
    }
    unsigned v32 = in[(__vadd4(lane, in[(blockDim.x) & 1023u])) & 1023u];
  } case 1: {
    float v33 = __uint_as_float(in[(gid * 2u + 661u) & 1023u]);
    break;
  } case 2: {
    double v34 = __longlong_as_double((long long)fz_ld64(in, gid * 4u + 307u));
    int v35 = (int)tid;
    break;
  } default: {
    __half a36[16];
    for (unsigned k37 = 0; k37 < 16u; ++k37) {
      a36[k37] = __float2half(0x1.1aca040000000p-78f);
    }
    a36[(__funnelshift_rc(blockDim.x, tid, (blockDim.x - lane))) & 15u] = __hadd(a36[(25u) & 15u], __hmul_sat(a36[(gid) & 15u], __float2half(0x1.1000000000000p+1f)));
    a36[(min(blockDim.x, in[(gid * 1u + 221u) & 1023u])) & 15u] = __float2half(-0x1.5000000000000p+4f);
    a36[(__urhadd(gid, __urhadd(blockDim.x, gid))) & 15u] = __float2half(0x1.a649760000000p+77f);
  } }
  switch ((__umulhi(in[(gid * 5u + 76u) & 1023u], in[(blockDim.x) & 1023u])) % 10u) { case 0: {
    int v38 = (256 & max((fz_inrange_f(__uint_as_float(in[(gid * 3u + 499u) & 1023u])) ? __float2int_rn(__uint_as_float(in[(gid * 3u + 499u) & 1023u])) : 0), (int)((unsigned)((int)tid) - (unsigned)((int)lane - 16))));
    switch ((fz_rem_u32(__vabsdiffu4(lane, blockDim.x), lane)) % 6u) { case 0: {
      __half a39[8];
      for (unsigned k40 = 0; k40 < 8u; ++k40) {
        a39[k40] = __float2half(-0x1.b555560000000p+3f);
      }
      a39[(37u) & 7u] = __habs(a39[(tid) & 7u]);
      a39[(gid) & 7u] = __int2half_rn((int)in[(gid * 2u + 850u) & 1023u]);
      break;
    } case 1: {
      v38 = fz_rem_i32(v38, fz_f2i(__bfloat162float(__hmin(__float2bfloat16(-0x1.b000000000000p+2f), __float2bfloat16(-0x1.5ff73a0000000p+35f)))));
      break;
    } case 2: {
      float v41 = __uint_as_float(in[(gid * 2u + 305u) & 1023u]);
      unsigned long long v42 = (true ? (7868617297049396445ull + (3ull << (58601864897510189ull & 63ull))) : 25ull);
      break;
    } case 5: {
      __half a43[8];
      for (unsigned k44 = 0; k44 < 8u; ++k44) {
        a43[k44] = __float2half(__uint_as_float(in[(gid * 3u + 783u) & 1023u]));
      }
      a43[((unsigned)(unsigned short)((int)in[(gid * 5u + 413u) & 1023u])) & 7u] = __ushort_as_half((unsigned short)in[(((tid >> ((unsigned)blockIdx.x & 31u)) ^ gid)) & 1023u]);
      a43[(((unsigned)blockIdx.x - blockDim.x)) & 7u] = (false ? __habs(__hadd_sat(__float2half(-0x1.b000000000000p+4f), a43[(gid) & 7u])) : __float2half_rz(__uint_as_float(in[(gid * 1u + 879u) & 1023u])));
      a43[(tid) & 7u] = __float2half(0x1.1555560000000p+2f);
      break;
    } default: {
      v38 = min((int)in[(gid * 2u + 830u) & 1023u], v38);
    } }
    break;
  } case 1: {
    float v45 = truncf((-0x1.e000000000000p+2f));
    v45 = v45;
    break;
  } case 2: {
    __half v46 = __float2half((__uint_as_float(in[(gid * 1u + 282u) & 1023u]) * __uint_as_float(in[(gid * 7u + 217u) & 1023u])));
    break;
  } case 3: {
    unsigned v47 = __vcmpeq4((unsigned)(__mulhi((int)gid, (true ? (int)gid : (int)tid))), __vcmpeq4(lane, ((unsigned)blockIdx.x & in[(gid * 3u + 716u) & 1023u])));
    break;
  } case 4: {
    double v48 = (fabs((__longlong_as_double((long long)fz_ld64(in, gid * 7u + 385u)) / 0.0)) / __longlong_as_double((long long)fz_ld64(in, gid * 3u + 61u)));
    break;
  } case 5: {
    unsigned v49 = fz_rem_u32(gid, fz_div_u32(__umulhi(lane, (unsigned)(false)), (__funnelshift_r(in[(gid * 3u + 187u) & 1023u], blockDim.x, tid) | (gid | blockDim.x))));
    for (int i50 = 0; i50 < 4; ++i50) {
      if ((i50 != (int)lane - 16)) {
        continue;
      }
      v49 = fz_hbits(__float2half_rz((true ? (-0x1.ab1b0e0000000p+62f) : __uint_as_float(in[(gid * 6u + 29u) & 1023u]))));
      int v51 = ((int)((unsigned)((int)isnan(__uint_as_float(in[(gid * 1u + 122u) & 1023u]))) - (unsigned)((int)lane - 16)) & fz_abs_i32((i50 >> ((v49 * v49) & 31u))));
      v51 = (((int)(25ll) | i50) | v51);
    }
    break;
  } case 6: {
    int v52 = (int)((unsigned)(__sad((int)in[(gid * 3u + 177u) & 1023u], (int)in[(gid * 5u + 375u) & 1023u], (unsigned)(unsigned short)((int)tid))) * (unsigned)(fz_abs_i32(fz_div_i32((int)lane - 16, (-89849810)))));
    v52 = __mulhi(7, v52);
  } case 9: {
    __half a53[8];
    for (unsigned k54 = 0; k54 < 8u; ++k54) {
      a53[k54] = __float2half(0x1.f800000000000p+5f);
    }
    a53[(gid) & 7u] = a53[(3644871604u) & 7u];
    a53[(3231342277u) & 7u] = __hfma(__float2half(-0x1.b6722c0000000p+17f), __hfma(__float2half_rz(__uint_as_float(in[(gid * 7u + 877u) & 1023u])), __hneg(a53[(lane) & 7u]), a53[(gid) & 7u]), __hadd(a53[(lane) & 7u], __hfma(a53[(lane) & 7u], a53[(in[(gid * 1u + 462u) & 1023u]) & 7u], __float2half(0x1.0000000000000p+0f))));
    a53[(lane) & 7u] = a53[(tid) & 7u];
    long long v55 = max((255ll ^ 64ll), (35ll ^ 26ll));
    break;
  } default: {
    long long v56 = 65535ll;
  } }
  if (false) {
    atomicAdd((int*)(out + fz_atom + 5), (int)lane - 16);
    unsigned n58 = (fz_div_u32(blockDim.x, fz_rem_u32(tid, gid))) & 7u;
    for (unsigned i57 = 0; i57 < n58; ++i57) {
      double v59 = (__longlong_as_double((long long)fz_ld64(in, gid * 7u + 780u)) - (double)(9223372036854775807ll));
      v59 = floor((v59 * fz_copysign(0x1.2aa472e4c8852p+4, (v59 - __longlong_as_double((long long)fz_ld64(in, gid * 2u + 897u))))));
      double a60[16];
      for (unsigned k61 = 0; k61 < 16u; ++k61) {
        a60[k61] = (v59 + __longlong_as_double((long long)fz_ld64(in, gid * 6u + 741u)));
      }
      a60[((unsigned)((17561183108042291808ull ^ 6ull))) & 15u] = __dadd_rn(__longlong_as_double((long long)fz_ld64(in, gid * 2u + 482u)), (a60[(blockDim.x) & 15u] - __longlong_as_double((long long)fz_ld64(in, gid * 2u + 554u))));
      a60[(38u) & 15u] = (0x1.b9f5f96a80d23p-27 / a60[(606980537u) & 15u]);
      a60[((i57 * blockDim.x)) & 15u] = (double)(__uint_as_float(in[(gid * 4u + 98u) & 1023u]));
    }
  }
  out[gid * FZ_SLOTS + 0u] = __float_as_uint(__uint_as_float(in[(gid * 4u + 39u) & 1023u]));
  out[gid * FZ_SLOTS + 1u] = (unsigned)__half_as_ushort(hrcp(__float2half(-0x1.d18df40000000p+81f)));
  out[gid * FZ_SLOTS + 2u] = (unsigned)(__popcll((unsigned long long)(((gid & blockDim.x) != 0u))));
  out[gid * FZ_SLOTS + 3u] = __float_as_uint((float)(21ull));
  out[gid * FZ_SLOTS + 4u] = (unsigned)__bfloat16_as_ushort(__hadd((false ? __float2bfloat16(0x1.e1ad040000000p+50f) : __float2bfloat16(__uint_as_float(in[(gid * 7u + 829u) & 1023u]))), __float2bfloat16(__uint_as_float(in[(gid * 4u + 450u) & 1023u]))));
  out[gid * FZ_SLOTS + 5u] = __float_as_uint(sqrtf(((__uint_as_float(in[(gid * 3u + 400u) & 1023u]) + __uint_as_float(in[(gid * 2u + 5u) & 1023u])) / __uint_as_float(in[(gid * 7u + 387u) & 1023u]))));
  #undef FZ_SLOTS
}
