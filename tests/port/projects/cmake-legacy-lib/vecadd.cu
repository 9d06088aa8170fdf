#include <cuda_runtime.h>
#include "vecadd.h"
__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
void vecadd(const float* a, const float* b, float* c, int n) {
  add<<<(n + 127) / 128, 128>>>(a, b, c, n);
  cudaDeviceSynchronize();
}
