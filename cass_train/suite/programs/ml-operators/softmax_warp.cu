// cass-bench: softmax_warp
// domain: ml-operators
// features: warp-shuffle, shfl-xor, full-mask, expf, numerically-stable-softmax
// emu: softmax grid=1 block=256 args=f32[560];f32[560]=0;i32:8;i32:70
// args:
// Row softmax of a 4096 x 1000 matrix, one warp per row: max and sum by __shfl_xor_sync butterflies.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void softmax(const float* x, float* y, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float* xr = x + (size_t)row * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += expf(xr[c] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  float inv = 1.0f / s;
  for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = expf(xr[c] - m) * inv;
}

int main() {
  const int rows = 4096, cols = 1000;
  std::vector<float> x((size_t)rows * cols), y(x.size());
  unsigned s = 55u;
  for (auto& v : x) { s = s * 1664525u + 1013904223u; v = ((s >> 8) & 0xFFFF) / 2048.0f - 16.0f; }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, x.size() * 4)); CHECK(cudaMalloc(&dy, y.size() * 4));
  CHECK(cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice));
  softmax<<<rows / 8, 256>>>(dx, dy, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, y.size() * 4, cudaMemcpyDeviceToHost));
  double max_err = 0, worst_sum = 0;
  for (int r = 0; r < rows; ++r) {
    double m = -1e30, sum = 0, ys = 0;
    for (int c = 0; c < cols; ++c) m = fmax(m, x[(size_t)r * cols + c]);
    for (int c = 0; c < cols; ++c) sum += exp(x[(size_t)r * cols + c] - m);
    for (int c = 0; c < cols; ++c) {
      double ref = exp(x[(size_t)r * cols + c] - m) / sum;
      max_err = fmax(max_err, fabs(ref - y[(size_t)r * cols + c]));
      ys += y[(size_t)r * cols + c];
    }
    worst_sum = fmax(worst_sum, fabs(ys - 1.0));
  }
  printf("softmax_warp: %dx%d max_err=%.2e worst_row_sum_err=%.2e\n", rows, cols, max_err, worst_sum);
  cudaFree(dx); cudaFree(dy);
  bool ok = max_err < 1e-5 && worst_sum < 1e-4;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
