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

extern "C" __global__ void __launch_bounds__(96) fz2262(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 6u
  __shared__ unsigned long long sh18[96];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 96 * FZ_SLOTS;
  long long v1 = fz_d2ll(__longlong_as_double((long long)fz_ld64(in, gid * 7u + 453u)));
  unsigned long long v2 = __umul64hi(fz_ld64(in, (~(unsigned)blockIdx.x)), (9172566137727540315ull * 9223372036854775808ull));
  unsigned v3 = __reduce_xor_sync(FZ_FULL, in[(gid * 6u + 323u) & 1023u]);
  unsigned n5 = ((unsigned)(__rhadd((int)in[(gid * 3u + 152u) & 1023u], (int)gid))) & 7u;
  for (unsigned i4 = 0; i4 < n5; ++i4) {
    v2 = __brevll(fz_ld64(in, min(v3, v3)));
    unsigned n7 = ((unsigned)(false)) & 7u;
    unsigned i6 = 0; do {
      if (((v1 & 2979670912919272332ll) != 7007936735908037764ll)) {
        __half a8[16];
        for (unsigned k9 = 0; k9 < 16u; ++k9) {
          a8[k9] = (__hsub(__float2half(0x1.0000000000000p+0f), __float2half(0x1.8000000000000p+4f)) * __float2half_rz(__uint_as_float(in[(gid * 1u + 555u) & 1023u])));
        }
        a8[(i6) & 15u] = __float2half(0x1.5c73000000000p-130f);
      }
      if (false) {
        v2 = (max(min((v2 + 255ull), 5145544917077656470ull), (7ull ^ v2)) & 7222579111114066424ull);
        v3 = ((in[(gid * 3u + 491u) & 1023u] * i6) + blockDim.x);
        double v10 = __longlong_as_double((long long)fz_ld64(in, gid * 7u + 296u));
      }
    } while (++i6 < n7);
    v1 = ((long long)((unsigned long long)(22ll) + (unsigned long long)(23ll)) | fz_d2ll(__longlong_as_double((long long)fz_ld64(in, gid * 4u + 903u))));
    float v11 = __fadd_rn((__bfloat162float(__hsub(__float2bfloat16(-0x1.9000000000000p+4f), __float2bfloat16(-0x1.b000000000000p+2f))) - __uint_as_float(in[(gid * 6u + 335u) & 1023u])), (float)(v2));
  }
  int a12[4];
  for (unsigned k13 = 0; k13 < 4u; ++k13) {
    a12[k13] = (int)lane - 16;
  }
  a12[(in[(__funnelshift_r(tid, gid, v3)) & 1023u]) & 3u] = a12[(v3) & 3u];
  a12[((unsigned)blockIdx.x) & 3u] = a12[(v3) & 3u];
  if (true) {
    v2 = v2;
  }
  for (int i14 = 0; i14 < 2; ++i14) {
    v1 = (long long)(i14);
    v3 = (~((~v3) * lane));
    v1 = v1;
    if (__hgt(__float2bfloat16(-0x1.298d1e0000000p+26f), __hmin(__float2bfloat16(__uint_as_float(in[(gid * 3u + 222u) & 1023u])), __float2bfloat16(-0x1.6800000000000p+3f)))) {
      v3 = (unsigned)(i14);
      if (false) {
        __half v15 = __hmax(__float2half(0x1.0000000000000p-1f), __hmul(__float2half(0x1.c000000000000p+1f), __float2half(0x1.3800000000000p+5f)));
        __nv_bfloat16 v16 = __float2bfloat16(__uint_as_float(in[(gid * 1u + 270u) & 1023u]));
        v2 = (max(10519006316728741576ull, 10759646656135886166ull) - (16ull ^ fz_ld64(in, (unsigned)(v2))));
        v1 = (long long)((unsigned long long)(32ll) + (unsigned long long)((long long)(v3)));
      } else {
        v1 = ((long long)((unsigned long long)(3864111840720062036ll) - (unsigned long long)(v1)) ^ min((long long)((unsigned long long)(3ll) + (unsigned long long)(9223372036854775807ll)), v1));
        v2 = (false ? (v2 & 31ull) : v2);
      }
      __half v17 = __float2half(0x1.0000000000000p+3f);
    }
  }
  sh18[tid] = v2;
  __syncthreads();
  unsigned long long v19 = sh18[1u];
  __syncthreads();
  double v20 = __longlong_as_double((long long)fz_ld64(in, gid * 4u + 552u));
  double v21 = __shfl_sync(FZ_FULL, (-0x1.7000000000000p+5), (int)((v3) & 63u), 8);
  atomicAdd(out + fz_atom + 2, in[(gid * 6u + 719u) & 1023u]);
  if ((0x0f0f0f0fu >> lane) & 1u) {
    v20 = __longlong_as_double((long long)fz_ld64(in, gid * 6u + 876u));
    unsigned n23 = (gid) & 7u;
    for (unsigned i22 = 0; i22 < n23; ++i22) {
      v19 = v19;
      switch ((((v3 >> (blockDim.x & 31u)) * v3)) % 10u) { case 1: {
        v1 = 16ll;
        break;
      } case 2: {
        v21 = ((double)(__umulhi(lane, (blockDim.x * v3))) / (__longlong_as_double((long long)fz_ld64(in, gid * 4u + 757u)) + __longlong_as_double((long long)fz_ld64(in, gid * 7u + 714u))));
        break;
      } case 3: {
        v3 = fz_hbits(__float2half(0.0f));
        v1 = fz_div_i64((9223372036854775807ll | (long long)((unsigned long long)(9223372036854775807ll) - (unsigned long long)(v1))), 64ll);
        break;
      } case 4: {
        v2 = (unsigned long long)((6550924128767281233ll != v1));
      } case 6: {
        float v24 = __half2float(__float2half(0x1.1217840000000p-17f));
        break;
      } case 7: {
        unsigned v25 = (blockDim.x - lane);
        unsigned v26 = ((unsigned)blockIdx.x + i22);
        break;
      } case 8: {
        double a27[4];
        for (unsigned k28 = 0; k28 < 4u; ++k28) {
          a27[k28] = __dadd_rn(fma(v20, __longlong_as_double((long long)fz_ld64(in, gid * 3u + 615u)), __longlong_as_double((long long)fz_ld64(in, gid * 5u + 429u))), v20);
        }
        a27[((tid & i22)) & 3u] = (a27[(v3) & 3u] * v21);
        a27[(v3) & 3u] = (-0x1.0000000000000p+3);
        break;
      } case 9: {
        v20 = v20;
        break;
      } default: {
        unsigned long long v29 = 255ull;
      } }
      int v30 = (int)(15ll);
    }
    unsigned a31[4];
    for (unsigned k32 = 0; k32 < 4u; ++k32) {
      a31[k32] = k32;
    }
    a31[(in[(gid * 6u + 268u) & 1023u]) & 3u] = v3;
    a31[(a31[(v3) & 3u]) & 3u] = (v3 >> (a31[(blockDim.x) & 3u] & 31u));
    a31[(a31[(v3) & 3u]) & 3u] = 33u;
    for (int i33 = 0; i33 < 6; ++i33) {
      int v34 = (i33 & i33);
      for (int i35 = 0; i35 < 4; ++i35) {
        v1 = 2396805120750087136ll;
        int v36 = v34;
        atomicAdd((double*)(out + fz_atom + 14), (double)((int)(in[(gid * 3u + 445u) & 1023u] & 255u) - 100));
        __half v37 = __hmax(__hmul_sat((__hmul(__float2half(0x1.a000000000000p+3f), __float2half(0x1.b800000000000p+3f)) + __float2half(-0x1.f000000000000p+3f)), __float2half(-0x1.c000000000000p+2f)), __float2half(-0.0f));
      }
      v1 = v1;
    }
    unsigned v38 = __ballot_sync(0x0f0f0f0fu, (a12[(v3) & 3u] < a12[(v3) & 3u]));
  }
  v21 = (__heq(__hmul(__float2bfloat16(0x1.15e3320000000p-80f), __hmin(__float2bfloat16(-0x1.1096560000000p+68f), __float2bfloat16(0x1.83ddf40000000p+11f))), __float2bfloat16(0x1.c363cc0000000p+127f)) ? ((__longlong_as_double((long long)fz_ld64(in, gid * 7u + 694u)) + __longlong_as_double((long long)fz_ld64(in, gid * 4u + 685u))) * (__longlong_as_double((long long)fz_ld64(in, gid * 5u + 595u)) + v20)) : (true ? v20 : v21));
  int v39 = __reduce_min_sync(FZ_FULL, (int)((unsigned)(__popcll(v19)) + (unsigned)((int)isnan(__uint_as_float(in[(gid * 2u + 399u) & 1023u])))));
  {
    unsigned long long w40 = (unsigned long long)(v1);
    out[gid * FZ_SLOTS + 0u] = (unsigned)w40;
    out[gid * FZ_SLOTS + 1u] = (unsigned)(w40 >> 32);
  }
  {
    unsigned long long w41 = (unsigned long long)__double_as_longlong(v20);
    out[gid * FZ_SLOTS + 2u] = (unsigned)w41;
    out[gid * FZ_SLOTS + 3u] = (unsigned)(w41 >> 32);
  }
  out[gid * FZ_SLOTS + 4u] = (unsigned)(v3);
  out[gid * FZ_SLOTS + 5u] = __float_as_uint(expf(__uint_as_float(in[(gid * 6u + 821u) & 1023u])));
  #undef FZ_SLOTS
}
