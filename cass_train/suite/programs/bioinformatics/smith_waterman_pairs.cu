// cass-bench: smith_waterman_pairs
// domain: bioinformatics
// features: dynamic-programming, local-memory-rows, one-thread-per-pair, integer-max
// args:
// Smith-Waterman local alignment scores (match +2, mismatch -1, linear gap -2) of 2048 read
// pairs of length <= 128, one thread per pair with a rolling DP row.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define L 128

__host__ __device__ int sw_score(const char* a, int la, const char* b, int lb) {
  int row[L + 1];
  for (int j = 0; j <= lb; ++j) row[j] = 0;
  int best = 0;
  for (int i = 1; i <= la; ++i) {
    int diag = 0, left = 0;
    for (int j = 1; j <= lb; ++j) {
      int up = row[j];
      int h = diag + (a[i - 1] == b[j - 1] ? 2 : -1);
      h = max(h, up - 2);
      h = max(h, left - 2);
      h = max(h, 0);
      diag = up;
      row[j] = h;
      left = h;
      best = max(best, h);
    }
  }
  return best;
}

__global__ void align(const char* A, const char* B, const int* la, const int* lb, int* score, int n) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) score[p] = sw_score(A + (size_t)p * L, la[p], B + (size_t)p * L, lb[p]);
}

int main() {
  const int n = 2048;
  std::vector<char> A((size_t)n * L), B((size_t)n * L);
  std::vector<int> la(n), lb(n), score(n);
  const char* nt = "ACGT";
  unsigned s = 9u;
  auto r = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
  for (int p = 0; p < n; ++p) {
    la[p] = 64 + r() % 65; lb[p] = 64 + r() % 65;
    for (int i = 0; i < la[p]; ++i) A[(size_t)p * L + i] = nt[r() & 3];
    for (int j = 0; j < lb[p]; ++j) B[(size_t)p * L + j] = (r() % 4 == 0) ? nt[r() & 3] : A[(size_t)p * L + (j * 3 + p) % la[p]];
  }
  char *dA, *dB; int *dla, *dlb, *ds;
  CHECK(cudaMalloc(&dA, A.size())); CHECK(cudaMalloc(&dB, B.size()));
  CHECK(cudaMalloc(&dla, n * 4)); CHECK(cudaMalloc(&dlb, n * 4)); CHECK(cudaMalloc(&ds, n * 4));
  CHECK(cudaMemcpy(dA, A.data(), A.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dla, la.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dlb, lb.data(), n * 4, cudaMemcpyHostToDevice));
  align<<<(n + 63) / 64, 64>>>(dA, dB, dla, dlb, ds, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(score.data(), ds, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0; long long total = 0;
  for (int p = 0; p < n; ++p) { bad += score[p] != sw_score(&A[(size_t)p * L], la[p], &B[(size_t)p * L], lb[p]); total += score[p]; }
  printf("smith_waterman_pairs: pairs=%d total=%lld mismatches=%d\n", n, total, bad);
  cudaFree(dA); cudaFree(dB); cudaFree(dla); cudaFree(dlb); cudaFree(ds);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
