#include <cstdio>
__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main() {
  float *a, *b, *c;
  cudaMalloc(&a, 64 * sizeof(float)); cudaMalloc(&b, 64 * sizeof(float)); cudaMalloc(&c, 64 * sizeof(float));
  add<<<1, 64>>>(a, b, c, 64);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
