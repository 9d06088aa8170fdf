// cass-bench: sobel_edges
// domain: image-processing
// features: 2d-grid, unsigned-char, sqrtf, shared-memory
// emu: sobel grid=2,3 block=16,16 args=u8[1200];u8[1200]=0;i32:30;i32:40
// args:
// Sobel gradient magnitude of an 8-bit image with a shared tile; integer result compared exactly.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define T 16

__host__ __device__ inline unsigned char sobel_at(int gx, int gy) {
  int m = gx * gx + gy * gy;      // exact integer magnitude squared
  int r = (int)sqrtf((float)m);   // m < 2^21: sqrt of an exactly representable float
  while (r * r > m) --r;
  while ((r + 1) * (r + 1) <= m) ++r;
  return (unsigned char)(r > 255 ? 255 : r);
}

__global__ void sobel(const unsigned char* in, unsigned char* out, int w, int h) {
  __shared__ unsigned char tile[T + 2][T + 2];
  int x0 = blockIdx.x * T - 1, y0 = blockIdx.y * T - 1;
  for (int i = threadIdx.y * T + threadIdx.x; i < (T + 2) * (T + 2); i += T * T) {
    int ty = i / (T + 2), tx = i % (T + 2);
    int gx = min(max(x0 + tx, 0), w - 1), gy = min(max(y0 + ty, 0), h - 1);
    tile[ty][tx] = in[gy * w + gx];
  }
  __syncthreads();
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  if (x >= w || y >= h) return;
  int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  int gx = -tile[ly - 1][lx - 1] - 2 * tile[ly][lx - 1] - tile[ly + 1][lx - 1] + tile[ly - 1][lx + 1] + 2 * tile[ly][lx + 1] + tile[ly + 1][lx + 1];
  int gy = -tile[ly - 1][lx - 1] - 2 * tile[ly - 1][lx] - tile[ly - 1][lx + 1] + tile[ly + 1][lx - 1] + 2 * tile[ly + 1][lx] + tile[ly + 1][lx + 1];
  out[y * w + x] = sobel_at(gx, gy);
}

int main() {
  const int w = 517, h = 389;
  std::vector<unsigned char> img(w * h), out(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img[y * w + x] = (unsigned char)(((x * 7) ^ (y * 13)) + ((x / 31 + y / 17) % 2) * 90);
  unsigned char *din, *dout;
  CHECK(cudaMalloc(&din, w * h));
  CHECK(cudaMalloc(&dout, w * h));
  CHECK(cudaMemcpy(din, img.data(), w * h, cudaMemcpyHostToDevice));
  dim3 block(T, T), grid((w + T - 1) / T, (h + T - 1) / T);
  sobel<<<grid, block>>>(din, dout, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, w * h, cudaMemcpyDeviceToHost));
  auto px = [&](int x, int y) { x = std::min(std::max(x, 0), w - 1); y = std::min(std::max(y, 0), h - 1); return (int)img[y * w + x]; };
  int bad = 0;
  long long sum = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int gx = -px(x - 1, y - 1) - 2 * px(x - 1, y) - px(x - 1, y + 1) + px(x + 1, y - 1) + 2 * px(x + 1, y) + px(x + 1, y + 1);
      int gy = -px(x - 1, y - 1) - 2 * px(x, y - 1) - px(x + 1, y - 1) + px(x - 1, y + 1) + 2 * px(x, y + 1) + px(x + 1, y + 1);
      if (out[y * w + x] != sobel_at(gx, gy)) ++bad;
      sum += out[y * w + x];
    }
  printf("sobel_edges: %dx%d sum=%lld mismatches=%d\n", w, h, sum, bad);
  cudaFree(din); cudaFree(dout);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
