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

extern "C" __global__ void __launch_bounds__(96) fz8334(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 8u
  __shared__ double sh18[96];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 288 * FZ_SLOTS;
  unsigned long long a1[8];
  for (unsigned k2 = 0; k2 < 8u; ++k2) {
    a1[k2] = 18353895435643951972ull;
  }
  a1[(blockDim.x) & 7u] = a1[(lane) & 7u];
  unsigned n4 = ((gid + lane)) & 7u;
  for (unsigned i3 = 0; i3 < n4; ++i3) {
    if ((lane < 17u)) {
      for (int i5 = 0; i5 < 4; ++i5) {
        __half v6 = __hmin(__hmul(__float2half(0x1.d000000000000p+1f), __float2half(-0x1.6000000000000p+1f)), __habs(__hmul_sat(__float2half(0.0f), __float2half(0x1.0000000000000p-1f))));
      }
    } else {
      unsigned n8 = (lane) & 7u;
      for (unsigned i7 = 0; i7 < n8; ++i7) {
        __nv_bfloat16 v9 = __hadd(__hsub(__float2bfloat16(-0x1.4000000000000p+3f), __float2bfloat16(-0x1.8800000000000p+2f)), __hadd(__hsub(__float2bfloat16(-0x1.4800000000000p+2f), __float2bfloat16(-0x1.3800000000000p+3f)), __float2bfloat16(0x1.0800000000000p+5f)));
        v9 = __hadd(__float2bfloat16(-0x1.2000000000000p+0f), __hfma(__float2bfloat16(0x1.5800000000000p+5f), v9, __hmin(__float2bfloat16(-0x1.b0fc0e0000000p+15f), __float2bfloat16(0.0f))));
      }
      float v10 = (((__uint_as_float(in[(gid * 1u + 56u) & 1023u]) - __fdiv_rn(__uint_as_float(in[(gid * 6u + 750u) & 1023u]), __uint_as_float(in[(gid * 5u + 650u) & 1023u]))) * __uint_as_float(in[(gid * 3u + 796u) & 1023u])) * (float)((int)((unsigned)((int)tid) - (unsigned)((int)in[(gid * 3u + 381u) & 1023u]))));
    }
  }
  unsigned v11 = __brev(blockDim.x);
  if ((0x55555555u >> lane) & 1u) {
    for (int i12 = 0; i12 < 3; ++i12) {
      v11 = ((((unsigned)(11058003520105963576ull) * v11) | __byte_perm(v11, v11, v11)) | in[(gid * 1u + 429u) & 1023u]);
      for (int i13 = 0; i13 < 2; ++i13) {
        unsigned a14[8];
        for (unsigned k15 = 0; k15 < 8u; ++k15) {
          a14[k15] = (k15 | lane);
        }
        a14[(in[(gid * 7u + 547u) & 1023u]) & 7u] = v11;
        __nv_bfloat16 v16 = __hmul(__float2bfloat16(0x1.5000000000000p+4f), __float2bfloat16(0x1.ad7f2a0000000p-24f));
      }
    }
    v11 = (v11 | 4294967291u);
    double v17 = __shfl_sync(0x55555555u, __longlong_as_double((long long)fz_ld64(in, gid * 4u + 589u)), 16);
  }
  sh18[tid] = fma(__longlong_as_double((long long)fz_ld64(in, gid * 6u + 429u)), __longlong_as_double((long long)fz_ld64(in, gid * 7u + 625u)), (double)(__uint_as_float(in[(gid * 6u + 47u) & 1023u])));
  __syncthreads();
  double v19 = sh18[(tid ^ 16u) % 96u];
  int v20 = __syncthreads_count(((int)gid != fz_f2i(__uint_as_float(in[(gid * 2u + 81u) & 1023u]))));
  __syncthreads();
  v11 = v11;
  __nv_bfloat16 v21 = __hsub(__hsub(__hmul(__float2bfloat16(0x1.5f74660000000p+89f), __hneg(__float2bfloat16(0x1.f000000000000p+2f))), __float2bfloat16(0x1.1800000000000p+5f)), __float2bfloat16(0x1.1000000000000p+4f));
  for (int i22 = 0; i22 < 3; ++i22) {
    v11 = (fz_f2u(__uint_as_float(in[(gid * 1u + 822u) & 1023u])) - min(fz_div_u32(v11, v11), __umul24(in[(gid * 2u + 387u) & 1023u], in[(v11) & 1023u])));
    v19 = ((trunc(__longlong_as_double((long long)fz_ld64(in, gid * 3u + 72u))) - v19) * v19);
    cg::thread_block_tile<16> t23 = cg::tiled_partition<16>(cg::this_thread_block());
    int v24 = cg::reduce(t23, (int)(__ffs((int)(a1[(4114436547u) & 7u]))), cg::plus<int>());
  }
  int v25 = __reduce_add_sync(FZ_FULL, (int)((unsigned)((int)in[(gid * 3u + 850u) & 1023u]) << (lane & 31u)));
  cg::thread_block_tile<32> t26 = cg::tiled_partition<32>(cg::this_thread_block());
  float v27 = cg::reduce(t26, (float)((float)((int)(((unsigned)((a1[(tid) & 7u] & 25ull))) & 31u) - 16)), cg::plus<float>());
  out[gid * FZ_SLOTS + 0u] = __float_as_uint(acosf(v27));
  {
    unsigned long long w28 = (unsigned long long)__double_as_longlong(v19);
    out[gid * FZ_SLOTS + 1u] = (unsigned)w28;
    out[gid * FZ_SLOTS + 2u] = (unsigned)(w28 >> 32);
  }
  out[gid * FZ_SLOTS + 3u] = (unsigned)(v25);
  out[gid * FZ_SLOTS + 4u] = __float_as_uint(asinhf((v27 / fz_copysignf(v27, 0x1.ad7f2a0000000p-24f))));
  out[gid * FZ_SLOTS + 5u] = (unsigned)(v11);
  out[gid * FZ_SLOTS + 6u] = (unsigned)(v25);
  out[gid * FZ_SLOTS + 7u] = (unsigned)__bfloat16_as_ushort(v21);
  #undef FZ_SLOTS
}
