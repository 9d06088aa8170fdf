#include <cstdio>
#include <cuda_runtime.h>
#include "vecadd.h"
int main() {
  const int n = 64;
  float *a, *b, *c;
  if (cudaMallocManaged(&a, n * sizeof(float)) != cudaSuccess) { std::puts("no device"); return 0; }
  cudaMallocManaged(&b, n * sizeof(float));
  cudaMallocManaged(&c, n * sizeof(float));
  for (int i = 0; i < n; ++i) { a[i] = float(i); b[i] = 1.0f; }
  vecadd(a, b, c, n);
  std::printf("%g\n", c[10]);
  return 0;
}
