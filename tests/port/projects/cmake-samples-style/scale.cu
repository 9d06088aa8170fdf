#include <cuda_runtime.h>
__global__ void scale(float* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] *= 2.0f;
}
void launch_scale(float* d, int n) { scale<<<(n + 255) / 256, 256>>>(d, n); }
