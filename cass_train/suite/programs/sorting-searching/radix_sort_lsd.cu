// cass-bench: radix_sort_lsd
// domain: sorting-searching
// features: atomics, shared-memory-atomics, multi-pass, scan, stable-scatter
// args:
// LSD radix sort of 32-bit keys with 8-bit digits: per-block digit histograms (shared atomics),
// a one-block scan kernel over (digit, block), and a stable scatter where each block ranks its keys.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define TPB 256
#define RADIX 256

__global__ void histogram(const unsigned* keys, unsigned* counts, int n, int shift) {
  __shared__ unsigned h[RADIX];
  h[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * TPB + threadIdx.x;
  if (i < n) atomicAdd(&h[(keys[i] >> shift) & 255], 1u);
  __syncthreads();
  counts[threadIdx.x * gridDim.x + blockIdx.x] = h[threadIdx.x];  // digit-major layout
}

// One block of 1024 threads: each scans its own chunk, then the chunk totals are scanned in shared memory.
__global__ void exclusive_scan(unsigned* counts, int total) {
  __shared__ unsigned sums[1024];
  int chunk = (total + blockDim.x - 1) / blockDim.x;
  int begin = threadIdx.x * chunk, end = min(begin + chunk, total);
  unsigned local = 0;
  for (int i = begin; i < end; ++i) local += counts[i];
  sums[threadIdx.x] = local;
  __syncthreads();
  for (int off = 1; off < (int)blockDim.x; off <<= 1) {
    unsigned v = threadIdx.x >= off ? sums[threadIdx.x - off] : 0u;
    __syncthreads();
    sums[threadIdx.x] += v;
    __syncthreads();
  }
  unsigned acc = sums[threadIdx.x] - local;
  for (int i = begin; i < end; ++i) { unsigned v = counts[i]; counts[i] = acc; acc += v; }
}

__global__ void scatter(const unsigned* keys, unsigned* out, const unsigned* offsets, int n, int shift) {
  __shared__ unsigned digits[TPB];
  int i = blockIdx.x * TPB + threadIdx.x;
  unsigned digit = i < n ? (keys[i] >> shift) & 255 : 0xFFFFFFFFu;
  digits[threadIdx.x] = digit;
  __syncthreads();
  if (i >= n) return;
  unsigned rank = 0;  // stable: earlier keys of the block with the same digit
  for (int j = 0; j < (int)threadIdx.x; ++j) rank += digits[j] == digit;
  out[offsets[digit * gridDim.x + blockIdx.x] + rank] = keys[i];
}

int main() {
  const int n = 200000;
  const int blocks = (n + TPB - 1) / TPB;
  std::vector<unsigned> h(n), out(n);
  unsigned s = 77u;
  for (auto& v : h) { s = s * 1664525u + 1013904223u; v = s; }
  unsigned *a, *b, *counts;
  CHECK(cudaMalloc(&a, n * 4));
  CHECK(cudaMalloc(&b, n * 4));
  CHECK(cudaMalloc(&counts, RADIX * blocks * 4));
  CHECK(cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice));
  for (int shift = 0; shift < 32; shift += 8) {
    histogram<<<blocks, TPB>>>(a, counts, n, shift);
    exclusive_scan<<<1, 1024>>>(counts, RADIX * blocks);
    scatter<<<blocks, TPB>>>(a, b, counts, n, shift);
    std::swap(a, b);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), a, n * 4, cudaMemcpyDeviceToHost));
  std::sort(h.begin(), h.end());
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != out[i];
  printf("radix_sort_lsd: n=%d min=%u max=%u mismatches=%d\n", n, out[0], out[n - 1], bad);
  cudaFree(a); cudaFree(b); cudaFree(counts);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
