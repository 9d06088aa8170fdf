// cass-bench: cg_tile_scan_any
// domain: warp-cooperative
// features: cooperative-groups, tiled_partition-32, tile-shfl_up, tile-any, tile-ballot, meta_group_rank
// args:
// Inclusive scans within 32-thread cooperative-group tiles (tile.shfl_up), plus per-tile
// any/ballot votes and meta_group_rank; checked against the host.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void tile_scan(const int* in, int* out, int* flags, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  for (int o = 1; o < 32; o <<= 1) {
    int y = tile.shfl_up(v, o);
    if ((int)tile.thread_rank() >= o) v += y;
  }
  if (gid < n) out[gid] = v;
  int neg = tile.any(gid < n && in[gid] < 0);
  unsigned odd = tile.ballot(gid < n && (in[gid] & 1));
  if (tile.thread_rank() == 0) {
    int t = blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank();
    flags[t * 3 + 0] = neg;
    flags[t * 3 + 1] = (int)odd;
    flags[t * 3 + 2] = tile.meta_group_rank();
  }
}

int main() {
  const int n = 1 << 16, threads = 128, tiles = n / 32;
  std::vector<int> h(n), out(n), flags(tiles * 3);
  unsigned s = 77u;
  for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; h[i] = (i / 32) % 3 == 0 ? (int)(s >> 26) - 5 : (int)(s >> 26); }
  int *din, *dout, *df;
  CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dout, n * 4)); CHECK(cudaMalloc(&df, tiles * 12));
  CHECK(cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice));
  tile_scan<<<n / threads, threads>>>(din, dout, df, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(flags.data(), df, tiles * 12, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < tiles; ++t) {
    int acc = 0, neg = 0; unsigned odd = 0;
    for (int l = 0; l < 32; ++l) {
      int v = h[t * 32 + l];
      acc += v; bad += out[t * 32 + l] != acc;
      neg |= v < 0; if (v & 1) odd |= 1u << l;
    }
    bad += (flags[t * 3] != 0) != (neg != 0) || (unsigned)flags[t * 3 + 1] != odd || flags[t * 3 + 2] != t % (threads / 32);
  }
  printf("cg_tile_scan_any: n=%d tiles=%d last=%d mismatches=%d\n", n, tiles, out[n - 1], bad);
  cudaFree(din); cudaFree(dout); cudaFree(df);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
