// CUDA 12.2+/13 calls that take a cudaMemLocation where HIP 5.2 takes a device number.
#include <cuda_runtime.h>

int prefetch(float* managed, size_t n, int device, cudaStream_t stream) {
  cudaMemLocation loc;
  loc.type = cudaMemLocationTypeDevice;
  loc.id = device;
  cudaMemAdvise(managed, n * sizeof(float), cudaMemAdviseSetPreferredLocation, loc);
  return cudaMemPrefetchAsync(managed, n * sizeof(float), loc, 0, stream) == cudaSuccess;
}
