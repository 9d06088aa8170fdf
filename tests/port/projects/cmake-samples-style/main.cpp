#include <cstdio>
#include <cuda_runtime.h>
void launch_scale(float* d, int n);
int main() {
  float host[16];
  for (int i = 0; i < 16; ++i) host[i] = float(i);
  float* d = nullptr;
  if (cudaMalloc(&d, sizeof host) != cudaSuccess) { std::puts("no device"); return 0; }
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  launch_scale(d, 16);
  cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("%g\n", host[3]);
  return 0;
}
