// After a cg::reduce over a 16-lane tile whose sum nvcc drops, sm_90's code keeps the tile's
// WARPSYNC.EXCLUSIVE and no BSYNC ends it: each tile then runs as if its lanes were the warp's
// only active ones (fuzz r3:2066: each tile's leader added its tile's share of an aggregated
// atomicAdd). tile_votes is the kernel an H200 ran (test_emu.py holds what it gave);
// tile_loop adds a loop over the active mask's bits inside the tile (BSSY/BSYNC there).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void tile_votes(const unsigned* in, unsigned* out) {
  unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid, lane = tid & 31u;
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  int dead = cg::reduce(t, (int)gid, cg::plus<int>());
  unsigned m = __activemask();
  atomicAdd(out + 1000, in[gid] + lane);
  out[3 * gid] = m;
  out[3 * gid + 1] = __reduce_add_sync(m, lane + 1u);
  out[3 * gid + 2] = __ballot_sync(m, lane & 1u);
}

extern "C" __global__ void tile_loop(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t, lane = t & 31u, v = in[i];
  cg::thread_block_tile<16> g = cg::tiled_partition<16>(cg::this_thread_block());
  int dead = cg::reduce(g, (int)i, cg::plus<int>());
  unsigned m = __activemask(), s = 0;
  atomicAdd(out + 2 * gridDim.x * blockDim.x, v + lane);
  for (unsigned b = m; b; b &= b - 1) s += __ffs(b);
  out[2 * i] = __reduce_add_sync(m, 1u) == (unsigned)__popc(m);
  out[2 * i + 1] = __reduce_add_sync(m, lane + 1u) - s;
}
