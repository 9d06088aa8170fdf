// cass-bench: gemv_shfl
// domain: linear-algebra
// features: warp-shuffle, full-mask, dynamic-shared-memory
// emu: gemv grid=2 block=256 shared=160 args=f32[640];f32[40];f32[16]=0;i32:16;i32:40
// args:
// y = A x with one warp per row; partial sums combined with __shfl_down_sync.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

static unsigned g_seed = 777u;
static float frand() { g_seed = g_seed * 1664525u + 1013904223u; return ((g_seed >> 8) & 0xFFFF) / 65536.0f - 0.5f; }

__global__ void gemv(const float* A, const float* x, float* y, int rows, int cols) {
  extern __shared__ float xs[];
  for (int i = threadIdx.x; i < cols; i += blockDim.x) xs[i] = x[i];
  __syncthreads();
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += A[(size_t)row * cols + c] * xs[c];
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if (lane == 0) y[row] = s;
}

int main() {
  const int R = 1000, C = 777;
  std::vector<float> a((size_t)R * C), x(C), y(R);
  for (auto& v : a) v = frand();
  for (auto& v : x) v = frand();
  float *dA, *dx, *dy;
  CHECK(cudaMalloc(&dA, a.size() * 4));
  CHECK(cudaMalloc(&dx, C * 4));
  CHECK(cudaMalloc(&dy, R * 4));
  CHECK(cudaMemcpy(dA, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x.data(), C * 4, cudaMemcpyHostToDevice));
  int threads = 256, warps = threads / 32;
  gemv<<<(R + warps - 1) / warps, threads, C * sizeof(float)>>>(dA, dx, dy, R, C);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, R * 4, cudaMemcpyDeviceToHost));
  double max_err = 0, sum = 0;
  for (int r = 0; r < R; ++r) {
    double s = 0;
    for (int c = 0; c < C; ++c) s += (double)a[(size_t)r * C + c] * x[c];
    max_err = fmax(max_err, fabs(s - y[r]));
    sum += y[r];
  }
  printf("gemv_shfl: rows=%d cols=%d sum=%.4f max_err=%.2e\n", R, C, sum, max_err);
  cudaFree(dA); cudaFree(dx); cudaFree(dy);
  bool ok = max_err < 1e-4;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
