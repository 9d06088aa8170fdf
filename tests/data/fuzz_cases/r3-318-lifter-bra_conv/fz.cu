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

extern "C" __global__ void __launch_bounds__(64) fz318(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 6u
  __shared__ unsigned long long sh2[64];
  __shared__ unsigned fz_sacc[8];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 64 * FZ_SLOTS;
  if (tid < 8u) fz_sacc[tid] = 0u;
  __syncthreads();
  int v1 = (int)gid;
  atomicAdd(&fz_sacc[0], (unsigned)blockIdx.x);
  sh2[tid] = (~13ull);
  __syncthreads();
  unsigned long long v3 = sh2[28u];
  __syncthreads();
  unsigned a4[16];
  for (unsigned k5 = 0; k5 < 16u; ++k5) {
    a4[k5] = tid;
  }
  a4[((a4[(blockDim.x) & 15u] | gid)) & 15u] = max(a4[(in[(gid * 7u + 602u) & 1023u]) & 15u], ((a4[(a4[(blockDim.x) & 15u]) & 15u] + a4[(2546412094u) & 15u]) + (a4[(a4[(in[(gid * 5u + 199u) & 1023u]) & 15u]) & 15u] & a4[(4070224078u) & 15u])));
  a4[((fz_div_u32(tid, a4[(a4[(a4[(a4[(a4[(in[(gid * 6u + 422u) & 1023u]) & 15u]) & 15u]) & 15u]) & 15u]) & 15u]) * a4[(a4[(541445440u) & 15u]) & 15u])) & 15u] = __vsub2(a4[(in[(gid * 7u + 474u) & 1023u]) & 15u], 3u);
  if ((0x000000ffu >> lane) & 1u) {
    v1 = (int)in[(gid * 3u + 75u) & 1023u];
    double v6 = __shfl_xor_sync(0x000000ffu, __dadd_rn(__longlong_as_double((long long)fz_ld64(in, gid * 4u + 129u)), (__longlong_as_double((long long)fz_ld64(in, gid * 2u + 503u)) / __longlong_as_double((long long)fz_ld64(in, gid * 4u + 56u)))), 1);
    if ((lane < 24u)) {
      v1 = (int)in[(gid * 1u + 538u) & 1023u];
      if (((a4[(a4[(in[(gid * 1u + 402u) & 1023u]) & 15u]) & 15u] & __funnelshift_l((a4[(a4[(a4[(a4[(in[(gid * 5u + 369u) & 1023u]) & 15u]) & 15u]) & 15u]) & 15u] | a4[(a4[(a4[(in[(gid * 5u + 989u) & 1023u]) & 15u]) & 15u]) & 15u]), __funnelshift_rc(blockDim.x, a4[(a4[(a4[(a4[(a4[(3659379603u) & 15u]) & 15u]) & 15u]) & 15u]) & 15u], a4[(a4[(a4[(5u) & 15u]) & 15u]) & 15u]), in[(gid * 4u + 497u) & 1023u])) != 0u)) {
        v3 = min(fz_rem_u64(v3, (v3 ^ (v3 >> (v3 & 63ull)))), min(v3, v3));
        __half v7 = __float2half(0x1.0000000000000p-1f);
      } else {
        v3 = v3;
        atomicInc(out + fz_atom + 6, 37u);
        v3 = ((65535ull | (unsigned long long)(9223372036854775807ll)) - ((1254612092065602108ull + 16ull) >> (v3 & 63ull)));
      }
    }
    int v8 = __shfl_xor_sync(0x000000ffu, (fz_inrange_f(__int2float_rz(v1)) ? __float2int_ru(__int2float_rz(v1)) : 0), 1);
  }
  int v9 = (int)((unsigned)(v1) + (unsigned)(v1));
  v1 = (int)((unsigned)((fz_inrange_f(__uint_as_float(in[(gid * 3u + 886u) & 1023u])) ? __float2int_rn(__uint_as_float(in[(gid * 3u + 886u) & 1023u])) : 0)) + (unsigned)(v1));
  double v10 = (double)(__uint_as_float(in[(gid * 3u + 722u) & 1023u]));
  v3 = 16540731340672851710ull;
  unsigned v11 = (__vabsdiffu4(in[(gid * 3u + 314u) & 1023u], a4[(a4[(a4[(a4[(2147483648u) & 15u]) & 15u]) & 15u]) & 15u]) >> (blockDim.x & 31u));
  v10 = (__longlong_as_double((long long)fz_ld64(in, gid * 3u + 205u)) + (double)(__uint_as_float(in[(gid * 1u + 566u) & 1023u])));
  {
    unsigned long long w12 = (unsigned long long)__double_as_longlong(v10);
    out[gid * FZ_SLOTS + 0u] = (unsigned)w12;
    out[gid * FZ_SLOTS + 1u] = (unsigned)(w12 >> 32);
  }
  out[gid * FZ_SLOTS + 2u] = (unsigned)(v1);
  out[gid * FZ_SLOTS + 3u] = (unsigned)(v1);
  out[gid * FZ_SLOTS + 4u] = (unsigned)(v11);
  out[gid * FZ_SLOTS + 5u] = (unsigned)(v9);
  __syncthreads();
  if (tid < 8u) atomicAdd(out + fz_atom + 16u + tid, fz_sacc[tid]);
  #undef FZ_SLOTS
}
