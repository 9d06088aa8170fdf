// cass-bench: dgemm_batched
// domain: linear-algebra
// features: fp64, 3d-grid, fma
// args:
// Batched double-precision GEMM, one batch per blockIdx.z, checked with fma on the CPU.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void dgemm_batched(const double* A, const double* B, double* C, int n, double alpha) {
  int b = blockIdx.z;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || j >= n) return;
  const double* a = A + (size_t)b * n * n;
  const double* bb = B + (size_t)b * n * n;
  double s = 0.0;
  for (int k = 0; k < n; ++k) s = fma(a[i * n + k], bb[k * n + j], s);
  C[(size_t)b * n * n + i * n + j] = alpha * s;
}

int main() {
  const int batches = 12, n = 48;
  const size_t total = (size_t)batches * n * n;
  std::vector<double> A(total), B(total), C(total);
  unsigned long long s = 2024ull;
  for (size_t i = 0; i < total; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    A[i] = (double)(s >> 40) / (1 << 24) - 0.5;
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    B[i] = (double)(s >> 40) / (1 << 24) - 0.5;
  }
  double *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, total * 8));
  CHECK(cudaMalloc(&dB, total * 8));
  CHECK(cudaMalloc(&dC, total * 8));
  CHECK(cudaMemcpy(dA, A.data(), total * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), total * 8, cudaMemcpyHostToDevice));
  dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16, batches);
  dgemm_batched<<<grid, block>>>(dA, dB, dC, n, 1.5);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C.data(), dC, total * 8, cudaMemcpyDeviceToHost));
  double max_err = 0, trace = 0;
  for (int b = 0; b < batches; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double r = 0;
        for (int k = 0; k < n; ++k) r = fma(A[(size_t)b * n * n + i * n + k], B[(size_t)b * n * n + k * n + j], r);
        r *= 1.5;
        double got = C[(size_t)b * n * n + i * n + j];
        max_err = fmax(max_err, fabs(got - r));
        if (i == j) trace += got;
      }
  printf("dgemm_batched: batches=%d n=%d trace=%.6f max_err=%.2e\n", batches, n, trace, max_err);
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  bool ok = max_err < 1e-12;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
