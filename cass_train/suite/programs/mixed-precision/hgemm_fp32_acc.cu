// cass-bench: hgemm_fp32_acc
// domain: mixed-precision
// features: cuda_fp16, __half, __half2float, __float2half_rn, shared-memory-tiles, fp32-accumulation
// args:
// GEMM with fp16 inputs and fp32 accumulation (shared-memory tiles of half), output rounded to
// fp16; compared with a double-precision host GEMM within fp16 output tolerance.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define T 16

__global__ void hgemm(const __half* A, const __half* B, __half* C, int M, int N, int K) {
  __shared__ __half As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < K; t += T) {
    As[threadIdx.y][threadIdx.x] = (row < M && t + threadIdx.x < K) ? A[row * K + t + threadIdx.x] : __float2half(0.0f);
    Bs[threadIdx.y][threadIdx.x] = (col < N && t + threadIdx.y < K) ? B[(t + threadIdx.y) * N + col] : __float2half(0.0f);
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = __float2half_rn(acc);
}

int main() {
  const int M = 256, N = 192, K = 320;
  std::vector<__half> A(M * K), B(K * N), C(M * N);
  std::vector<float> af(M * K), bf(K * N);
  unsigned s = 90u;
  for (int i = 0; i < M * K; ++i) { s = s * 1664525u + 1013904223u; A[i] = __float2half(((int)(s >> 24) - 128) / 128.0f); af[i] = __half2float(A[i]); }
  for (int i = 0; i < K * N; ++i) { s = s * 1664525u + 1013904223u; B[i] = __float2half(((int)(s >> 24) - 128) / 128.0f); bf[i] = __half2float(B[i]); }
  __half *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, M * K * 2)); CHECK(cudaMalloc(&dB, K * N * 2)); CHECK(cudaMalloc(&dC, M * N * 2));
  CHECK(cudaMemcpy(dA, A.data(), M * K * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), K * N * 2, cudaMemcpyHostToDevice));
  dim3 block(T, T), grid((N + T - 1) / T, (M + T - 1) / T);
  hgemm<<<grid, block>>>(dA, dB, dC, M, N, K);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C.data(), dC, M * N * 2, cudaMemcpyDeviceToHost));
  double max_rel = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double r = 0;
      for (int k = 0; k < K; ++k) r += (double)af[i * K + k] * bf[k * N + j];
      double g = __half2float(C[i * N + j]);
      max_rel = fmax(max_rel, fabs(g - r) / (fabs(r) + 1.0));
    }
  printf("hgemm_fp32_acc: %dx%dx%d max_rel=%.2e\n", M, N, K, max_rel);
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  bool ok = max_rel < 2e-3;  // fp16 output: half an ulp is 2^-11 relative
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
