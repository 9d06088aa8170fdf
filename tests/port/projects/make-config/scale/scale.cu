#include <cuda_runtime.h>
__global__ void twice(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }
int run_twice(float *host, int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<1, n>>>(d, n);
  cudaMemcpy(host, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  return cudaFree(d) != cudaSuccess;
}
