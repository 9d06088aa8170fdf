// cass-bench: transpose_padded
// domain: linear-algebra
// features: shared-memory, bank-conflict-padding, 2d-grid, events
// emu: transpose grid=2,1 block=32,8 args=f32[960]=0;f32[960];i32:40;i32:24
// args:
// Out-of-place matrix transpose through a padded shared tile (32x33), 32x8 threads.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define TILE 32
#define ROWS 8

__global__ void transpose(float* out, const float* in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int W = 1000, H = 709;
  std::vector<float> in(W * H), out(W * H);
  unsigned s = 99u;
  for (auto& v : in) { s = s * 1664525u + 1013904223u; v = (float)(s >> 12); }
  float *din, *dout;
  CHECK(cudaMalloc(&din, W * H * 4));
  CHECK(cudaMalloc(&dout, W * H * 4));
  CHECK(cudaMemcpy(din, in.data(), W * H * 4, cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  dim3 grid((W + TILE - 1) / TILE, (H + TILE - 1) / TILE), block(TILE, ROWS);
  CHECK(cudaEventRecord(a));
  transpose<<<grid, block>>>(dout, din, W, H);
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  CHECK(cudaMemcpy(out.data(), dout, W * H * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      if (out[x * H + y] != in[y * W + x]) ++bad;
  printf("kernel time: %.3f ms\n", ms);
  printf("transpose_padded: %dx%d mismatches=%d\n", W, H, bad);
  cudaFree(din); cudaFree(dout);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
