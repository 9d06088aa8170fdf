// saxpy, lightly edited copy (a planted near-duplicate for the dedup test).
#include <cstdio>
#include <cmath>
#include "scale.h"

__global__ void saxpy(int n, float alpha, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = scale(alpha, x[i]) + y[i];
}

int main() {
  const int n = 100000;
  float *x, *y, *hx = new float[n], *hy = new float[n];
  for (int i = 0; i < n; i++) { hx[i] = (i % 19) * 0.25f; hy[i] = (i % 5) - 2.0f; }
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<64, 128>>>(n, 3.0f, x, y);
  float *out = new float[n];
  cudaMemcpy(out, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  double err = 0;
  for (int i = 0; i < n; i++) err = fmax(err, fabs(out[i] - (3.0f * hx[i] + hy[i])));
  printf("max error %g\n%s\n", err, err < 1e-5 ? "PASS" : "FAIL");
  cudaFree(x); cudaFree(y);
  return err >= 1e-5;
}
