#include <cuda_runtime.h>
__global__ void fill(int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = i;
}
int fill_and_sum(int n) {
  int* d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<(n + 127) / 128, 128>>>(d, n);
  int host[256] = {0}, sum = 0;
  cudaMemcpy(host, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < n && i < 256; ++i) sum += host[i];
  return sum;
}
