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

__device__ __noinline__ unsigned fz3144_rec7(unsigned x, unsigned d) {
  if (d == 0u) return x + 1u;
  unsigned l = fz3144_rec7(x * 5u + d, d - 1u);
  return (d & 1u) ? l ^ (x ^ d) : l + fz3144_rec7(x, d >> 1);
}

__device__ __noinline__ unsigned fz3144_rec9(unsigned x, unsigned d) {
  if (d == 0u) return x + 1u;
  unsigned l = fz3144_rec9(x * 3u + d, d - 1u);
  return (d & 1u) ? l ^ (__brev(x)) : l + fz3144_rec9(x, d >> 1);
}

extern "C" __global__ void __launch_bounds__(64) fz3144(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 8u
  __shared__ unsigned fz_sacc[8];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 64 * FZ_SLOTS;
  if (tid < 8u) fz_sacc[tid] = 0u;
  __syncthreads();
  if (true) {
    if (__hlt(__float2half(0x1.b800000000000p+5f), __float2half(-0x1.0b2f900000000p+16f))) {
      long long v1 = 31ll;
      atomicAdd(out + fz_atom + 3, (((1189650731u & 110246667u) >> ((lane & in[(gid * 6u + 228u) & 1023u]) & 31u)) >> (gid & 31u)));
      int v2 = (int)(min(fz_rem_u32(573778486u, 1019569922u), lane));
    } else {
      float a3[16];
      for (unsigned k4 = 0; k4 < 16u; ++k4) {
        a3[k4] = floorf(__uint_as_float(in[(gid * 2u + 675u) & 1023u]));
      }
      a3[(__umulhi(__usad(blockDim.x, gid, (unsigned)blockIdx.x), tid)) & 15u] = (fmodf(0x1.d555560000000p+3f, a3[(lane) & 15u]) / (__uint_as_float(in[(gid * 6u + 215u) & 1023u]) * __uint_as_float(in[(gid * 6u + 1012u) & 1023u])));
      a3[((gid >> (38u & 31u))) & 15u] = (__uint_as_float(in[(blockDim.x) & 1023u]) + a3[(lane) & 15u]);
      a3[(blockDim.x) & 15u] = a3[(tid) & 15u];
    }
    long long v5 = 64ll;
  } else {
    int v6 = ((int)((__uint_as_float(in[(gid * 6u + 200u) & 1023u]) == __uint_as_float(in[(gid * 7u + 907u) & 1023u]))) & (int)lane - 16);
  }
  unsigned v8 = fz3144_rec7(blockDim.x, (6u) & 7u);
  unsigned v10 = fz3144_rec9((unsigned)(true), ((unsigned)blockIdx.x * 7u) & 7u);
  v8 = ((tid + v8) + fz_bbits(__float2bfloat16(0x1.5800000000000p+4f)));
  double v11 = __shfl_sync(FZ_FULL, __longlong_as_double((long long)fz_ld64(in, gid * 4u + 783u)), 7);
  switch (((max(v10, v8) + v10)) % 10u) { case 1: {
    unsigned v12 = (unsigned)(true);
    for (int i13 = 0; i13 < 1; ++i13) {
      atomicAdd((double*)(out + fz_atom + 10), (double)((int)((~in[(gid * 2u + 866u) & 1023u]) & 255u) - 100));
      atomicAdd(&fz_sacc[1], (lane * v10));
      v10 = ((2147483648u | (unsigned)blockIdx.x) ^ (unsigned)(((-899995166135236767ll) & (long long)fz_f2i(__uint_as_float(in[(gid * 2u + 618u) & 1023u])) * 3ll)));
      v8 = __vmaxu4(v8, __funnelshift_r((unsigned)(9223372036854775807ull), in[(v10) & 1023u], min((true ? gid : v8), v8)));
    }
    break;
  } case 2: {
    atomicAdd(&fz_sacc[0], v8);
    float a14[8];
    for (unsigned k15 = 0; k15 < 8u; ++k15) {
      a14[k15] = __uint_as_float(in[(gid * 7u + 943u) & 1023u]);
    }
    a14[((unsigned)((int)tid)) & 7u] = __fmul_rn(a14[(v8) & 7u], a14[(v10) & 7u]);
    break;
  } case 3: {
    if (false) {
      int v16 = (int)tid;
      __half v17 = (false ? (true ? __hmax(__float2half(0x1.9000000000000p+4f), __hmul(__float2half(0x1.ad7f2a0000000p-24f), __float2half(-0x1.0000000000000p+0f))) : __hadd(__hmul(__float2half(-0x1.8000000000000p+1f), __float2half(-0x1.a000000000000p+1f)), __float2half(-0x1.6000000000000p+4f))) : __float2half(-0x1.2adad20000000p+112f));
      int v18 = __mulhi(((int)((unsigned)(v16) - (unsigned)((int)tid)) ^ (int)((unsigned)(v16) << (v10 & 31u))), __popcll(13436523025910942642ull));
    }
    int v19 = fz_f2i(__bfloat162float(__float2bfloat16(0x1.7800000000000p+3f)));
  } case 4: {
    double a20[16];
    for (unsigned k21 = 0; k21 < 16u; ++k21) {
      a20[k21] = v11;
    }
    a20[((v8 * tid)) & 15u] = a20[(in[(gid * 1u + 329u) & 1023u]) & 15u];
    a20[((unsigned)blockIdx.x) & 15u] = v11;
    a20[(min(v8, 20u)) & 15u] = (double)(0x1.ffc0000000000p+15f);
    __half v22 = __ushort_as_half((unsigned short)in[(fz_div_u32(in[(gid * 1u + 172u) & 1023u], lane)) & 1023u]);
    break;
  } case 5: {
    for (int i23 = 0; i23 < 6; ++i23) {
      v11 = fmin((__longlong_as_double((long long)fz_ld64(in, gid * 2u + 723u)) * fmod(v11, __longlong_as_double((long long)fz_ld64(in, gid * 5u + 230u)))), v11);
      v11 = fmod(v11, trunc(fz_ceil(__longlong_as_double((long long)fz_ld64(in, gid * 2u + 213u)))));
      v11 = (fz_copysign(v11, 0x1.0613e93f20468p+61) * (__longlong_as_double((long long)fz_ld64(in, gid * 1u + 365u)) + (v11 + __longlong_as_double((long long)fz_ld64(in, gid * 7u + 401u)))));
    }
    break;
  } case 6: {
    unsigned v24 = (v10 >> (max(min(v8, v8), v8) & 31u));
    break;
  } case 8: {
    unsigned n26 = (tid) & 7u;
    for (unsigned i25 = 0; i25 < n26; ++i25) {
      __half v27 = __ushort_as_half((unsigned short)in[((true ? (unsigned)fz_d2ll((v11 - v11)) : ((3017525731u << (i25 & 31u)) + lane))) & 1023u]);
      v11 = v11;
      __half v28 = __hmin((v27 + __hmin(v27, v27)), __float2half(-0.0f));
    }
    v10 = fz_bbits(__float2bfloat16(-0x1.4000000000000p+3f));
  } case 9: {
    __nv_bfloat16 v29 = __float2bfloat16(-0x1.e800000000000p+3f);
  } default: {
    v11 = ((__longlong_as_double((long long)fz_ld64(in, gid * 3u + 75u)) * (true ? (double)(__uint_as_float(in[(gid * 1u + 676u) & 1023u])) : v11)) + fabs(0x1.f800000000000p+5));
  } }
  int v30 = __any_sync(FZ_FULL, (((in[(gid * 1u + 536u) & 1023u] + lane) & ((in[(gid * 2u + 187u) & 1023u] & 1321505918u) & (unsigned)(true))) != 0u));
  float v31 = __shfl_down_sync(FZ_FULL, __uint_as_float(in[(gid * 7u + 191u) & 1023u]), 3u, 8);
  if ((0x64eb659bu >> lane) & 1u) {
    v8 = (((unsigned)((~2836453974050435143ll)) & (unsigned)fz_d2ll(__longlong_as_double((long long)fz_ld64(in, gid * 1u + 152u)))) | blockDim.x);
    v31 = fmodf(v31, (v31 / v31));
    unsigned n33 = ((v8 + (unsigned)blockIdx.x)) & 7u;
    for (unsigned i32 = 0; i32 < n33; ++i32) {
      float v34 = __half2float(__hadd(__float2half(-0x1.c000000000000p+1f), __hneg(__float2half(0x1.b000000000000p+1f))));
      v11 = fz_copysign((__longlong_as_double((long long)fz_ld64(in, (unsigned)blockIdx.x)) + ((-0x1.4f679746f73cfp+25) - v11)), (round(v11) + (v11 - (true ? __longlong_as_double((long long)fz_ld64(in, gid * 6u + 865u)) : __longlong_as_double((long long)fz_ld64(in, gid * 2u + 922u))))));
    }
    unsigned n36 = ((__urhadd(in[(gid * 2u + 534u) & 1023u], v8) ^ v10)) & 7u;
    unsigned i35 = 0; do {
      v30 = fz_div_i32((int)(16691079173943710626ull), fz_rem_i32((fz_inrange_f((float)(__longlong_as_double((long long)fz_ld64(in, gid * 3u + 345u)))) ? __float2int_rn((float)(__longlong_as_double((long long)fz_ld64(in, gid * 3u + 345u)))) : 0), (int)tid));
      switch ((i35) % 10u) { case 0: {
        unsigned long long a37[16];
        for (unsigned k38 = 0; k38 < 16u; ++k38) {
          a37[k38] = 6ull;
        }
        a37[(gid) & 15u] = a37[(v10) & 15u];
        a37[(i35) & 15u] = a37[(i35) & 15u];
        a37[((i35 * v8)) & 15u] = min(3830417571570333514ull, ((a37[(v10) & 15u] ^ 14ull) | a37[(v8) & 15u]));
        int v39 = min(__sad(v30, (int)((unsigned)(256) + (unsigned)(v30)), (blockDim.x + v8)), min(__clz(v30), (int)gid));
        break;
      } case 1: {
        v11 = 0x1.3aaaaaaaaaaabp+4;
        if (true) {
          continue;
        }
        break;
      } case 2: {
        unsigned v40 = fz_div_u32(in[(gid * 3u + 164u) & 1023u], v8);
        break;
      } case 4: {
        atomicAdd((unsigned long long*)(out + fz_atom + 12), (unsigned long long)((~15ull)));
        __half v41 = __float2half(-0x1.6000000000000p+0f);
        break;
      } case 5: {
        v31 = v31;
        v10 = (unsigned)(isnan((double)((int)tid)));
      } case 7: {
        v11 = fma(((fmin(__longlong_as_double((long long)fz_ld64(in, gid * 4u + 580u)), v11) / __longlong_as_double((long long)fz_ld64(in, gid * 3u + 416u))) * (round(__longlong_as_double((long long)fz_ld64(in, gid * 4u + 549u))) + v11)), (v11 + (v11 + v11)), (v11 / __longlong_as_double((long long)fz_ld64(in, gid * 6u + 748u))));
        long long v42 = 63ll;
        break;
      } case 8: {
        unsigned v43 = (gid * in[(v10) & 1023u]);
        break;
      } case 9: {
        int v44 = __clz((int)((unsigned)((int)isinf(v11)) * (unsigned)(__clz((int)in[(gid * 4u + 71u) & 1023u]))));
        __half v45 = __hsub(__hmin(__float2half(0x1.c363cc0000000p+127f), __float2half(-0x1.96b1420000000p-34f)), __hmul(__hfma(__float2half(0x1.5c73000000000p-130f), __float2half(0x1.0000000000000p-1f), __float2half_rz(v31)), __float2half(-0.0f)));
        break;
      } default: {
        v11 = (v11 * ((v11 * __longlong_as_double((long long)fz_ld64(in, gid * 3u + 550u))) * v11));
      } }
      v11 = fmod(__drcp_rn(fabs(v11)), ((ldexp(0x1.53e2ffd89d40ap-9, (int)(i35 & 127u) - 64) * v11) / (double)(65535ull)));
    } while (++i35 < n36);
    unsigned v46 = __match_any_sync(0x64eb659bu, v30);
  }
  unsigned long long a47[8];
  for (unsigned k48 = 0; k48 < 8u; ++k48) {
    a47[k48] = 39ull;
  }
  a47[((v10 ^ v10)) & 7u] = a47[(v8) & 7u];
  v8 = (unsigned)((19ull + a47[(in[(gid * 1u + 780u) & 1023u]) & 7u]));
  v11 = (0x1.8b53b3d6f436dp-40 * (__longlong_as_double((long long)fz_ld64(in, gid * 1u + 258u)) - rint(v11)));
  __nv_bfloat16 v49 = __hmin(__hfma(__float2bfloat16(0x1.4800000000000p+3f), __ushort_as_bfloat16((unsigned short)in[(((unsigned)blockIdx.x | v8)) & 1023u]), __hmul(__float2bfloat16(0x1.2d863e0000000p+36f), __float2bfloat16(0x1.d000000000000p+3f))), __float2bfloat16(-0x1.5000000000000p+4f));
  out[gid * FZ_SLOTS + 0u] = __float_as_uint(v31);
  {
    unsigned long long w50 = (unsigned long long)__double_as_longlong(v11);
    out[gid * FZ_SLOTS + 1u] = (unsigned)w50;
    out[gid * FZ_SLOTS + 2u] = (unsigned)(w50 >> 32);
  }
  out[gid * FZ_SLOTS + 3u] = (unsigned)(v8);
  {
    unsigned long long w51 = (unsigned long long)__double_as_longlong(v11);
    out[gid * FZ_SLOTS + 4u] = (unsigned)w51;
    out[gid * FZ_SLOTS + 5u] = (unsigned)(w51 >> 32);
  }
  out[gid * FZ_SLOTS + 6u] = (unsigned)__bfloat16_as_ushort(v49);
  out[gid * FZ_SLOTS + 7u] = (unsigned)__bfloat16_as_ushort(v49);
  __syncthreads();
  if (tid < 8u) atomicAdd(out + fz_atom + 16u + tid, fz_sacc[tid]);
  #undef FZ_SLOTS
}
