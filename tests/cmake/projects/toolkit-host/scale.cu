#include <cuda_runtime.h>

__global__ void scale_kernel(float* x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] *= a;
}

cudaError_t scale(float* d_x, float a, int n) {
  scale_kernel<<<32, 256>>>(d_x, a, n);
  return cudaGetLastError();
}
