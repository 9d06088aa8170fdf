// cass-bench: bitonic_shared
// domain: sorting-searching
// features: shared-memory, dynamic-shared-memory, bitonic-network, syncthreads-in-loops
// emu: bitonic grid=2 block=256 shared=4096 args=u32[2048];i32:1024
// args:
// Sorts 200 independent segments of 1024 keys each with a bitonic network in shared memory.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void bitonic(unsigned* data, int seg) {
  extern __shared__ unsigned s[];
  unsigned* d = data + (size_t)blockIdx.x * seg;
  for (int i = threadIdx.x; i < seg; i += blockDim.x) s[i] = d[i];
  __syncthreads();
  for (int k = 2; k <= seg; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < seg; i += blockDim.x) {
        int p = i ^ j;
        if (p > i) {
          bool up = (i & k) == 0;
          unsigned a = s[i], b = s[p];
          if ((a > b) == up) { s[i] = b; s[p] = a; }
        }
      }
      __syncthreads();
    }
  for (int i = threadIdx.x; i < seg; i += blockDim.x) d[i] = s[i];
}

int main() {
  const int segs = 200, seg = 1024;
  std::vector<unsigned> h((size_t)segs * seg), out(h.size());
  unsigned s = 1u;
  for (auto& v : h) { s = s * 1664525u + 1013904223u; v = s ^ (s >> 13); }
  unsigned* d;
  CHECK(cudaMalloc(&d, h.size() * 4));
  CHECK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  bitonic<<<segs, 256, seg * sizeof(unsigned)>>>(d, seg);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d, h.size() * 4, cudaMemcpyDeviceToHost));
  for (int g = 0; g < segs; ++g) std::sort(h.begin() + (size_t)g * seg, h.begin() + (size_t)(g + 1) * seg);
  int bad = 0;
  for (size_t i = 0; i < h.size(); ++i) bad += h[i] != out[i];
  printf("bitonic_shared: segments=%d size=%d first=%u mismatches=%d\n", segs, seg, out[0], bad);
  cudaFree(d);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
