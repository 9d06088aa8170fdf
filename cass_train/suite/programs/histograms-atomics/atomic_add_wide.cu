// cass-bench: atomic_add_wide
// domain: histograms-atomics
// features: atomicAdd-double, atomicAdd-u64, 64-bit-atomics, weighted-histogram
// args:
// A weighted 2D histogram with double atomicAdd and a 64-bit count with unsigned long long atomicAdd.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define NB 32

__global__ void hist2d(const float2* pts, const double* w, int n, double* bins, unsigned long long* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int bx = min((int)(pts[i].x * NB), NB - 1), by = min((int)(pts[i].y * NB), NB - 1);
  atomicAdd(&bins[by * NB + bx], w[i]);
  atomicAdd(count, (unsigned long long)(1ull << 33));  // counts beyond 32 bits
}

int main() {
  const int n = 2000000;
  std::vector<float2> pts(n);
  std::vector<double> w(n), bins(NB * NB), ref(NB * NB, 0.0);
  unsigned s = 321u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u; float x = (s >> 8) / 16777216.0f;
    s = s * 1664525u + 1013904223u; float y = (s >> 8) / 16777216.0f;
    pts[i] = make_float2(x, y * y);
    s = s * 1664525u + 1013904223u; w[i] = (s >> 16) / 64.0;  // multiples of 1/64: exact sums
  }
  for (int i = 0; i < n; ++i) {
    int bx = std::min((int)(pts[i].x * NB), NB - 1), by = std::min((int)(pts[i].y * NB), NB - 1);
    ref[by * NB + bx] += w[i];
  }
  float2* dp; double *dw, *db; unsigned long long* dc;
  CHECK(cudaMalloc(&dp, n * sizeof(float2))); CHECK(cudaMalloc(&dw, n * 8));
  CHECK(cudaMalloc(&db, NB * NB * 8)); CHECK(cudaMalloc(&dc, 8));
  CHECK(cudaMemcpy(dp, pts.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dw, w.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(db, 0, NB * NB * 8)); CHECK(cudaMemset(dc, 0, 8));
  hist2d<<<(n + 255) / 256, 256>>>(dp, dw, n, db, dc);
  CHECK(cudaGetLastError());
  unsigned long long count = 0;
  CHECK(cudaMemcpy(bins.data(), db, NB * NB * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&count, dc, 8, cudaMemcpyDeviceToHost));
  int bad = 0;
  double total = 0;
  for (int i = 0; i < NB * NB; ++i) { bad += bins[i] != ref[i]; total += bins[i]; }
  bad += count != ((unsigned long long)n << 33);
  printf("atomic_add_wide: n=%d total=%.4f count=%llu mismatches=%d\n", n, total, count, bad);
  cudaFree(dp); cudaFree(dw); cudaFree(db); cudaFree(dc);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
