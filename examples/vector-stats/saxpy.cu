// saxpy: elementwise kernel, device memory, error checks, kernel launch syntax.
#include <cstdio>
#include <cuda_runtime.h>
#include "ops.h"

__global__ void saxpy_kernel(float a, const float* __restrict__ x, float* __restrict__ y, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (; i < n; i += (size_t)blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

int gpu_saxpy(float a, const float* x, float* y, size_t n) {
  float *dx = nullptr, *dy = nullptr;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
  int threads = 256;
  int blocks = (int)((n + threads - 1) / threads);
  if (blocks > 1024) blocks = 1024;
  saxpy_kernel<<<blocks, threads>>>(a, dx, dy, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return 0;
}

int gpu_name(char* buf, size_t len) {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  snprintf(buf, len, "%s", prop.name);
  return 0;
}
