// cass-bench: murmur3_hashtable
// domain: crypto-hashing
// features: atomicCAS, open-addressing, murmur3-finalizer, lookups, device-functions
// args:
// Inserts 400k distinct keys into an open-addressing hash table (linear probing, atomicCAS on
// empty slots, murmur3 fmix32), then looks up present and absent keys.
#include <cstdio>
#include <unordered_set>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define EMPTY 0xFFFFFFFFu

__host__ __device__ inline unsigned fmix32(unsigned h) {
  h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
  return h;
}

__global__ void insert(const unsigned* keys, const unsigned* vals, int n, unsigned* tk, unsigned* tv, unsigned cap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned k = keys[i], slot = fmix32(k) & (cap - 1);
  while (true) {
    unsigned prev = atomicCAS(&tk[slot], EMPTY, k);
    if (prev == EMPTY || prev == k) { tv[slot] = vals[i]; return; }
    slot = (slot + 1) & (cap - 1);
  }
}

__global__ void lookup(const unsigned* q, int m, const unsigned* tk, const unsigned* tv, unsigned cap, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  unsigned k = q[i], slot = fmix32(k) & (cap - 1);
  while (true) {
    unsigned t = tk[slot];
    if (t == k) { out[i] = tv[slot]; return; }
    if (t == EMPTY) { out[i] = EMPTY; return; }
    slot = (slot + 1) & (cap - 1);
  }
}

int main() {
  const int n = 400000;
  const unsigned cap = 1u << 20;
  std::vector<unsigned> keys, vals;
  std::unordered_set<unsigned> seen;
  unsigned s = 12u;
  while ((int)keys.size() < n) { s = s * 1664525u + 1013904223u; unsigned k = s & 0x7FFFFFFFu; if (seen.insert(k).second) { keys.push_back(k); vals.push_back(k * 2654435761u); } }
  std::vector<unsigned> q(2 * n);
  for (int i = 0; i < n; ++i) q[i] = keys[i];
  for (int i = n; i < 2 * n; ++i) q[i] = keys[i - n] | 0x80000000u;  // never inserted
  unsigned *dk, *dv, *tk, *tv, *dq, *dout;
  CHECK(cudaMalloc(&dk, n * 4)); CHECK(cudaMalloc(&dv, n * 4)); CHECK(cudaMalloc(&tk, cap * 4)); CHECK(cudaMalloc(&tv, cap * 4));
  CHECK(cudaMalloc(&dq, 2 * n * 4)); CHECK(cudaMalloc(&dout, 2 * n * 4));
  CHECK(cudaMemcpy(dk, keys.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, vals.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dq, q.data(), 2 * n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(tk, 0xFF, cap * 4));
  insert<<<(n + 255) / 256, 256>>>(dk, dv, n, tk, tv, cap);
  lookup<<<(2 * n + 255) / 256, 256>>>(dq, 2 * n, tk, tv, cap, dout);
  CHECK(cudaGetLastError());
  std::vector<unsigned> out(2 * n);
  CHECK(cudaMemcpy(out.data(), dout, 2 * n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += out[i] != vals[i];
  for (int i = n; i < 2 * n; ++i) bad += out[i] != EMPTY;
  printf("murmur3_hashtable: keys=%d capacity=%u mismatches=%d\n", n, cap, bad);
  cudaFree(dk); cudaFree(dv); cudaFree(tk); cudaFree(tv); cudaFree(dq); cudaFree(dout);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
