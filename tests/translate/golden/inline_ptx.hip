#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
static __host__ __device__ inline unsigned int __cass_bfe_u32(unsigned int a, unsigned int b, unsigned int c) { unsigned int pos = b & 0xFFu, len = c & 0xFFu; unsigned int n = pos > 31 ? 0 : (len < 32u - pos ? len : 32u - pos); unsigned int field = n == 0 ? 0 : (a >> pos) & (n == 32 ? ~(unsigned int)0 : (1u << n) - 1u); return field; }
#ifdef __clang__
#pragma clang diagnostic pop
#endif
#line 1 "inline_ptx.cu"
// Inline PTX idioms rewritten to HIP; the last one is left for a model.
#include <hip/hip_runtime.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  (id) = __lane_id();
  return id;
}

__global__ void k(const unsigned* in, unsigned* out, long long* t) {
  unsigned a = in[threadIdx.x], b = in[threadIdx.x + 32], r;
  (r) = (((unsigned int)(a)) ^ (((unsigned int)(b)) ^ ((unsigned int)(lane_id()))));
  unsigned f;
  (f) = __cass_bfe_u32(((unsigned int)(r)), ((unsigned int)0x8u), ((unsigned int)0x4u));
  long long c;
  (c) = ((unsigned long long)clock64());
  out[threadIdx.x] = r + f;
  t[threadIdx.x] = c;
  asm volatile("cp.async.wait_all;");
}
