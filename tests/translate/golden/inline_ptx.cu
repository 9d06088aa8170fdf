// Inline PTX idioms rewritten to HIP; the last one is left for a model.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__global__ void k(const unsigned* in, unsigned* out, long long* t) {
  unsigned a = in[threadIdx.x], b = in[threadIdx.x + 32], r;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(lane_id()));
  unsigned f;
  asm("bfe.u32 %0, %1, 8, 4;" : "=r"(f) : "r"(r));
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
  out[threadIdx.x] = r + f;
  t[threadIdx.x] = c;
  asm volatile("cp.async.wait_all;");
}
