// cass-bench: gemm_tiled
// domain: linear-algebra
// features: shared-memory, templates, 2d-grid, events
// args:
// Tiled single-precision GEMM C = A * B with a template tile size.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

static unsigned g_seed = 12345u;
static float frand() { g_seed = g_seed * 1664525u + 1013904223u; return ((g_seed >> 8) & 0xFFFF) / 65536.0f - 0.5f; }

template <int TILE>
__global__ void gemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    int ak = t + threadIdx.x, bk = t + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

int main() {
  const int M = 200, N = 176, K = 136;
  std::vector<float> a(M * K), b(K * N), c(M * N), ref(M * N);
  for (auto& v : a) v = frand();
  for (auto& v : b) v = frand();
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += (double)a[i * K + k] * b[k * N + j];
      ref[i * N + j] = (float)s;
    }
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, a.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, b.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, c.size() * sizeof(float)));
  CHECK(cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const int T = 16;
  dim3 block(T, T), grid((N + T - 1) / T, (M + T - 1) / T);
  CHECK(cudaEventRecord(start));
  gemm<T><<<grid, block>>>(dA, dB, dC, M, N, K);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaGetLastError());
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(c.data(), dC, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double max_err = 0;
  for (int i = 0; i < M * N; ++i) max_err = fmax(max_err, fabs((double)c[i] - ref[i]));
  printf("kernel time: %.3f ms\n", ms);
  printf("gemm_tiled: %dx%dx%d max_err=%.2e\n", M, N, K, max_err);
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  cudaEventDestroy(start); cudaEventDestroy(stop);
  bool ok = max_err < 1e-4;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
