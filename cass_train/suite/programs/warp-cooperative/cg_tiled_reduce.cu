// cass-bench: cg_tiled_reduce
// domain: warp-cooperative
// features: cooperative-groups, thread_block, tiled_partition, thread_block_tile-shfl_down, sync
// args:
// Per-tile sums with cooperative_groups::tiled_partition<16>: each 16-thread tile reduces its
// values with tile.shfl_down, tile leaders combine through shared memory after block.sync().
#include <cstdio>
#include <vector>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void tile_sums(const int* in, int* tile_out, int* block_out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  __shared__ int partial[64];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  for (int o = tile.size() / 2; o > 0; o >>= 1) v += tile.shfl_down(v, o);
  int tile_id = threadIdx.x / 16;
  if (tile.thread_rank() == 0) {
    partial[tile_id] = v;
    tile_out[blockIdx.x * (blockDim.x / 16) + tile_id] = v;
  }
  block.sync();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int t = 0; t < (int)(blockDim.x / 16); ++t) s += partial[t];
    block_out[blockIdx.x] = s;
  }
}

int main() {
  const int n = 1 << 20, threads = 256, blocks = n / threads, tiles = n / 16;
  std::vector<int> h(n), t(tiles), b(blocks);
  unsigned s = 3u;
  for (auto& v : h) { s = s * 1664525u + 1013904223u; v = (int)(s >> 22) - 512; }
  int *din, *dt, *db;
  CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dt, tiles * 4)); CHECK(cudaMalloc(&db, blocks * 4));
  CHECK(cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice));
  tile_sums<<<blocks, threads>>>(din, dt, db, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(t.data(), dt, tiles * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b.data(), db, blocks * 4, cudaMemcpyDeviceToHost));
  int bad = 0; long long total = 0;
  for (int i = 0; i < tiles; ++i) { int r = 0; for (int k = 0; k < 16; ++k) r += h[i * 16 + k]; bad += t[i] != r; }
  for (int i = 0; i < blocks; ++i) { int r = 0; for (int k = 0; k < threads; ++k) r += h[i * threads + k]; bad += b[i] != r; total += b[i]; }
  printf("cg_tiled_reduce: n=%d tiles=%d total=%lld mismatches=%d\n", n, tiles, total, bad);
  cudaFree(din); cudaFree(dt); cudaFree(db);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
