// cuRAND's device API (curand_kernel.h) maps to hipRAND's hiprand_kernel.h, which Debian 12 lacks
// (rocRAND's rocrand_kernel.h is installed): clang's bare "file not found", no named reason.
#include <curand_kernel.h>
__global__ void k(float *out, unsigned long long seed) {
  curandState s;
  curand_init(seed, threadIdx.x, 0, &s);
  out[threadIdx.x] = curand_uniform(&s);
}
