// CUDA 13's cudaMemPrefetchAsync/cudaMemAdvise take a cudaMemLocation (cudaMemLocationTypeHost):
// not in HIP 5.2 (cuda-samples at HEAD is written for CUDA 13).
#include <cuda_runtime.h>
int main() {
  float *p;
  cudaMallocManaged(&p, 1024);
  cudaMemLocation loc;
  loc.type = cudaMemLocationTypeHost;
  loc.id = 0;
  cudaMemAdvise(p, 1024, cudaMemAdviseSetPreferredLocation, loc);
  return cudaMemPrefetchAsync(p, 1024, loc, 0, 0) != cudaSuccess;
}
