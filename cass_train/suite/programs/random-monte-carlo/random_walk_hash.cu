// cass-bench: random_walk_hash
// domain: random-monte-carlo
// features: own-rng, xorshift, integer-exact, atomicAdd, 2d-lattice
// args:
// 65536 independent 2D lattice random walks of 1000 steps with per-walker xorshift32 state;
// the end-point histogram of |x|+|y| and every walker's end point must match the host exactly.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__host__ __device__ inline unsigned xorshift(unsigned& s) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; }

__global__ void walk(int2* ends, unsigned* hist, int walkers, int steps) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= walkers) return;
  unsigned s = 0x9E3779B9u ^ (unsigned)(w * 2654435761u);
  if (s == 0) s = 1;
  int x = 0, y = 0;
  for (int i = 0; i < steps; ++i) {
    unsigned r = xorshift(s) >> 30;
    x += (r == 0) - (r == 1);
    y += (r == 2) - (r == 3);
  }
  ends[w] = make_int2(x, y);
  atomicAdd(&hist[min(abs(x) + abs(y), 127)], 1u);
}

int main() {
  const int walkers = 65536, steps = 1000;
  int2* de; unsigned* dh;
  CHECK(cudaMalloc(&de, walkers * sizeof(int2)));
  CHECK(cudaMalloc(&dh, 128 * 4));
  CHECK(cudaMemset(dh, 0, 128 * 4));
  walk<<<walkers / 256, 256>>>(de, dh, walkers, steps);
  CHECK(cudaGetLastError());
  std::vector<int2> ends(walkers);
  unsigned hist[128], ref[128] = {0};
  CHECK(cudaMemcpy(ends.data(), de, walkers * sizeof(int2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hist, dh, sizeof(hist), cudaMemcpyDeviceToHost));
  int bad = 0;
  long long r2 = 0;
  for (int w = 0; w < walkers; ++w) {
    unsigned s = 0x9E3779B9u ^ (unsigned)(w * 2654435761u);
    if (s == 0) s = 1;
    int x = 0, y = 0;
    for (int i = 0; i < steps; ++i) { unsigned r = xorshift(s) >> 30; x += (r == 0) - (r == 1); y += (r == 2) - (r == 3); }
    bad += ends[w].x != x || ends[w].y != y;
    int d = abs(x) + abs(y);
    ++ref[d < 127 ? d : 127];
    r2 += (long long)x * x + (long long)y * y;
  }
  for (int i = 0; i < 128; ++i) bad += hist[i] != ref[i];
  printf("random_walk_hash: walkers=%d steps=%d mean_r2=%.2f mismatches=%d\n", walkers, steps, (double)r2 / walkers, bad);
  cudaFree(de); cudaFree(dh);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
