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

__device__ __noinline__ unsigned fz137_rec4(unsigned x, unsigned d) {
  if (d == 0u) return x + 1u;
  unsigned l = fz137_rec4(x * 0x9e37u + d, d - 1u);
  return (d & 1u) ? l ^ (x * d) : l + fz137_rec4(x, d >> 1);
}

__device__ __noinline__ unsigned fz137_rec31(unsigned x, unsigned d) {
  if (d == 0u) return x + 1u;
  unsigned l = fz137_rec31(x * 7u + d, d - 1u);
  return (d & 1u) ? l ^ (x >> 1) : l + fz137_rec31(x, d >> 1);
}

extern "C" __global__ void __launch_bounds__(32) fz137(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 8u
  __shared__ __half sh27[32];
  __shared__ unsigned fz_sacc[8];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 96 * FZ_SLOTS;
  if (tid < 8u) fz_sacc[tid] = 0u;
  __syncthreads();
  unsigned n2 = (tid) & 7u;
  unsigned i1 = 0; do {
    float v3 = __uint_as_float(in[(gid * 5u + 52u) & 1023u]);
    unsigned v5 = fz137_rec4(i1, ((unsigned)blockIdx.x * 2u) & 7u);
    __half a6[16];
    for (unsigned k7 = 0; k7 < 16u; ++k7) {
      a6[k7] = __hadd(__float2half(-0x1.c571580000000p+105f), __float2half(-0x1.8000000000000p+1f));
    }
    a6[((v5 ^ i1)) & 15u] = __hadd_sat(__int2half_rn((int)gid), __float2half((-0x1.44f5e00000000p-56f)));
    a6[(2147483647u) & 15u] = __float2half(fminf((-0x1.6000000000000p+2f), v3));
    if ((0x1.6aaaaa0000000p+2f < ((float)((int)in[(gid * 2u + 7u) & 1023u]) * __uint_as_float(in[(gid * 4u + 205u) & 1023u])))) {
      v5 = ((fz_rem_u32(in[(gid * 2u + 455u) & 1023u], lane) & i1) >> (__vadd4(v5, i1) & 31u));
      int v8 = (int)tid;
      switch ((v5) % 6u) { case 0: {
        v8 = __popc(((v5 >> (v5 & 31u)) + v5));
        break;
      } case 2: {
        __nv_bfloat16 v9 = __hadd(__float2bfloat16(-0x1.b800000000000p+4f), __habs(__hadd(__float2bfloat16(__uint_as_float(in[(gid * 6u + 892u) & 1023u])), __float2bfloat16(0x1.12487c0000000p+115f))));
        v9 = __hmul((((v5 & (unsigned)(unsigned char)(lane)) != 0u) ? __float2bfloat16(0x1.ddd8ec0000000p-31f) : __int2bfloat16_rn(v8)), __hmul(__float2bfloat16(0x1.7bb1de0000000p-30f), v9));
        break;
      } case 3: {
        if (((__half2float(__float2half(0x1.2947ae0000000p+31f)) - v3) <= ((v5 != v5) ? __uint_as_float(in[(gid * 4u + 54u) & 1023u]) : __fsqrt_rn(v3)))) {
          continue;
        }
        break;
      } case 4: {
        v3 = ((__uint_as_float(in[(gid * 3u + 646u) & 1023u]) + (v3 - __uint_as_float(in[(gid * 2u + 508u) & 1023u]))) * fminf(v3, v3));
        break;
      } default: {
        atomicAdd(&fz_sacc[4], (lane ^ (i1 & i1)));
      } }
      __nv_bfloat16 v10 = __float2bfloat16(__uint_as_float(in[(2200871130u) & 1023u]));
    }
  } while (++i1 < n2);
  if (__hlt(__hmul(__float2half(-0x1.4000000000000p+2f), __ushort_as_half((unsigned short)in[((unsigned)blockIdx.x) & 1023u])), __float2half(-0x1.c36ee40000000p-71f))) {
    float v11 = rintf(remainderf(__uint_as_float(in[(gid * 7u + 937u) & 1023u]), __uint_as_float(in[(gid * 1u + 894u) & 1023u])));
    if (((unsigned)(unsigned short)((int)fz_signbitf(__uint_as_float(in[(gid * 6u + 936u) & 1023u]))) < lane)) {
      atomicAdd(&fz_sacc[0], lane);
    } else {
      unsigned long long a12[16];
      for (unsigned k13 = 0; k13 < 16u; ++k13) {
        a12[k13] = 37ull;
      }
      a12[((tid >> ((gid + (unsigned)blockIdx.x) & 31u))) & 15u] = (a12[(gid) & 15u] ^ a12[(gid) & 15u]);
      v11 = fminf(__uint_as_float(in[(gid * 7u + 359u) & 1023u]), v11);
    }
  }
  __half v14 = __ushort_as_half((unsigned short)in[(fz_bbits(__float2bfloat16(0x1.2528ce0000000p-7f))) & 1023u]);
  if (((int)((unsigned)((int)gid) - (unsigned)((int)tid)) == ((int)((unsigned)((int)tid) << (805787266u & 31u)) >> (tid & 31u)))) {
    float a15[16];
    for (unsigned k16 = 0; k16 < 16u; ++k16) {
      a15[k16] = (float)(gid);
    }
    a15[((__vcmpeq4(gid, tid) & gid)) & 15u] = __fadd_rn(__uint_as_float(in[(gid * 3u + 79u) & 1023u]), a15[(tid) & 15u]);
    a15[(gid) & 15u] = a15[(14u) & 15u];
    __half v17 = __hadd(__hmax(__hneg(__int2half_rn((int)gid)), __hmin(v14, __float2half(-0.0f))), __ushort_as_half((unsigned short)in[((blockDim.x << (blockDim.x & 31u))) & 1023u]));
    if ((lane < 10u)) {
      int v18 = (int)lane - 16;
      unsigned n20 = (blockDim.x) & 7u;
      for (unsigned i19 = 0; i19 < n20; ++i19) {
        unsigned long long v21 = (unsigned long long)(v18);
        unsigned long long v22 = (1993208623678038789ull + 2ull);
        v17 = __float2half(__uint_as_float(in[(gid * 6u + 873u) & 1023u]));
      }
      int v23 = __mulhi((~fz_div_i32(v18, (int)in[(gid * 7u + 701u) & 1023u])), ((int)in[(gid * 3u + 225u) & 1023u] >> (__funnelshift_l((tid << ((unsigned)blockIdx.x & 31u)), lane, in[(gid * 7u + 231u) & 1023u]) & 31u)));
    } else {
      if ((lane > 11u)) {
        v17 = __hadd(__hmin(v14, __hadd(__hsub(__float2half(0x1.a1e1300000000p-41f), __float2half(0x1.7000000000000p+3f)), v14)), __float2half(0x1.c000000000000p+4f));
        v17 = __hsub((false ? __hmul(__float2half(-0x1.deaa440000000p+37f), __hmul(v14, __float2half(-0x1.c000000000000p+1f))) : __float2half(0x1.5c73000000000p-130f)), __hadd(__float2half(0x1.0aaaaa0000000p+4f), __float2half(-0x1.4000000000000p+3f)));
        v17 = __float2half_rz((0x1.e000000000000p+2f + (a15[(in[(gid * 1u + 352u) & 1023u]) & 15u] - (a15[(tid) & 15u] + __uint_as_float(in[(gid * 5u + 237u) & 1023u])))));
        v17 = __hsub(v14, __hmin(v17, __hadd(__hmul(__float2half(0x1.5c6d2a0000000p-42f), v17), __float2half(-0x1.7000000000000p+4f))));
      } else {
        float v24 = a15[(tid) & 15u];
        float v25 = ldexpf(((__uint_as_float(in[(gid * 1u + 843u) & 1023u]) - __uint_as_float(in[(in[(gid * 7u + 129u) & 1023u]) & 1023u])) + v24), (int)(fz_hbits(__hmin(__hadd(v17, v14), v17)) & 63u) - 32);
      }
    }
    atomicOr((unsigned long long*)(out + fz_atom + 10), 14144480513564577817ull);
  }
  atomicMax(out + fz_atom + 7, fz_div_u32(fz_div_u32(in[(gid * 1u + 228u) & 1023u], blockDim.x), tid));
  int v26 = (~min((int)lane - 16, (int)lane - 16));
  sh27[tid] = __hadd_sat(__float2half(0x1.6800000000000p+4f), __float2half(0x1.7000000000000p+2f));
  __syncthreads();
  __half v28 = sh27[(tid ^ 16u) % 32u];
  __syncthreads();
  unsigned a29[16];
  for (unsigned k30 = 0; k30 < 16u; ++k30) {
    a29[k30] = k30;
  }
  a29[(a29[(a29[(a29[(blockDim.x) & 15u]) & 15u]) & 15u]) & 15u] = (in[(a29[(a29[(gid) & 15u]) & 15u]) & 1023u] + (in[(a29[(a29[(a29[(a29[(in[(gid * 1u + 804u) & 1023u]) & 15u]) & 15u]) & 15u]) & 15u]) & 1023u] + max(29u, a29[(lane) & 15u])));
  a29[(in[(gid * 7u + 814u) & 1023u]) & 15u] = a29[(tid) & 15u];
  if ((0x9b448a3eu >> lane) & 1u) {
    v26 = fz_d2i(fabs((false ? __longlong_as_double((long long)fz_ld64(in, gid * 3u + 84u)) : (false ? __longlong_as_double((long long)fz_ld64(in, gid * 3u + 730u)) : __longlong_as_double((long long)fz_ld64(in, gid * 2u + 985u))))));
    unsigned v32 = fz137_rec31((a29[(a29[(a29[(a29[(lane) & 15u]) & 15u]) & 15u]) & 15u] + __vcmpeq4(in[(gid * 2u + 991u) & 1023u], gid)), (5u) & 7u);
    unsigned v33 = __match_any_sync(0x9b448a3eu, v32);
  }
  atomicAdd(&fz_sacc[7], a29[(lane) & 15u]);
  {
    unsigned long long w34 = (unsigned long long)__double_as_longlong(log((__longlong_as_double((long long)fz_ld64(in, gid * 2u + 988u)) * __longlong_as_double((long long)fz_ld64(in, gid * 1u + 722u)))));
    out[gid * FZ_SLOTS + 0u] = (unsigned)w34;
    out[gid * FZ_SLOTS + 1u] = (unsigned)(w34 >> 32);
  }
  out[gid * FZ_SLOTS + 2u] = (unsigned)(v26);
  out[gid * FZ_SLOTS + 3u] = __float_as_uint(exp10f(__uint_as_float(in[(gid * 3u + 185u) & 1023u])));
  {
    unsigned long long w35 = (unsigned long long)__double_as_longlong(cos(((-0x1.2aaaaaaaaaaabp+4) + __longlong_as_double((long long)fz_ld64(in, gid * 7u + 282u)))));
    out[gid * FZ_SLOTS + 4u] = (unsigned)w35;
    out[gid * FZ_SLOTS + 5u] = (unsigned)(w35 >> 32);
  }
  {
    unsigned long long w36 = (unsigned long long)__double_as_longlong(log2((-__longlong_as_double((long long)fz_ld64(in, gid * 7u + 27u)))));
    out[gid * FZ_SLOTS + 6u] = (unsigned)w36;
    out[gid * FZ_SLOTS + 7u] = (unsigned)(w36 >> 32);
  }
  __syncthreads();
  if (tid < 8u) atomicAdd(out + fz_atom + 16u + tid, fz_sacc[tid]);
  #undef FZ_SLOTS
}
