// cass-bench: xcorr_lag
// domain: signal-fft
// features: 2d-grid, shared-memory-reduction, atomicMax, integer-arithmetic
// args:
// Integer cross-correlation of two noisy sequences over 256 lags (one block row per lag), then
// the best lag by a 64-bit atomicMax of (score << 16 | lag); the hidden shift must be found.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void xcorr(const int* a, const int* b, long long* score, int n, int max_lag) {
  __shared__ long long part[256];
  int lag = blockIdx.y;
  long long s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + lag < n; i += blockDim.x * gridDim.x) s += (long long)a[i] * b[i + lag];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (threadIdx.x < st) part[threadIdx.x] += part[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd((unsigned long long*)&score[lag], (unsigned long long)part[0]);
}

__global__ void best_lag(const long long* score, unsigned long long* best, int max_lag) {
  int lag = blockIdx.x * blockDim.x + threadIdx.x;
  if (lag >= max_lag) return;
  long long s = score[lag];
  unsigned long long key = ((unsigned long long)(s + (1ll << 40)) << 16) | (unsigned)lag;  // scores fit 41 bits
  atomicMax(best, key);
}

int main() {
  const int n = 1 << 16, max_lag = 256, shift = 137;
  std::vector<int> a(n), b(n);
  unsigned s = 271828u;
  for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; a[i] = (int)(s >> 24) - 128; }
  for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; b[i] = (i >= shift ? a[i - shift] : 0) + ((int)(s >> 27) - 16); }
  int *da, *db;
  long long* dscore;
  unsigned long long* dbest;
  CHECK(cudaMalloc(&da, n * 4));
  CHECK(cudaMalloc(&db, n * 4));
  CHECK(cudaMalloc(&dscore, max_lag * 8));
  CHECK(cudaMalloc(&dbest, 8));
  CHECK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dscore, 0, max_lag * 8));
  CHECK(cudaMemset(dbest, 0, 8));
  xcorr<<<dim3(16, max_lag), 256>>>(da, db, dscore, n, max_lag);
  best_lag<<<1, max_lag>>>(dscore, dbest, max_lag);
  CHECK(cudaGetLastError());
  std::vector<long long> score(max_lag);
  unsigned long long best = 0;
  CHECK(cudaMemcpy(score.data(), dscore, max_lag * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&best, dbest, 8, cudaMemcpyDeviceToHost));
  int bad = 0, ref_best = 0;
  for (int lag = 0; lag < max_lag; ++lag) {
    long long r = 0;
    for (int i = 0; i + lag < n; ++i) r += (long long)a[i] * b[i + lag];
    if (r != score[lag]) ++bad;
    if (r > score[ref_best] || (r == score[ref_best] && lag > ref_best)) ref_best = lag;
  }
  int found = (int)(best & 0xFFFF);
  printf("xcorr_lag: n=%d best_lag=%d score=%lld mismatches=%d\n", n, found, score[found], bad);
  cudaFree(da); cudaFree(db); cudaFree(dscore); cudaFree(dbest);
  bool ok = bad == 0 && found == shift && found == ref_best;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
