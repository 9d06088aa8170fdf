// cass-bench: median3x3
// domain: image-processing
// features: 2d-grid, register-sorting-network, min-max
// args:
// 3x3 median filter of a noisy 16-bit image with a min/max exchange network in registers.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ inline void cs(int& a, int& b) { int lo = min(a, b), hi = max(a, b); a = lo; b = hi; }

__global__ void median(const unsigned short* in, unsigned short* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int v[9], k = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) v[k++] = in[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)];
  // full bubble network: 9 passes worth of compare-exchange, enough to sort 9 values
  for (int i = 0; i < 9; ++i)
    for (int j = (i & 1); j + 1 < 9; j += 2) cs(v[j], v[j + 1]);
  out[y * w + x] = (unsigned short)v[4];
}

int main() {
  const int w = 400, h = 300;
  std::vector<unsigned short> img(w * h), out(w * h);
  unsigned s = 1234u;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      s = s * 1664525u + 1013904223u;
      unsigned short base = (unsigned short)(x * 100 + y * 50);
      img[y * w + x] = (s >> 28) == 0 ? (unsigned short)(s >> 8) : base;  // 1/16 salt noise
    }
  unsigned short *din, *dout;
  CHECK(cudaMalloc(&din, w * h * 2));
  CHECK(cudaMalloc(&dout, w * h * 2));
  CHECK(cudaMemcpy(din, img.data(), w * h * 2, cudaMemcpyHostToDevice));
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  median<<<grid, block>>>(din, dout, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, w * h * 2, cudaMemcpyDeviceToHost));
  int bad = 0;
  unsigned long long sum = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int v[9], k = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) v[k++] = img[std::min(std::max(y + dy, 0), h - 1) * w + std::min(std::max(x + dx, 0), w - 1)];
      std::nth_element(v, v + 4, v + 9);
      if (out[y * w + x] != v[4]) ++bad;
      sum += out[y * w + x];
    }
  printf("median3x3: %dx%d sum=%llu mismatches=%d\n", w, h, sum, bad);
  cudaFree(din); cudaFree(dout);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
