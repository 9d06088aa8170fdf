// flags: -rdc=true
// A `static __constant__` / `static __device__` variable written with cudaMemcpyToSymbol, built
// with separable compilation (CMake's CUDA_SEPARABLE_COMPILATION ON): device link fails,
// "lld: error: undefined symbol: c_Table" (binomialOptions, quasirandomGenerator).
#include <cuda_runtime.h>
static __constant__ unsigned int c_Table[4];
static __device__ float d_Out[4];
__global__ void k() { d_Out[threadIdx.x] = c_Table[threadIdx.x]; }
int main() {
  unsigned int h[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(c_Table, h, sizeof h);
  k<<<1, 4>>>();
  float o[4];
  return cudaMemcpyFromSymbol(o, d_Out, sizeof o) != cudaSuccess;
}
