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

__device__ __noinline__ unsigned fz1303_rec5(unsigned x, unsigned d) {
  if (d == 0u) return x + 1u;
  unsigned l = fz1303_rec5(x * 3u + d, d - 1u);
  return (d & 1u) ? l ^ (x ^ d) : l + fz1303_rec5(x, d >> 1);
}

__device__ __noinline__ unsigned fz1303_rec8(unsigned x, unsigned d) {
  if (d == 0u) return x + 1u;
  unsigned l = fz1303_rec8(x * 7u + d, d - 1u);
  return (d & 1u) ? l ^ (x ^ d) : l + fz1303_rec8(x, d >> 1);
}

extern "C" __global__ void __launch_bounds__(64) fz1303(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 8u
  __shared__ unsigned fz_sacc[8];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 192 * FZ_SLOTS;
  if (tid < 8u) fz_sacc[tid] = 0u;
  __syncthreads();
  if (true) {
    int v1 = ((int)((unsigned)((int)tid) * (unsigned)((int)((unsigned)((int)tid) << ((unsigned)blockIdx.x & 31u)))) | (__hadd((int)(short)(38u), (int)((unsigned)((int)in[(gid * 4u + 549u) & 1023u]) + (unsigned)((int)in[(gid * 1u + 49u) & 1023u]))) & ((__uint_as_float(in[(gid * 3u + 554u) & 1023u]) < __uint_as_float(in[(gid * 1u + 350u) & 1023u])) ? (int)lane - 16 : (int)tid)));
    atomicAdd(&fz_sacc[2], in[(tid) & 1023u]);
  }
  int v2 = fz_div_i32((int)tid, (int)(short)(37u));
  unsigned n4 = ((unsigned)blockIdx.x) & 7u;
  for (unsigned i3 = 0; i3 < n4; ++i3) {
    v2 = 6;
    v2 = (int)(__vadd4(3u, i3));
  }
  unsigned v6 = fz1303_rec5(blockDim.x, ((unsigned)blockIdx.x + 6u) & 7u);
  if (true) {
    float v7 = (-(__uint_as_float(in[(gid * 4u + 995u) & 1023u]) * __uint_as_float(in[(gid * 7u + 256u) & 1023u])));
    v6 = v6;
    unsigned v9 = fz1303_rec8(__funnelshift_rc((unsigned)blockIdx.x, in[(gid * 2u + 658u) & 1023u], (unsigned)blockIdx.x), ((unsigned)blockIdx.x * 7u) & 7u);
  } else {
    v2 = (int)((unsigned)((int)in[(gid * 7u + 168u) & 1023u]) - (unsigned)((v2 & v2)));
  }
  float v10 = fmaf(fminf(__half2float(__hadd(__float2half(-0x1.f58e540000000p+82f), __float2half(-0x1.44ed420000000p+114f))), __uint_as_float(in[(gid * 7u + 130u) & 1023u])), ((__uint_as_float(in[(gid * 1u + 32u) & 1023u]) / __bfloat162float(__float2bfloat16(0x1.8000000000000p+5f))) * rintf((float)(__longlong_as_double((long long)fz_ld64(in, gid * 6u + 1023u))))), __uint_as_float(in[(gid * 4u + 987u) & 1023u]));
  unsigned v11 = (v6 ^ (__vsub2(32u, v6) + __funnelshift_l(v6, (unsigned)(63ll), v6)));
  v6 = fz_bbits(__float2bfloat16(-0x1.1aaaaa0000000p+4f));
  v2 = (int)tid;
  float v12 = (fdimf((v10 * v10), v10) + v10);
  out[gid * FZ_SLOTS + 0u] = __float_as_uint(hypotf(v10, 3.0f));
  out[gid * FZ_SLOTS + 1u] = __float_as_uint(v10);
  out[gid * FZ_SLOTS + 2u] = (unsigned)(v6);
  out[gid * FZ_SLOTS + 3u] = (unsigned)(v6);
  out[gid * FZ_SLOTS + 4u] = __float_as_uint(v10);
  out[gid * FZ_SLOTS + 5u] = (unsigned)(v6);
  out[gid * FZ_SLOTS + 6u] = __float_as_uint(exp2f((float)(39ll)));
  out[gid * FZ_SLOTS + 7u] = __float_as_uint(v10);
  __syncthreads();
  if (tid < 8u) atomicAdd(out + fz_atom + 16u + tid, fz_sacc[tid]);
  #undef FZ_SLOTS
}
