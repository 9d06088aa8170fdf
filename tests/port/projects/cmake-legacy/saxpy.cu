#include <cstdio>
#include <cuda_runtime.h>
__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
int main() {
  const int n = 256;
  float *x, *y;
  if (cudaMallocManaged(&x, n * sizeof(float)) != cudaSuccess) { std::puts("no device"); return 0; }
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i) { x[i] = 1.0f; y[i] = 2.0f; }
  saxpy<<<1, n>>>(n, 3.0f, x, y);
  cudaDeviceSynchronize();
  std::printf("%g\n", y[0]);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
