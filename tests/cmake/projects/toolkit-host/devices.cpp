// A host-only tool: the runtime and driver APIs, no CUDA language at all.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

int main() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  int driver = 0;
  cuDriverGetVersion(&driver);
  std::printf("devices: %d (%s), driver %d\n", err == cudaSuccess ? count : 0, cudaGetErrorName(err), driver);
  return 0;
}
