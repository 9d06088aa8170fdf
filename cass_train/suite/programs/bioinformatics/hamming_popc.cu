// cass-bench: hamming_popc
// domain: bioinformatics
// features: __popcll, __clz, __ffs, bit-packing, uint64, shared-memory-queries
// args:
// All-against-all Hamming distances between 1024 reads and 256 probes (256 bp, 2 bits per base,
// packed in uint64) via __popcll; for each read the nearest probe, its distance, and the first
// mismatching base (__ffsll) are compared with the host.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define WORDS 8                      // 256 bases * 2 bits / 64
#define LOW 0x5555555555555555ull    // the low bit of each 2-bit base

__host__ __device__ inline int base_mismatches(unsigned long long x) {  // x = a ^ b
  unsigned long long m = (x | (x >> 1)) & LOW;
#ifdef __CUDA_ARCH__
  return __popcll(m);
#else
  return __builtin_popcountll(m);
#endif
}

__global__ void nearest(const unsigned long long* reads, const unsigned long long* probes, int nr, int np, int3* out) {
  __shared__ unsigned long long sp[64 * WORDS];
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long mine[WORDS];
  for (int w = 0; w < WORDS; ++w) mine[w] = r < nr ? reads[(size_t)r * WORDS + w] : 0ull;
  int best = 1 << 30, arg = -1, first = -1;
  for (int base = 0; base < np; base += 64) {
    for (int i = threadIdx.x; i < 64 * WORDS; i += blockDim.x) sp[i] = probes[(size_t)base * WORDS + i];
    __syncthreads();
    for (int p = 0; p < 64; ++p) {
      int d = 0, f = -1;
      for (int w = 0; w < WORDS; ++w) {
        unsigned long long x = mine[w] ^ sp[p * WORDS + w];
        d += base_mismatches(x);
        if (f < 0 && x) f = w * 32 + (__ffsll((long long)x) - 1) / 2;
      }
      if (d < best) { best = d; arg = base + p; first = f; }
    }
    __syncthreads();
  }
  if (r < nr) out[r] = make_int3(arg, best, first + (__clz(1) - 31));  // __clz(1) == 31
}

int main() {
  const int nr = 1024, np = 256;
  std::vector<unsigned long long> reads((size_t)nr * WORDS), probes((size_t)np * WORDS);
  unsigned long long s = 88172645463325252ull;
  auto r = [&]() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };
  for (auto& v : probes) v = r();
  for (int i = 0; i < nr; ++i)
    for (int w = 0; w < WORDS; ++w) {
      unsigned long long noise = r() & r() & r() & r();  // about 1 bit in 16 flipped
      reads[(size_t)i * WORDS + w] = probes[(size_t)(i % np) * WORDS + w] ^ noise;
    }
  unsigned long long *dr, *dp; int3* dout;
  CHECK(cudaMalloc(&dr, reads.size() * 8)); CHECK(cudaMalloc(&dp, probes.size() * 8)); CHECK(cudaMalloc(&dout, nr * sizeof(int3)));
  CHECK(cudaMemcpy(dr, reads.data(), reads.size() * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dp, probes.data(), probes.size() * 8, cudaMemcpyHostToDevice));
  nearest<<<nr / 128, 128>>>(dr, dp, nr, np, dout);
  CHECK(cudaGetLastError());
  std::vector<int3> out(nr);
  CHECK(cudaMemcpy(out.data(), dout, nr * sizeof(int3), cudaMemcpyDeviceToHost));
  int bad = 0; long long total = 0;
  for (int i = 0; i < nr; ++i) {
    int best = 1 << 30, arg = -1, first = -1;
    for (int p = 0; p < np; ++p) {
      int d = 0, f = -1;
      for (int w = 0; w < WORDS; ++w) {
        unsigned long long x = reads[(size_t)i * WORDS + w] ^ probes[(size_t)p * WORDS + w];
        d += base_mismatches(x);
        if (f < 0 && x) f = w * 32 + __builtin_ctzll(x) / 2;
      }
      if (d < best) { best = d; arg = p; first = f; }
    }
    bad += out[i].x != arg || out[i].y != best || out[i].z != first;
    total += best;
  }
  printf("hamming_popc: reads=%d probes=%d total_distance=%lld mismatches=%d\n", nr, np, total, bad);
  cudaFree(dr); cudaFree(dp); cudaFree(dout);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
