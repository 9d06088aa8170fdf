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

extern "C" __global__ void __launch_bounds__(64) fz528(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  #define FZ_SLOTS 6u
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned fz_atom = 64 * FZ_SLOTS;
  unsigned v1 = gid;
  atomicMax((unsigned long long*)(out + fz_atom + 10), min((18446744073709551614ull * 27ull), (unsigned long long)((int)gid)));
  if ((0x2a176a15u >> lane) & 1u) {
    if (((fminf(__uint_as_float(in[(gid * 4u + 960u) & 1023u]), __uint_as_float(in[(gid * 5u + 273u) & 1023u])) * __uint_as_float(in[(gid * 7u + 899u) & 1023u])) == (-0x1.6000000000000p+3f))) {
      v1 = in[(gid * 3u + 626u) & 1023u];
      unsigned long long v2 = (19ull << (min(6ull, (__brevll(18446744073709551615ull) + 6ull)) & 63ull));
      v2 = (4032568232403690566ull + 6535718329203143185ull);
    }
    unsigned v3 = __umul24((((unsigned)((int)lane - 16) & (unsigned)(14ll)) & v1), v1);
    float v4 = (float)(v1);
    unsigned v5 = __ballot_sync(0x2a176a15u, ((-7169592839309494607ll) <= 7338447039982361218ll));
  }
  double a6[4];
  for (unsigned k7 = 0; k7 < 4u; ++k7) {
    a6[k7] = __longlong_as_double((long long)fz_ld64(in, gid * 2u + 278u));
  }
  a6[(in[(gid * 4u + 713u) & 1023u]) & 3u] = floor(a6[(v1) & 3u]);
  v1 = fz_div_u32(22u, __vcmpeq4((v1 << (blockDim.x & 31u)), in[(gid * 2u + 423u) & 1023u]));
  v1 = (blockDim.x + (unsigned)blockIdx.x);
  if ((0x00080000u >> lane) & 1u) {
    if ((lane > 19u)) {
      float v8 = (__uint_as_float(in[(v1) & 1023u]) + (__uint_as_float(in[(gid * 7u + 565u) & 1023u]) / roundf(__uint_as_float(in[(gid * 6u + 591u) & 1023u]))));
      if ((lane < 16u)) {
        v1 = in[(gid * 1u + 426u) & 1023u];
        int v9 = (int)((unsigned)(fz_div_i32((int)((long long)((unsigned)blockIdx.x)), ((int)in[(gid * 6u + 136u) & 1023u] | 2147483647))) - (unsigned)((int)((unsigned)((int)gid) + (unsigned)((int)lane - 16))));
      }
      v8 = (v8 + (ldexpf(__int2float_rz((int)lane - 16), (int)(v1 & 63u) - 32) + 0x1.ba351e0000000p+70f));
      unsigned v10 = v1;
    }
    if (false) {
      int v11 = (int)(short)(v1);
      v11 = 63;
      switch ((lane) % 5u) { case 0: {
        float a12[16];
        for (unsigned k13 = 0; k13 < 16u; ++k13) {
          a12[k13] = __uint_as_float(in[(gid * 5u + 1020u) & 1023u]);
        }
        a12[((unsigned)blockIdx.x) & 15u] = __fadd_rn((-0x1.e773d60000000p+32f), __fsqrt_rn(__uint_as_float(in[(gid * 6u + 773u) & 1023u])));
        break;
      } case 3: {
        v11 = (int)((unsigned)(__mulhi(v11, v11)));
        break;
      } case 4: {
        double v14 = a6[(v1) & 3u];
        unsigned v15 = (unsigned)(37ll);
        break;
      } default: {
        v11 = (__mulhi((int)((unsigned)(__mulhi((int)tid, (int)tid)) * (unsigned)(v11)), (int)in[(gid * 4u + 898u) & 1023u]) ^ 17);
      } }
      float v16 = floorf(fmaxf(__uint_as_float(in[(gid * 4u + 118u) & 1023u]), fabsf(__uint_as_float(in[(gid * 7u + 208u) & 1023u]))));
    }
    v1 = v1;
    double a17[16];
    for (unsigned k18 = 0; k18 < 16u; ++k18) {
      a17[k18] = (a6[(gid) & 3u] + a6[(v1) & 3u]);
    }
    a17[(v1) & 15u] = __longlong_as_double((long long)fz_ld64(in, 31u));
    int p19 = 0;
    unsigned v20 = __match_all_sync(0x00080000u, (((-6044135631555000318ll)) & 1ll), &p19);
  }
  cg::thread_block_tile<32> t21 = cg::tiled_partition<32>(cg::this_thread_block());
  int v22 = cg::reduce(t21, (int)((int)tid), cg::less<int>());
  for (int i23 = 0; i23 < 3; ++i23) {
    cg::thread_block_tile<16> t24 = cg::tiled_partition<16>(cg::this_thread_block());
    unsigned v25 = cg::reduce(t24, (unsigned)(v1), cg::plus<unsigned>());
    v1 = (fz_rem_u32(1069908738u, (false ? max(v25, v25) : v25)) ^ (~__vcmpeq4((unsigned)blockIdx.x, tid)));
    atomicInc(out + fz_atom + 5, 37u);
  }
  unsigned v26 = __reduce_and_sync(FZ_FULL, 64u);
  out[gid * FZ_SLOTS + 0u] = (unsigned)(v22);
  out[gid * FZ_SLOTS + 1u] = (unsigned)(v26);
  out[gid * FZ_SLOTS + 2u] = (unsigned)(v22);
  out[gid * FZ_SLOTS + 3u] = (unsigned)(v26);
  out[gid * FZ_SLOTS + 4u] = (unsigned)(v22);
  out[gid * FZ_SLOTS + 5u] = (unsigned)(v1);
  #undef FZ_SLOTS
}
