// cass-bench: dft_fastmath
// domain: signal-fft
// features: __sinf, __cosf, __fdividef, fast-math-intrinsics, shared-memory
// args:
// Power spectrum of a short real signal by direct DFT with fast intrinsics (angles reduced first
// to [-pi, pi) so the intrinsics stay accurate); peaks must be found in the right bins.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void power_spectrum(const float* x, float* p, int n) {
  extern __shared__ float xs[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) xs[i] = x[i];
  __syncthreads();
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n / 2) return;
  float re = 0.0f, im = 0.0f;
  for (int t = 0; t < n; ++t) {
    int m = (k * t) % n;                                   // exact phase index
    float ang = __fdividef(6.2831853f * (float)(m > n / 2 ? m - n : m), (float)n);
    re += xs[t] * __cosf(ang);
    im -= xs[t] * __sinf(ang);
  }
  p[k] = (re * re + im * im) / n;
}

int main() {
  const int n = 2048;
  std::vector<float> x(n), p(n / 2);
  for (int t = 0; t < n; ++t) x[t] = 1.5f * sinf(2 * (float)M_PI * 100 * t / n) + 0.7f * cosf(2 * (float)M_PI * 333 * t / n) + 0.1f * ((t * 37) % 11 - 5) / 5.0f;
  float *dx, *dp;
  CHECK(cudaMalloc(&dx, n * 4));
  CHECK(cudaMalloc(&dp, n / 2 * 4));
  CHECK(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
  power_spectrum<<<(n / 2 + 127) / 128, 128, n * sizeof(float)>>>(dx, dp, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(p.data(), dp, n / 2 * 4, cudaMemcpyDeviceToHost));
  double max_rel = 0;
  int top1 = 0, top2 = 0;
  for (int k = 0; k < n / 2; ++k) {
    double re = 0, im = 0;
    for (int t = 0; t < n; ++t) { double a = 2 * M_PI * (double)((long long)k * t % n) / n; re += x[t] * cos(a); im -= x[t] * sin(a); }
    double ref = (re * re + im * im) / n;
    max_rel = fmax(max_rel, fabs(p[k] - ref) / (ref + 1.0));
    if (p[k] > p[top1]) { top2 = top1; top1 = k; } else if (k != top1 && p[k] > p[top2]) top2 = k;
  }
  printf("dft_fastmath: n=%d peaks=%d,%d max_rel=%.2e\n", n, top1, top2, max_rel);
  cudaFree(dx); cudaFree(dp);
  bool ok = max_rel < 1e-2 && top1 == 100 && top2 == 333;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
