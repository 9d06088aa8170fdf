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

__device__ __noinline__ unsigned fz1763_rec8(unsigned x, unsigned d) {
  if (d == 0u) return x + 1u;
  unsigned l = fz1763_rec8(x * 5u + d, d - 1u);
  return (d & 1u) ? l ^ (x >> 1) : l + fz1763_rec8(x, d >> 1);
}

extern "C" __global__ void __launch_bounds__(64) fz1763(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 4u
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 64 * FZ_SLOTS;
  if (true) {
    atomicDec(out + fz_atom + 6, 29u);
    int v1 = __mul24(19, (int)((long long)(__heq(__float2bfloat16(0x1.2b00fc0000000p-64f), __float2bfloat16(0x1.2000000000000p+3f)))));
  }
  double v2 = (double)((__uint_as_float(in[(gid * 7u + 131u) & 1023u]) + __uint_as_float(in[(gid * 1u + 36u) & 1023u])));
  unsigned v3 = fz_div_u32((unsigned)(6ull), (~gid));
  v2 = ((double)(__bfloat162float(__hfma(__float2bfloat16(-0x1.c000000000000p+3f), __float2bfloat16(-0x1.2000000000000p+2f), __float2bfloat16(-0x1.c3e2600000000p+111f)))) + (v2 - (__longlong_as_double((long long)fz_ld64(in, gid * 4u + 659u)) + v2)));
  for (int i4 = 0; i4 < 3; ++i4) {
    if ((lane > 24u)) {
      if ((lane > 13u)) {
        v3 = in[((max(v3, in[(gid * 1u + 386u) & 1023u]) - v3)) & 1023u];
        __half v5 = ((0x1.c000000000000p+3f < __uint_as_float(in[(gid * 5u + 792u) & 1023u])) ? __hmax(__float2half(-0x1.9000000000000p+2f), __float2half(0x1.6800000000000p+3f)) : __hsub(__float2half(0x1.f000000000000p+5f), __hmul(__float2half(0x1.b800000000000p+2f), __float2half(-0x1.d800000000000p+5f))));
      }
      v2 = sqrt((fmod(v2, v2) + (-0x1.0000000000000p+0)));
    } else {
      unsigned v6 = fz_hbits(__hfma((__hmul(__float2half(0x1.0e88380000000p+32f), __float2half(0x1.d000000000000p+2f)) + __hneg(__float2half(0x1.c363cc0000000p+127f))), __float2half(-0x1.0111e80000000p+33f), (__float2half(0x1.ad7f2a0000000p-24f) * __int2half_rn((int)gid))));
      v2 = (double)(9312389792822795263ull);
    }
    int v7 = (int)in[(gid * 4u + 196u) & 1023u];
    unsigned v9 = fz1763_rec8(__funnelshift_r(v3, v3, v3), ((unsigned)blockIdx.x + 3u) & 7u);
    if ((__uint_as_float(in[(gid * 3u + 278u) & 1023u]) <= (__uint_as_float(in[(gid * 1u + 336u) & 1023u]) - __uint_as_float(in[(gid * 2u + 770u) & 1023u])))) {
      v3 = (v9 + __vabsdiffu4(fz_rem_u32((false ? v9 : 32u), v9), __vadd4((37u | v9), __funnelshift_r(v3, v3, (unsigned)blockIdx.x))));
      v9 = __brev(lane);
      v9 = blockDim.x;
      unsigned v10 = __vadd4((lane >> (blockDim.x & 31u)), (unsigned)(unsigned short)(i4));
    }
  }
  double v11 = rint(__longlong_as_double((long long)fz_ld64(in, gid * 2u + 105u)));
  float v12 = (false ? __fmul_rn((float)(fz_div_u64(7938984988301768123ull, 17604606780495398014ull)), (float)(6899845529001902019ll)) : __uint_as_float(in[(gid * 1u + 515u) & 1023u]));
  switch ((min(tid, v3)) % 5u) { case 0: {
    v12 = __fmul_rn(__fadd_rn(__uint_as_float(in[(gid * 5u + 403u) & 1023u]), v12), (float)(v2));
    break;
  } case 2: {
    v3 = (v3 ^ fz_bbits(__float2bfloat16(-0x1.1e89ac0000000p-15f)));
    switch ((__vcmpeq4(v3, (unsigned)(false))) % 6u) { case 0: {
      v2 = v2;
      double v13 = (v2 + __longlong_as_double((long long)fz_ld64(in, gid * 5u + 734u)));
    } case 2: {
      unsigned v14 = (v3 + (((unsigned)(false) * (v3 ^ v3)) >> (((unsigned)((-4001356210863934268ll)) | tid) & 31u)));
      break;
    } case 3: {
      long long v15 = (false ? (long long)((unsigned long long)((long long)(false)) + (unsigned long long)(7854172822725420048ll)) : 4578625179076798842ll);
      v15 = (long long)((unsigned long long)(v15) - (unsigned long long)((long long)((18446744073709551610ull + (5090362978488165498ull - 7ull)))));
      break;
    } case 4: {
      float v16 = __uint_as_float(in[(6u) & 1023u]);
      long long v17 = 8430904193417400870ll;
    } default: {
      atomicDec(out + fz_atom + 6, 29u);
    } }
    break;
  } case 4: {
    unsigned long long v18 = 18446744073709551614ull;
    double v19 = fz_copysign(fz_copysign((__longlong_as_double((long long)fz_ld64(in, gid * 5u + 90u)) * (v2 - v11)), __longlong_as_double((long long)fz_ld64(in, gid * 6u + 395u))), (-trunc(0x1.7e43c8800759cp+996)));
    break;
  } default: {
    unsigned n21 = ((unsigned)(fz_div_u64(5888494051028628111ull, 842200496787474265ull))) & 7u;
    for (unsigned i20 = 0; i20 < n21; ++i20) {
      v2 = round(trunc(__longlong_as_double((long long)fz_ld64(in, gid * 6u + 259u))));
      unsigned v22 = v3;
      v11 = (v11 + __longlong_as_double((long long)fz_ld64(in, v3)));
    }
  } }
  unsigned v23 = __uhadd(((__funnelshift_rc(v3, v3, v3) & ((unsigned)blockIdx.x * v3)) & in[(gid * 7u + 380u) & 1023u]), (v3 ^ v3));
  atomicMin((int*)(out + fz_atom + 0), (int)(v3 | 0x80000000u));
  v2 = v2;
  int p24 = 0;
  unsigned v25 = __match_all_sync(FZ_FULL, ((gid) & 1), &p24);
  out[gid * FZ_SLOTS + 0u] = __float_as_uint(v12);
  {
    unsigned long long w26 = (unsigned long long)(9223372036854775808ull);
    out[gid * FZ_SLOTS + 1u] = (unsigned)w26;
    out[gid * FZ_SLOTS + 2u] = (unsigned)(w26 >> 32);
  }
  out[gid * FZ_SLOTS + 3u] = __float_as_uint(v12);
  #undef FZ_SLOTS
}
