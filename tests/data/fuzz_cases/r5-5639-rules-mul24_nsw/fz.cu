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

extern "C" __global__ void __launch_bounds__(64) fz5639(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 6u
  __shared__ unsigned fz_sacc[8];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 192 * FZ_SLOTS;
  if (tid < 8u) fz_sacc[tid] = 0u;
  __syncthreads();
  int v1 = (int)in[(gid * 2u + 390u) & 1023u];
  unsigned long long v2 = __shfl_up_sync(FZ_FULL, (fz_rem_u64(11151364873020433841ull, 63ull) * (21ull | 10513159806677924972ull)), 4u, 16);
  int v3 = (int)tid;
  if ((lane > 6u)) {
    unsigned n5 = (tid) & 7u;
    unsigned i4 = 0; do {
      if (((float)(24ll) <= __fdiv_rn(__uint_as_float(in[(gid * 3u + 745u) & 1023u]), __uint_as_float(in[(gid * 5u + 164u) & 1023u])))) {
        v3 = fz_div_i32(v1, (v1 ^ __mul24((int)tid, (int)in[(gid * 5u + 577u) & 1023u])));
        int a6[4];
        for (unsigned k7 = 0; k7 < 4u; ++k7) {
          a6[k7] = __mulhi(v1, (-2047325678));
        }
        a6[(lane) & 3u] = (int)((unsigned)(v1) << ((lane << (i4 & 31u)) & 31u));
        v2 = (unsigned long long)(i4);
      }
      v2 = (v2 & 10951601794566357133ull);
      unsigned v8 = (__funnelshift_rc(i4, __brev(i4), __vcmpeq4(lane, i4)) + 2300235482u);
      __half v9 = __hmul(__float2half(0x1.c363cc0000000p+127f), __hmul(__hfma(__float2half(0x1.3000000000000p+2f), __float2half(-0x1.6000000000000p+4f), __hadd(__float2half(0x1.aaaaaa0000000p+0f), __float2half(0.0f))), __float2half(0x1.8000000000000p+2f)));
    } while (++i4 < n5);
  }
  if ((0x10e939beu >> lane) & 1u) {
    int v10 = fz_h2i(__hfma(__ushort_as_half((unsigned short)in[((unsigned)blockIdx.x) & 1023u]), __hmul(__float2half(0x1.3baf500000000p+107f), __int2half_rn((-863889544))), __float2half(0x1.5c73000000000p-130f)));
    long long v11 = __shfl_sync(0x10e939beu, 25ll, 11);
  }
  v2 = (((v2 + v2) - 18072328296827883357ull) >> ((unsigned long long)(((-4ll) | 5530168313735969335ll)) & 63ull));
  v2 = (unsigned long long)(__mul24(v1, v1));
  double a12[4];
  for (unsigned k13 = 0; k13 < 4u; ++k13) {
    a12[k13] = __longlong_as_double((long long)fz_ld64(in, gid * 7u + 655u));
  }
  a12[(__umulhi(fz_bbits(__float2bfloat16(-0x1.fd2de40000000p+107f)), (blockDim.x + (unsigned)blockIdx.x))) & 3u] = ((double)(v1) / rint(__longlong_as_double((long long)fz_ld64(in, gid * 7u + 385u))));
  atomicAdd((unsigned long long*)(out + fz_atom + 12), (unsigned long long)(v2));
  unsigned v14 = __reduce_and_sync(FZ_FULL, in[(gid * 7u + 283u) & 1023u]);
  v14 = (unsigned)(v2);
  int p15 = 0;
  unsigned v16 = __match_all_sync(FZ_FULL, (((true ? max(v14, v14) : (unsigned)blockIdx.x)) & 1), &p15);
  if (false) {
    p15 = __clzll(5ll);
    v3 = (int)((unsigned)((int)fz_signbitf(((float)(v2) + (__uint_as_float(in[(gid * 6u + 784u) & 1023u]) - __uint_as_float(in[(gid * 6u + 957u) & 1023u]))))) * (unsigned)(v1));
    v16 = v16;
    if (true) {
      float v17 = __fdiv_rn(__int2float_rz((int)(true)), __frcp_rn((true ? __uint_as_float(in[(gid * 4u + 498u) & 1023u]) : __uint_as_float(in[(gid * 6u + 176u) & 1023u]))));
      v3 = (int)(64ll);
      v1 = (int)tid;
      unsigned v18 = (unsigned)(unsigned short)(__mul24((fz_inrange_f(v17) ? __float2int_rn(v17) : 0), v3));
    } else {
      v1 = fz_div_i32(v3, __rhadd(__mul24(v1, (~v3)), (int)fz_signbitf((__uint_as_float(in[(gid * 7u + 369u) & 1023u]) * __uint_as_float(in[(gid * 6u + 721u) & 1023u])))));
      switch ((v14) % 6u) { case 2: {
        atomicAdd(&fz_sacc[2], blockDim.x);
        break;
      } case 3: {
        atomicAdd((unsigned long long*)(out + fz_atom + 12), (unsigned long long)((~25ull)));
        break;
      } case 4: {
        unsigned v19 = (v16 - (unsigned)blockIdx.x);
        break;
      } case 5: {
        int v20 = (int)((min(9223372036854775807ll, 25ll) <= 551825332173295853ll));
      } default: {
        atomicOr((unsigned long long*)(out + fz_atom + 14), ((unsigned long long)(false) * 16398560221121332625ull));
      } }
      p15 = (true ? (false ? max((int)(false), (int)in[(gid * 3u + 0u) & 1023u]) : (int)in[(gid * 7u + 884u) & 1023u]) : __popcll(fz_div_u64(v2, 18446744073709551615ull)));
    }
  } else {
    v2 = (((23ull >> ((18446744073709551614ull ^ v2) & 63ull)) & (v2 | 18446744073709551614ull)) & (fz_rem_u64((unsigned long long)(5570049030030897996ll), v2) >> (((v2 - 15305416269438229691ull) & 12ull) & 63ull)));
    atomicAdd(&fz_sacc[0], blockDim.x);
  }
  unsigned v21 = __ballot_sync(FZ_FULL, ((__uint_as_float(in[(gid * 4u + 392u) & 1023u]) + __uint_as_float(in[(gid * 1u + 199u) & 1023u])) != __fsqrt_rn(__uint_as_float(in[(gid * 3u + 742u) & 1023u]))));
  out[gid * FZ_SLOTS + 0u] = (unsigned)(v16);
  out[gid * FZ_SLOTS + 1u] = (unsigned)(v3);
  {
    unsigned long long w22 = (unsigned long long)__double_as_longlong(exp(floor(a12[(v21) & 3u])));
    out[gid * FZ_SLOTS + 2u] = (unsigned)w22;
    out[gid * FZ_SLOTS + 3u] = (unsigned)(w22 >> 32);
  }
  out[gid * FZ_SLOTS + 4u] = (unsigned)(v21);
  out[gid * FZ_SLOTS + 5u] = __float_as_uint(__uint_as_float(in[(gid * 1u + 1021u) & 1023u]));
  __syncthreads();
  if (tid < 8u) atomicAdd(out + fz_atom + 16u + tid, fz_sacc[tid]);
  #undef FZ_SLOTS
}
