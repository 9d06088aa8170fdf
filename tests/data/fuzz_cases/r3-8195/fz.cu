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

extern "C" __global__ void __launch_bounds__(256) fz8195(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 8u
  __shared__ double sh4[256];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 256 * FZ_SLOTS;
  int v1 = (int)(in[(gid) & 1023u]);
  v1 = (int)((unsigned long long)(v1));
  v1 = __sad((int)((unsigned)((int)gid) << (min((in[(gid * 6u + 329u) & 1023u] - gid), blockDim.x) & 31u)), (int)in[(gid * 4u + 727u) & 1023u], min(10u, (tid + (blockDim.x * (unsigned)blockIdx.x))));
  v1 = (int)lane - 16;
  unsigned v2 = (true ? in[(gid * 2u + 664u) & 1023u] : ((blockDim.x * blockDim.x) ^ lane));
  __nv_bfloat16 v3 = __hmul(__hsub(__float2bfloat16(0x1.db72e20000000p+7f), __float2bfloat16(0x1.2000000000000p+4f)), __hadd(__float2bfloat16(0x1.5800000000000p+5f), __float2bfloat16(0x1.8000000000000p-1f)));
  v1 = __mulhi((int)tid, (int)lane - 16);
  sh4[tid] = (__longlong_as_double((long long)fz_ld64(in, gid * 1u + 1016u)) + fz_ceil(__longlong_as_double((long long)fz_ld64(in, gid * 1u + 554u))));
  __syncthreads();
  double v5 = sh4[31u];
  __syncthreads();
  unsigned n7 = ((unsigned)fz_d2ll(__longlong_as_double((long long)fz_ld64(in, gid * 5u + 981u)))) & 7u;
  unsigned i6 = 0; do {
    unsigned v8 = __umulhi(v2, (in[(gid * 5u + 187u) & 1023u] << (lane & 31u)));
    float v9 = fmaxf((fmodf(__uint_as_float(in[(gid * 5u + 218u) & 1023u]), __uint_as_float(in[(gid * 5u + 217u) & 1023u])) * __half2float(__float2half(__uint_as_float(in[(gid * 4u + 47u) & 1023u])))), __uint_as_float(in[(gid * 4u + 404u) & 1023u]));
  } while (++i6 < n7);
  out[gid * FZ_SLOTS + 0u] = __float_as_uint((__uint_as_float(in[(gid * 7u + 723u) & 1023u]) + remainderf(__uint_as_float(in[(gid * 7u + 262u) & 1023u]), __uint_as_float(in[(gid * 5u + 331u) & 1023u]))));
  out[gid * FZ_SLOTS + 1u] = (unsigned)(v1);
  out[gid * FZ_SLOTS + 2u] = __float_as_uint(erff(fmaf((__uint_as_float(in[(gid * 5u + 587u) & 1023u]) / __uint_as_float(in[(gid * 7u + 796u) & 1023u])), __uint_as_float(in[(gid * 1u + 947u) & 1023u]), __uint_as_float(in[(gid * 6u + 148u) & 1023u]))));
  {
    unsigned long long w10 = (unsigned long long)(26ll);
    out[gid * FZ_SLOTS + 3u] = (unsigned)w10;
    out[gid * FZ_SLOTS + 4u] = (unsigned)(w10 >> 32);
  }
  {
    unsigned long long w11 = (unsigned long long)__double_as_longlong(v5);
    out[gid * FZ_SLOTS + 5u] = (unsigned)w11;
    out[gid * FZ_SLOTS + 6u] = (unsigned)(w11 >> 32);
  }
  out[gid * FZ_SLOTS + 7u] = (unsigned)__bfloat16_as_ushort(v3);
  #undef FZ_SLOTS
}
