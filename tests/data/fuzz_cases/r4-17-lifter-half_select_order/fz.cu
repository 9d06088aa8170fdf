#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
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

__device__ __noinline__ unsigned fz17_rec18(unsigned x, unsigned d) {
  if (d == 0u) return x + 1u;
  unsigned l = fz17_rec18(x * 0x9e37u + d, d - 1u);
  return (d & 1u) ? l ^ (x * d) : l + fz17_rec18(x, d >> 1);
}

extern "C" __global__ void __launch_bounds__(32) fz17(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 8u
  __shared__ __half sh14[32];
  __shared__ unsigned fz_sacc[8];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 96 * FZ_SLOTS;
  if (tid < 8u) fz_sacc[tid] = 0u;
  __syncthreads();
  float v1 = (__half2float(__float2half_rz(__uint_as_float(in[(gid * 1u + 85u) & 1023u]))) + __uint_as_float(in[(gid * 4u + 542u) & 1023u]));
  int v2 = (int)((unsigned)(((int)tid | (int)tid)) + (unsigned)((false ? (int)(signed char)((int)in[(gid * 5u + 504u) & 1023u]) : (int)gid)));
  if ((lane > 28u)) {
    if (false) {
      __nv_bfloat16 v3 = __ushort_as_bfloat16((unsigned short)in[(lane) & 1023u]);
      unsigned v4 = __funnelshift_lc((in[(gid) & 1023u] & 1182248226u), blockDim.x, in[(gid * 2u + 232u) & 1023u]);
      unsigned n6 = (v4) & 7u;
      for (unsigned i5 = 0; i5 < n6; ++i5) {
        v2 = fz_f2i(v1);
        unsigned v7 = (v4 & in[(gid * 7u + 223u) & 1023u]);
        v2 = fz_div_i32(v2, (int)(i5));
        v1 = fz_copysignf(rintf(__uint_as_float(in[(gid * 5u + 141u) & 1023u])), v1);
      }
      long long v8 = (long long)(12068327967447892390ull);
    }
    v2 = fz_d2i((__longlong_as_double((long long)fz_ld64(in, gid * 2u + 558u)) * __longlong_as_double((long long)fz_ld64(in, gid * 1u + 597u))));
  }
  double v9 = __longlong_as_double((long long)fz_ld64(in, gid * 6u + 571u));
  v9 = fmin((__longlong_as_double((long long)fz_ld64(in, gid * 1u + 190u)) * (-0x1.0000000000000p+3)), fma(v9, __longlong_as_double((long long)fz_ld64(in, gid * 1u + 812u)), (v9 + __longlong_as_double((long long)fz_ld64(in, lane)))));
  __nv_bfloat16 v10 = __hadd(__hfma(__float2bfloat16(-0x1.3000000000000p+3f), __float2bfloat16(__uint2float_rd(tid)), __float2bfloat16(0x1.74c5de0000000p-30f)), __hfma(__float2bfloat16(0x1.48d6f80000000p-20f), __ushort_as_bfloat16((unsigned short)in[(fz_f2u(0x1.a8a2120000000p+20f)) & 1023u]), __float2bfloat16(0x1.5c73000000000p-130f)));
  cg::thread_block_tile<16> t11 = cg::tiled_partition<16>(cg::this_thread_block());
  double v12 = t11.shfl(__longlong_as_double((long long)fz_ld64(in, gid * 5u + 459u)), 8);
  if (false) {
    v1 = __uint_as_float(in[(gid * 4u + 576u) & 1023u]);
    if (__hgt(__hadd(__hmul(__float2bfloat16(-0.0f), __float2bfloat16(-0x1.d800000000000p+5f)), __hmul(__float2bfloat16(-0x1.1800000000000p+3f), __float2bfloat16(-0x1.6bab940000000p-57f))), __hfma(v10, __hsub(v10, __float2bfloat16(0x1.c800000000000p+2f)), v10))) {
      unsigned long long v13 = max(max(11423423650283742507ull, (unsigned long long)(false)), 255ull);
    }
    atomicMax((int*)(out + fz_atom + 2), v2);
  }
  sh14[tid] = __hadd_sat(__hsub(__float2half(0x1.7000000000000p+3f), __float2half(0x1.9feb0e0000000p+92f)), __float2half(0x1.d5e0460000000p+9f));
  __syncthreads();
  __half v15 = sh14[(tid ^ 14u) % 32u];
  __syncthreads();
  __nv_bfloat16 v16 = __ushort_as_bfloat16((unsigned short)in[((tid + in[(gid * 4u + 1008u) & 1023u])) & 1023u]);
  __nv_bfloat16 v17 = v10;
  if ((false || false)) {
    unsigned v19 = fz17_rec18((tid & tid), ((unsigned)blockIdx.x + 7u) & 7u);
    double v20 = (fmin(v9, fmin(rint(v9), v9)) + fz_copysign(trunc(fabs(v12)), v9));
    v1 = fmaf(v1, __int2float_rz((int)((unsigned)((int)gid) + (unsigned)(38))), (float)(v19));
  } else {
    if ((9223372036854775807ll <= (9223372036854775807ll ^ (long long)(25ull)))) {
      unsigned n22 = (blockDim.x) & 7u;
      unsigned i21 = 0; do {
        unsigned v23 = in[(__umul24((1751237182u | i21), i21)) & 1023u];
        v17 = __int2bfloat16_rn((int)((unsigned)((int)fz_signbitf(__bfloat162float(__float2bfloat16(0x1.4800000000000p+3f)))) * (unsigned)(v2)));
      } while (++i21 < n22);
      switch ((in[(gid * 3u + 770u) & 1023u]) % 10u) { case 0: {
        v12 = fmax(((v12 / v9) + 0x1.27a8c90d6c349p-34), __longlong_as_double((long long)fz_ld64(in, gid * 3u + 495u)));
        break;
      } case 1: {
        unsigned long long v24 = ((~min(64ull, fz_rem_u64(9223372036854775807ull, 63ull))) - (unsigned long long)(true));
        v15 = __hadd(__hmul(v15, (false ? v15 : __hadd(__float2half(0x1.0000000000000p-1f), v15))), __hmul(__hmul_sat(__float2half(-0x1.1000000000000p+4f), __float2half(0x1.5555560000000p-2f)), __hadd(__float2half(0x1.c363cc0000000p+127f), (true ? __float2half(0x1.0000000000000p-1f) : v15))));
        break;
      } case 2: {
        v15 = __float2half_rz((fmaxf(v1, __uint_as_float(in[(gid * 3u + 912u) & 1023u])) * __fmul_rn(__uint_as_float(in[(gid * 6u + 552u) & 1023u]), (__uint_as_float(in[(gid * 6u + 325u) & 1023u]) + v1))));
        break;
      } case 3: {
        v9 = v9;
        break;
      } case 4: {
        v15 = (__hfma(((blockDim.x != 4294967291u) ? __float2half(-0x1.f000000000000p+4f) : v15), __float2half(0x1.4000000000000p+4f), v15) + __float2half(0x1.4aaaaa0000000p+3f));
        unsigned v25 = (gid - (tid & tid));
        break;
      } case 5: {
        float v26 = ((float)(v2) / __fsqrt_rn(fmaxf((0x1.5555560000000p-2f + v1), v1)));
        break;
      } case 8: {
        atomicAdd(&fz_sacc[2], 2574966232u);
        break;
      } case 9: {
        v17 = (true ? __hadd(__float2bfloat16_rz(v1), v10) : __ushort_as_bfloat16((unsigned short)in[(in[(gid * 2u + 69u) & 1023u]) & 1023u]));
        double a27[16];
        for (unsigned k28 = 0; k28 < 16u; ++k28) {
          a27[k28] = (double)((__uint_as_float(in[(gid * 5u + 158u) & 1023u]) * __uint_as_float(in[(gid * 3u + 163u) & 1023u])));
        }
        a27[((unsigned)((int)lane - 16)) & 15u] = __longlong_as_double((long long)fz_ld64(in, gid * 2u + 525u));
        a27[((unsigned)blockIdx.x) & 15u] = ldexp(v9, (int)(fz_hbits(v15) & 127u) - 64);
        a27[(lane) & 15u] = v9;
        break;
      } default: {
        double v29 = fma(fma(v12, v12, v12), (((false || false) ? v9 : v9) * (double)((int)in[(gid * 6u + 461u) & 1023u])), (double)(0x1.e0f5120000000p-68f));
      } }
      v15 = __hadd_sat(__hadd_sat(v15, __float2half_rz(fmaxf(v1, __uint_as_float(in[(gid * 3u + 237u) & 1023u])))), __hmul_sat(v15, __float2half(0x1.c363cc0000000p+127f)));
    }
    v2 = v2;
  }
  atomicXor(out + fz_atom + 6, (unsigned)(unsigned short)(27));
  {
    unsigned long long w30 = (unsigned long long)__double_as_longlong(v12);
    out[gid * FZ_SLOTS + 0u] = (unsigned)w30;
    out[gid * FZ_SLOTS + 1u] = (unsigned)(w30 >> 32);
  }
  out[gid * FZ_SLOTS + 2u] = __float_as_uint(exp10f(__bfloat162float(v10)));
  {
    unsigned long long w31 = (unsigned long long)__double_as_longlong(exp((fma(__longlong_as_double((long long)fz_ld64(in, gid * 1u + 208u)), v12, v9) + v12)));
    out[gid * FZ_SLOTS + 3u] = (unsigned)w31;
    out[gid * FZ_SLOTS + 4u] = (unsigned)(w31 >> 32);
  }
  out[gid * FZ_SLOTS + 5u] = (unsigned)(v2);
  out[gid * FZ_SLOTS + 6u] = (unsigned)(v2);
  out[gid * FZ_SLOTS + 7u] = (unsigned)(v2);
  __syncthreads();
  if (tid < 8u) atomicAdd(out + fz_atom + 16u + tid, fz_sacc[tid]);
  #undef FZ_SLOTS
}
