// cass-bench: wave1d_const
// domain: stencils-pdes
// features: constant-memory, cudaMemcpyToSymbol, high-order-stencil, ping-pong
// args:
// 1D wave equation with an 8th-order spatial stencil whose coefficients live in __constant__ memory.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define R 4
__constant__ float c_coef[R + 1];

__global__ void wave_step(const float* prev, const float* cur, float* next, int n, float c2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i < R || i >= n - R) { next[i] = 0.0f; return; }
  float lap = c_coef[0] * cur[i];
  for (int k = 1; k <= R; ++k) lap += c_coef[k] * (cur[i - k] + cur[i + k]);
  next[i] = 2.0f * cur[i] - prev[i] + c2 * lap;
}

int main() {
  const int n = 4096, steps = 200;
  const float coef[R + 1] = {-205.0f / 72, 8.0f / 5, -1.0f / 5, 8.0f / 315, -1.0f / 560};
  const float c2 = 0.1f;
  std::vector<float> p(n), c(n), nx(n);
  for (int i = 0; i < n; ++i) { float x = (i - n / 2) / 64.0f; c[i] = expf(-x * x); p[i] = c[i]; }
  CHECK(cudaMemcpyToSymbol(c_coef, coef, sizeof(coef)));
  float *d[3];
  for (int k = 0; k < 3; ++k) CHECK(cudaMalloc(&d[k], n * 4));
  CHECK(cudaMemcpy(d[0], p.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d[1], c.data(), n * 4, cudaMemcpyHostToDevice));
  for (int s = 0; s < steps; ++s) {
    wave_step<<<(n + 127) / 128, 128>>>(d[s % 3], d[(s + 1) % 3], d[(s + 2) % 3], n, c2);
  }
  CHECK(cudaGetLastError());
  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), d[(steps + 1) % 3], n * 4, cudaMemcpyDeviceToHost));
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      if (i < R || i >= n - R) { nx[i] = 0.0f; continue; }
      float lap = coef[0] * c[i];
      for (int k = 1; k <= R; ++k) lap += coef[k] * (c[i - k] + c[i + k]);
      nx[i] = 2.0f * c[i] - p[i] + c2 * lap;
    }
    p.swap(c);
    c.swap(nx);
  }
  double max_err = 0, energy = 0;
  for (int i = 0; i < n; ++i) { max_err = fmax(max_err, fabs(out[i] - c[i])); energy += out[i] * out[i]; }
  printf("wave1d_const: n=%d steps=%d energy=%.4f max_err=%.2e\n", n, steps, energy, max_err);
  for (int k = 0; k < 3; ++k) cudaFree(d[k]);
  bool ok = max_err < 1e-3;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
