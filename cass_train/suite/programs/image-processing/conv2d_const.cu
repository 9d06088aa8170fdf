// cass-bench: conv2d_const
// domain: image-processing
// features: constant-memory, cudaMemcpyToSymbol, 2d-grid, clamp-to-edge
// args:
// 5x5 Gaussian blur of a float image; the filter is copied to __constant__ memory.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define KR 2
#define KW (2 * KR + 1)
__constant__ float c_filter[KW * KW];

__global__ void blur(const float* in, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0.0f;
  for (int dy = -KR; dy <= KR; ++dy)
    for (int dx = -KR; dx <= KR; ++dx) {
      int xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1);
      s += c_filter[(dy + KR) * KW + dx + KR] * in[yy * w + xx];
    }
  out[y * w + x] = s;
}

int main() {
  const int w = 640, h = 480;
  float filt[KW * KW], norm = 0;
  for (int i = 0; i < KW; ++i)
    for (int j = 0; j < KW; ++j) { filt[i * KW + j] = expf(-((i - KR) * (i - KR) + (j - KR) * (j - KR)) / 2.0f); norm += filt[i * KW + j]; }
  for (float& f : filt) f /= norm;
  std::vector<float> img(w * h), out(w * h);
  unsigned s = 17u;
  for (auto& v : img) { s = s * 1664525u + 1013904223u; v = (float)((s >> 16) & 255); }
  CHECK(cudaMemcpyToSymbol(c_filter, filt, sizeof(filt)));
  float *din, *dout;
  CHECK(cudaMalloc(&din, w * h * 4));
  CHECK(cudaMalloc(&dout, w * h * 4));
  CHECK(cudaMemcpy(din, img.data(), w * h * 4, cudaMemcpyHostToDevice));
  dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  blur<<<grid, block>>>(din, dout, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, w * h * 4, cudaMemcpyDeviceToHost));
  double max_err = 0, mean = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float r = 0;
      for (int dy = -KR; dy <= KR; ++dy)
        for (int dx = -KR; dx <= KR; ++dx) {
          int xx = std::min(std::max(x + dx, 0), w - 1), yy = std::min(std::max(y + dy, 0), h - 1);
          r += filt[(dy + KR) * KW + dx + KR] * img[yy * w + xx];
        }
      max_err = fmax(max_err, fabs(r - out[y * w + x]));
      mean += out[y * w + x];
    }
  printf("conv2d_const: %dx%d mean=%.4f max_err=%.2e\n", w, h, mean / (w * h), max_err);
  cudaFree(din); cudaFree(dout);
  bool ok = max_err < 1e-3;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
