// cass-bench: nw_antidiagonal
// domain: bioinformatics
// features: wavefront, anti-diagonal-parallelism, shared-memory, syncthreads-in-loops, substitution-matrix
// args:
// Needleman-Wunsch global alignment of one protein-like pair per block (length 512 x 480):
// threads sweep anti-diagonals keeping the last two diagonals in shared memory; the BLOSUM-like
// scores come from a small __constant__ table.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define ALPHA 8
#define MAXL 512
#define GAP (-3)
__constant__ int c_sub[ALPHA * ALPHA];

// Diagonal d holds cells (i, j) with i + j = d, indexed by i. Three rolling diagonals.
__global__ void nw(const unsigned char* A, const unsigned char* B, int la, int lb, int* score) {
  __shared__ int dg[3][MAXL + 1];
  const unsigned char* a = A + (size_t)blockIdx.x * MAXL;
  const unsigned char* b = B + (size_t)blockIdx.x * MAXL;
  for (int d = 0; d <= la + lb; ++d) {
    int cur = d % 3, p1 = (d + 2) % 3, p2 = (d + 1) % 3;
    for (int i = threadIdx.x; i <= la; i += blockDim.x) {
      int j = d - i;
      if (j < 0 || j > lb) continue;
      int v;
      if (i == 0) v = j * GAP;
      else if (j == 0) v = i * GAP;
      else {
        int diag = dg[p2][i - 1] + c_sub[a[i - 1] * ALPHA + b[j - 1]];
        int up = dg[p1][i - 1] + GAP;  // (i-1, j)
        int left = dg[p1][i] + GAP;    // (i, j-1)
        v = max(diag, max(up, left));
      }
      dg[cur][i] = v;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) score[blockIdx.x] = dg[(la + lb) % 3][la];
}

int main() {
  const int pairs = 64, la = 512, lb = 480;
  int sub[ALPHA * ALPHA];
  for (int x = 0; x < ALPHA; ++x) for (int y = 0; y < ALPHA; ++y) sub[x * ALPHA + y] = x == y ? 5 : ((x ^ y) == 1 ? 1 : -2);
  std::vector<unsigned char> A((size_t)pairs * MAXL), B((size_t)pairs * MAXL);
  unsigned s = 7u;
  for (int p = 0; p < pairs; ++p) {
    for (int i = 0; i < la; ++i) { s = s * 1664525u + 1013904223u; A[(size_t)p * MAXL + i] = (s >> 24) % ALPHA; }
    for (int j = 0; j < lb; ++j) { s = s * 1664525u + 1013904223u; B[(size_t)p * MAXL + j] = (s >> 28) < 11 ? A[(size_t)p * MAXL + j + (p % 20)] : (s >> 8) % ALPHA; }
  }
  CHECK(cudaMemcpyToSymbol(c_sub, sub, sizeof(sub)));
  unsigned char *dA, *dB; int* ds;
  CHECK(cudaMalloc(&dA, A.size())); CHECK(cudaMalloc(&dB, B.size())); CHECK(cudaMalloc(&ds, pairs * 4));
  CHECK(cudaMemcpy(dA, A.data(), A.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size(), cudaMemcpyHostToDevice));
  nw<<<pairs, 256>>>(dA, dB, la, lb, ds);
  CHECK(cudaGetLastError());
  std::vector<int> score(pairs);
  CHECK(cudaMemcpy(score.data(), ds, pairs * 4, cudaMemcpyDeviceToHost));
  int bad = 0; long long total = 0;
  std::vector<int> prev(lb + 1), row(lb + 1);
  for (int p = 0; p < pairs; ++p) {
    for (int j = 0; j <= lb; ++j) prev[j] = j * GAP;
    for (int i = 1; i <= la; ++i) {
      row[0] = i * GAP;
      for (int j = 1; j <= lb; ++j)
        row[j] = std::max(prev[j - 1] + sub[A[(size_t)p * MAXL + i - 1] * ALPHA + B[(size_t)p * MAXL + j - 1]], std::max(prev[j] + GAP, row[j - 1] + GAP));
      prev.swap(row);
    }
    bad += score[p] != prev[lb];
    total += score[p];
  }
  printf("nw_antidiagonal: pairs=%d %dx%d total=%lld mismatches=%d\n", pairs, la, lb, total, bad);
  cudaFree(dA); cudaFree(dB); cudaFree(ds);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
