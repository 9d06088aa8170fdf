// Vector addition with a self-check (test corpus, written for cass-data's tests).
#include <cstdio>
#include <cstdlib>

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 12;
  float *a, *b, *c;
  cudaMallocManaged(&a, n * sizeof(float));
  cudaMallocManaged(&b, n * sizeof(float));
  cudaMallocManaged(&c, n * sizeof(float));
  for (int i = 0; i < n; i++) { a[i] = i * 0.5f; b[i] = 2.0f * i; }
  vecadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < n; i++) bad += c[i] != a[i] + b[i];
  printf("%s\n", bad ? "FAIL" : "PASS");
  cudaFree(a); cudaFree(b); cudaFree(c);
  return bad != 0;
}
