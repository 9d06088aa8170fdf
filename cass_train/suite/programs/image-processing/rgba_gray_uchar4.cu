// cass-bench: rgba_gray_uchar4
// domain: image-processing
// features: vector-types, uchar4, make_uchar4, __saturatef, streams, async-copy
// emu: to_gray grid=2 block=256 args=u8[1600];u8[1600]=0;i32:400
// args:
// RGBA -> gray and a gamma-free contrast stretch on uchar4 pixels, in two halves on two streams.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__host__ __device__ inline unsigned char gray_of(unsigned r, unsigned g, unsigned b) {
  return (unsigned char)((77u * r + 150u * g + 29u * b + 128u) >> 8);  // integer BT.601
}

__global__ void to_gray(const uchar4* in, uchar4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uchar4 p = in[i];
  unsigned char g = gray_of(p.x, p.y, p.z);
  float s = __saturatef((g - 32.0f) * 0.00390625f);  // contrast stretch; every step is exact
  unsigned char v = (unsigned char)(s * 255.0f);
  out[i] = make_uchar4(g, v, 255 - g, p.w);
}

int main() {
  const int n = 1 << 20, half = n / 2;
  uchar4 *hin, *hout;
  CHECK(cudaMallocHost(&hin, n * sizeof(uchar4)));
  CHECK(cudaMallocHost(&hout, n * sizeof(uchar4)));
  unsigned s = 3u;
  for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; hin[i] = make_uchar4(s >> 24, (s >> 16) & 255, (s >> 8) & 255, s & 255); }
  uchar4 *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(uchar4)));
  CHECK(cudaMalloc(&dout, n * sizeof(uchar4)));
  cudaStream_t st[2];
  for (int k = 0; k < 2; ++k) CHECK(cudaStreamCreate(&st[k]));
  for (int k = 0; k < 2; ++k) {
    int off = k * half;
    CHECK(cudaMemcpyAsync(din + off, hin + off, half * sizeof(uchar4), cudaMemcpyHostToDevice, st[k]));
    to_gray<<<(half + 255) / 256, 256, 0, st[k]>>>(din + off, dout + off, half);
    CHECK(cudaMemcpyAsync(hout + off, dout + off, half * sizeof(uchar4), cudaMemcpyDeviceToHost, st[k]));
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  int bad = 0;
  unsigned long long sum = 0;
  for (int i = 0; i < n; ++i) {
    unsigned char g = gray_of(hin[i].x, hin[i].y, hin[i].z);
    float f = (g - 32.0f) * 0.00390625f;
    f = f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
    unsigned char v = (unsigned char)(f * 255.0f);
    uchar4 o = hout[i];
    if (o.x != g || o.y != v || o.z != 255 - g || o.w != hin[i].w) ++bad;
    sum += o.x + o.y;
  }
  printf("rgba_gray_uchar4: n=%d sum=%llu mismatches=%d\n", n, sum, bad);
  for (int k = 0; k < 2; ++k) cudaStreamDestroy(st[k]);
  cudaFree(din); cudaFree(dout); cudaFreeHost(hin); cudaFreeHost(hout);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
