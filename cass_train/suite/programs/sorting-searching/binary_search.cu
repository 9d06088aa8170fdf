// cass-bench: binary_search
// domain: sorting-searching
// features: __ldg, device-functions, templates, read-only-cache
// emu: search grid=1 block=256 args=i32[1000];i32:1000;i32[256];i32[512]=0;i32:256
// args:
// lower_bound and upper_bound for 500k queries in a sorted array of 1M keys with duplicates.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

template <bool UPPER>
__device__ int bound(const int* __restrict__ a, int n, int key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + ((hi - lo) >> 1);
    int v = __ldg(&a[mid]);
    if (UPPER ? (v <= key) : (v < key)) lo = mid + 1; else hi = mid;
  }
  return lo;
}

__global__ void search(const int* __restrict__ a, int n, const int* q, int2* res, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) res[i] = make_int2(bound<false>(a, n, q[i]), bound<true>(a, n, q[i]));
}

int main() {
  const int n = 1 << 20, m = 500000;
  std::vector<int> a(n), q(m);
  std::vector<int2> res(m);
  unsigned s = 2468u;
  for (auto& v : a) { s = s * 1664525u + 1013904223u; v = (int)(s >> 12); }  // ~1M values in [0, 2^20): duplicates
  std::sort(a.begin(), a.end());
  for (auto& v : q) { s = s * 1664525u + 1013904223u; v = (int)(s >> 12) - 1000; }
  int *da, *dq;
  int2* dr;
  CHECK(cudaMalloc(&da, n * 4));
  CHECK(cudaMalloc(&dq, m * 4));
  CHECK(cudaMalloc(&dr, m * sizeof(int2)));
  CHECK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dq, q.data(), m * 4, cudaMemcpyHostToDevice));
  search<<<(m + 255) / 256, 256>>>(da, n, dq, dr, m);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(res.data(), dr, m * sizeof(int2), cudaMemcpyDeviceToHost));
  int bad = 0;
  long long found = 0;
  for (int i = 0; i < m; ++i) {
    int lo = (int)(std::lower_bound(a.begin(), a.end(), q[i]) - a.begin());
    int hi = (int)(std::upper_bound(a.begin(), a.end(), q[i]) - a.begin());
    if (res[i].x != lo || res[i].y != hi) ++bad;
    found += hi - lo;
  }
  printf("binary_search: n=%d queries=%d matches=%lld mismatches=%d\n", n, m, found, bad);
  cudaFree(da); cudaFree(dq); cudaFree(dr);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
