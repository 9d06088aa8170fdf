// A program in a folder named like a HeCBench dev program ("adam"): decontamination removes it.
#include <cstdio>

__global__ void step(float *w, const float *g, float lr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] -= lr * g[i];
}

int main() {
  float *w, *g;
  cudaMallocManaged(&w, 64 * sizeof(float));
  cudaMallocManaged(&g, 64 * sizeof(float));
  for (int i = 0; i < 64; i++) { w[i] = 1.0f; g[i] = 0.5f; }
  step<<<1, 64>>>(w, g, 0.1f, 64);
  cudaDeviceSynchronize();
  printf("%s\n", w[3] == 0.95f ? "PASS" : "FAIL");
  return 0;
}
