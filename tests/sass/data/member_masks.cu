// sm_80/sm_89 code for collectives whose member mask the compiler cannot see as constant: a 16-lane
// tile's cg::reduce (sm_80/89: BRA on a uniform register, WARPSYNC.EXCLUSIVE) and __reduce_add_sync
// with a mask read from memory (R2UR to a predicate: is the mask warp-uniform?).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void tile_reduce(const int* in, int* out) {
  auto t = cg::tiled_partition<16>(cg::this_thread_block());
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = cg::reduce(t, in[i], cg::plus<int>());
}

extern "C" __global__ void masked_reduce(const int* in, const unsigned* masks, int* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, m = masks[i];
  out[i] = -1;
  if ((m >> (threadIdx.x & 31u)) & 1u) out[i] = __reduce_add_sync(m, in[i]);
}
