// cass-bench: atomic_inc_ring
// domain: histograms-atomics
// features: atomicInc, atomicExch, atomicOr, atomicXor, atomicSub, wrap-around-counter
// args:
// A ring-buffer slot allocator with atomicInc (wrapping), a bitmap with atomicOr, a parity word
// with atomicXor and a budget counter with atomicSub; every result is order-independent.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define RING 1000

__global__ void work(const unsigned* items, int n, unsigned* ring_pos, unsigned* slots, unsigned* bitmap,
                     unsigned* parity, int* budget, unsigned* last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = items[i];
  unsigned slot = atomicInc(ring_pos, RING - 1);  // 0..RING-1 then wraps to 0
  atomicAdd(&slots[slot], 1u);
  atomicOr(&bitmap[(v >> 5) & 1023], 1u << (v & 31));
  atomicXor(parity, v);
  atomicSub(budget, (int)(v & 7));
  atomicExch(last, 0xC0FFEEu);
}

int main() {
  const int n = 777777;
  std::vector<unsigned> items(n);
  unsigned s = 99u;
  for (auto& v : items) { s = s * 1664525u + 1013904223u; v = s; }
  unsigned ref_bitmap[1024] = {0}, ref_parity = 0;
  long long ref_budget = 10000000;
  for (unsigned v : items) { ref_bitmap[(v >> 5) & 1023] |= 1u << (v & 31); ref_parity ^= v; ref_budget -= v & 7; }
  unsigned *di, *dpos, *dslots, *dbits, *dpar, *dlast;
  int* dbud;
  CHECK(cudaMalloc(&di, n * 4)); CHECK(cudaMalloc(&dpos, 4)); CHECK(cudaMalloc(&dslots, RING * 4));
  CHECK(cudaMalloc(&dbits, 1024 * 4)); CHECK(cudaMalloc(&dpar, 4)); CHECK(cudaMalloc(&dbud, 4)); CHECK(cudaMalloc(&dlast, 4));
  CHECK(cudaMemcpy(di, items.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dpos, 0, 4)); CHECK(cudaMemset(dslots, 0, RING * 4)); CHECK(cudaMemset(dbits, 0, 4096));
  CHECK(cudaMemset(dpar, 0, 4)); CHECK(cudaMemset(dlast, 0, 4));
  int budget = 10000000;
  CHECK(cudaMemcpy(dbud, &budget, 4, cudaMemcpyHostToDevice));
  work<<<(n + 255) / 256, 256>>>(di, n, dpos, dslots, dbits, dpar, dbud, dlast);
  CHECK(cudaGetLastError());
  unsigned pos, slots[RING], bits[1024], parity, last;
  CHECK(cudaMemcpy(&pos, dpos, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(slots, dslots, sizeof(slots), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bits, dbits, sizeof(bits), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&parity, dpar, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&budget, dbud, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&last, dlast, 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int k = 0; k < RING; ++k) bad += slots[k] != (unsigned)(n / RING + (k < n % RING ? 1 : 0));
  for (int k = 0; k < 1024; ++k) bad += bits[k] != ref_bitmap[k];
  bad += pos != (unsigned)(n % RING);
  bad += parity != ref_parity;
  bad += budget != ref_budget;
  bad += last != 0xC0FFEEu;
  printf("atomic_inc_ring: n=%d pos=%u parity=%08x budget=%d mismatches=%d\n", n, pos, parity, budget, bad);
  cudaFree(di); cudaFree(dpos); cudaFree(dslots); cudaFree(dbits); cudaFree(dpar); cudaFree(dbud); cudaFree(dlast);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
