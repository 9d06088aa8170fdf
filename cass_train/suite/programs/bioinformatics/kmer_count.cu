// cass-bench: kmer_count
// domain: bioinformatics
// features: 2-bit-encoding, atomicAdd, sliding-window, uint64, canonical-kmers
// args:
// Counts canonical 11-mers (min of a k-mer and its reverse complement, 2-bit packed) of a 2 Mbp
// synthetic genome into a dense 4^11 table with atomicAdd.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define K 11

__host__ __device__ inline unsigned canonical(const unsigned char* seq, int pos) {
  unsigned fw = 0, rc = 0;
  for (int i = 0; i < K; ++i) {
    unsigned c = seq[pos + i];
    fw = (fw << 2) | c;
    rc |= (3u - c) << (2 * i);
  }
  return fw < rc ? fw : rc;
}

__global__ void count(const unsigned char* seq, int n, unsigned* table) {
  int pos = blockIdx.x * blockDim.x + threadIdx.x;
  if (pos + K > n) return;
  atomicAdd(&table[canonical(seq, pos)], 1u);
}

int main() {
  const int n = 2000000;
  const unsigned T = 1u << (2 * K);
  std::vector<unsigned char> seq(n);
  unsigned s = 4u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    seq[i] = (i > 1000 && (s >> 29) == 0) ? seq[i - 1000] : (unsigned char)((s >> 24) & 3);  // some repeats
  }
  unsigned char* ds; unsigned* dt;
  CHECK(cudaMalloc(&ds, n)); CHECK(cudaMalloc(&dt, T * 4));
  CHECK(cudaMemcpy(ds, seq.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dt, 0, T * 4));
  count<<<(n + 255) / 256, 256>>>(ds, n, dt);
  CHECK(cudaGetLastError());
  std::vector<unsigned> table(T), ref(T, 0);
  CHECK(cudaMemcpy(table.data(), dt, T * 4, cudaMemcpyDeviceToHost));
  for (int pos = 0; pos + K <= n; ++pos) ++ref[canonical(seq.data(), pos)];
  int bad = 0; unsigned distinct = 0, maxc = 0;
  for (unsigned i = 0; i < T; ++i) { bad += table[i] != ref[i]; distinct += table[i] > 0; maxc = table[i] > maxc ? table[i] : maxc; }
  printf("kmer_count: n=%d k=%d distinct=%u max=%u mismatches=%d\n", n, K, distinct, maxc, bad);
  cudaFree(ds); cudaFree(dt);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
