// cass-bench: histogram_shared
// domain: histograms-atomics
// features: shared-memory-atomics, atomicAdd, privatization, grid-stride-loop
// emu: hist grid=4 block=128 args=u8[5000];i32:5000;u32[256]=0
// args:
// 256-bin byte histogram with per-block private histograms in shared memory merged by global atomics.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void hist(const unsigned char* data, int n, unsigned* bins) {
  __shared__ unsigned local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) if (local[i]) atomicAdd(&bins[i], local[i]);
}

int main() {
  const int n = 10000000;
  std::vector<unsigned char> h(n);
  unsigned s = 11u;
  for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; unsigned v = s >> 24; h[i] = (unsigned char)(v < 128 ? v / 4 : v); }  // skewed
  unsigned ref[256] = {0}, got[256];
  for (int i = 0; i < n; ++i) ++ref[h[i]];
  unsigned char* dd;
  unsigned* db;
  CHECK(cudaMalloc(&dd, n));
  CHECK(cudaMalloc(&db, 256 * 4));
  CHECK(cudaMemcpy(dd, h.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(db, 0, 256 * 4));
  hist<<<240, 512>>>(dd, n, db);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, db, 256 * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < 256; ++i) bad += got[i] != ref[i];
  printf("histogram_shared: n=%d bin0=%u bin200=%u mismatches=%d\n", n, got[0], got[200], bad);
  cudaFree(dd); cudaFree(db);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
