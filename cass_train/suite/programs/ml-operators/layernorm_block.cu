// cass-bench: layernorm_block
// domain: ml-operators
// features: block-reduction, shared-memory, rsqrtf, templates, warp-shuffle
// args:
// LayerNorm over rows of 768 with learned gain and bias; mean and variance by a templated
// block reduction (warp shuffles, then shared memory).
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

template <int THREADS>
__device__ float block_sum(float v, float* scratch) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = threadIdx.x < THREADS / 32 ? scratch[threadIdx.x] : 0.0f;
  if (warp == 0)
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x == 0) scratch[32] = v;
  __syncthreads();
  float total = scratch[32];
  __syncthreads();
  return total;
}

template <int THREADS>
__global__ void layernorm(const float* x, const float* gamma, const float* beta, float* y, int cols, float eps) {
  __shared__ float scratch[33];
  const float* xr = x + (size_t)blockIdx.x * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += THREADS) s += xr[c];
  float mean = block_sum<THREADS>(s, scratch) / cols;
  float q = 0.0f;
  for (int c = threadIdx.x; c < cols; c += THREADS) { float d = xr[c] - mean; q += d * d; }
  float rstd = rsqrtf(block_sum<THREADS>(q, scratch) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += THREADS) y[(size_t)blockIdx.x * cols + c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
}

int main() {
  const int rows = 2048, cols = 768;
  const float eps = 1e-5f;
  std::vector<float> x((size_t)rows * cols), y(x.size()), g(cols), b(cols);
  unsigned s = 808u;
  auto r = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xFFFF) / 32768.0f - 1.0f; };
  for (int rr = 0; rr < rows; ++rr) { float off = r() * 5, sc = 1 + r(); for (int c = 0; c < cols; ++c) x[(size_t)rr * cols + c] = off + sc * r(); }
  for (int c = 0; c < cols; ++c) { g[c] = 1 + 0.1f * r(); b[c] = 0.1f * r(); }
  float *dx, *dy, *dg, *db;
  CHECK(cudaMalloc(&dx, x.size() * 4)); CHECK(cudaMalloc(&dy, y.size() * 4)); CHECK(cudaMalloc(&dg, cols * 4)); CHECK(cudaMalloc(&db, cols * 4));
  CHECK(cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dg, g.data(), cols * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), cols * 4, cudaMemcpyHostToDevice));
  layernorm<256><<<rows, 256>>>(dx, dg, db, dy, cols, eps);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, y.size() * 4, cudaMemcpyDeviceToHost));
  double max_err = 0;
  for (int rr = 0; rr < rows; ++rr) {
    double m = 0, v = 0;
    for (int c = 0; c < cols; ++c) m += x[(size_t)rr * cols + c];
    m /= cols;
    for (int c = 0; c < cols; ++c) { double d = x[(size_t)rr * cols + c] - m; v += d * d; }
    double rs = 1.0 / sqrt(v / cols + eps);
    for (int c = 0; c < cols; ++c) max_err = fmax(max_err, fabs((x[(size_t)rr * cols + c] - m) * rs * g[c] + b[c] - y[(size_t)rr * cols + c]));
  }
  printf("layernorm_block: %dx%d max_err=%.2e\n", rows, cols, max_err);
  cudaFree(dx); cudaFree(dy); cudaFree(dg); cudaFree(db);
  bool ok = max_err < 2e-4;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
