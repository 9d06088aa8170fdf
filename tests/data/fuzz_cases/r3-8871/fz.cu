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

extern "C" __global__ void __launch_bounds__(128) fz8871(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 8u
  __shared__ int sh13[128];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 256 * FZ_SLOTS;
  double v1 = fmin((double)((17ull - fz_rem_u64(65535ull, 9223372036854775807ull))), trunc(__longlong_as_double((long long)fz_ld64(in, gid * 4u + 550u))));
  int v2 = (int)isinf(v1);
  if (true) {
    v2 = min((true ? v2 : (-1720504171)), (int)((unsigned)((int)tid) + (unsigned)((true ? v2 : v2))));
    v1 = fma((__longlong_as_double((long long)fz_ld64(in, gid * 3u + 518u)) * (v1 * v1)), __longlong_as_double((long long)fz_ld64(in, gid * 2u + 608u)), (v1 / __longlong_as_double((long long)fz_ld64(in, gid * 4u + 126u))));
    if (true) {
      v2 = __mul24(__ffsll(18ll), (int)in[(gid * 2u + 818u) & 1023u]);
      __nv_bfloat16 v3 = __float2bfloat16((0x1.ad7f2a0000000p-24f * (false ? __uint_as_float(in[(gid * 3u + 807u) & 1023u]) : __uint_as_float(in[(gid * 6u + 868u) & 1023u]))));
      unsigned long long v4 = (256ull + 26ull);
      int v5 = v2;
    } else {
      int v6 = (int)((unsigned)(__clzll((-3208272219628585087ll))) * (unsigned)(31));
      v6 = (int)((unsigned)((int)((unsigned)((int)lane - 16) + (unsigned)((int)((unsigned)((int)((unsigned)(v2) - (unsigned)((int)gid))) + (unsigned)(v6))))) - (unsigned)(__clz((int)in[(gid * 6u + 237u) & 1023u])));
      v1 = v1;
    }
  } else {
    unsigned long long a7[8];
    for (unsigned k8 = 0; k8 < 8u; ++k8) {
      a7[k8] = 33ull;
    }
    a7[(in[(gid * 1u + 400u) & 1023u]) & 7u] = 3251165227680801872ull;
    a7[(blockDim.x) & 7u] = 32ull;
    a7[((blockDim.x & (tid ^ (unsigned)blockIdx.x))) & 7u] = (false ? (unsigned long long)(tid) : min(a7[((unsigned)blockIdx.x) & 7u], a7[((unsigned)blockIdx.x) & 7u]));
    __half v9 = __hadd(__float2half(roundf((float)((int)in[(gid * 4u + 179u) & 1023u]))), __hfma(__float2half(-0x1.e800000000000p+3f), __hadd(__float2half(0x1.44eace0000000p-62f), __float2half(0.0f)), __hmul(__hmin(__float2half(-0x1.0000000000000p+4f), __float2half(-0x1.3000000000000p+5f)), __float2half(__uint_as_float(in[(gid * 7u + 359u) & 1023u])))));
    atomicOr(out + fz_atom + 0, blockDim.x);
  }
  unsigned v10 = (unsigned)((20ull | (13461773867553184073ull >> (26ull & 63ull))));
  v2 = (int)((unsigned)(v2) << (157073228u & 31u));
  v2 = (int)((unsigned)(fz_f2i(__uint_as_float(in[(gid * 7u + 861u) & 1023u]))) + (unsigned)(v2));
  v10 = tid;
  int v11 = (v2 ^ (int)in[(gid * 1u + 442u) & 1023u]);
  v10 = (unsigned)(((double)(v10) == (v1 + __longlong_as_double((long long)fz_ld64(in, gid * 4u + 199u)))));
  unsigned v12 = __match_any_sync(FZ_FULL, v11);
  v10 = (in[(gid * 4u + 310u) & 1023u] * __umulhi(in[(v10) & 1023u], lane));
  sh13[tid] = (int)in[(gid * 3u + 207u) & 1023u];
  __syncthreads();
  int v14 = sh13[(tid + 121u) % 128u];
  __syncthreads();
  int v15 = (int)in[(gid * 1u + 817u) & 1023u];
  unsigned a16[16];
  for (unsigned k17 = 0; k17 < 16u; ++k17) {
    a16[k17] = k17;
  }
  a16[(in[(gid * 4u + 141u) & 1023u]) & 15u] = v10;
  a16[((tid ^ v10)) & 15u] = v12;
  a16[(a16[(v12) & 15u]) & 15u] = v12;
  out[gid * FZ_SLOTS + 0u] = (unsigned)(v12);
  out[gid * FZ_SLOTS + 1u] = (unsigned)(v15);
  out[gid * FZ_SLOTS + 2u] = __float_as_uint(__logf(1.0f + fabsf(fz_small(__saturatef((true ? 0x1.a85d920000000p+92f : __uint_as_float(in[(gid * 7u + 765u) & 1023u])))))));
  {
    unsigned long long w18 = (unsigned long long)__double_as_longlong(v1);
    out[gid * FZ_SLOTS + 3u] = (unsigned)w18;
    out[gid * FZ_SLOTS + 4u] = (unsigned)(w18 >> 32);
  }
  out[gid * FZ_SLOTS + 5u] = (unsigned)(v2);
  out[gid * FZ_SLOTS + 6u] = (unsigned)(v11);
  out[gid * FZ_SLOTS + 7u] = __float_as_uint(__expf(fz_small(__uint_as_float(in[(gid * 6u + 1021u) & 1023u]))));
  #undef FZ_SLOTS
}
