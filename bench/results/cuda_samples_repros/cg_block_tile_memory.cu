// cooperative_groups::block_tile_memory<N> (CUDA 11.x, tiles larger than a warp): absent in HIP 5.2.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  out[0] = block.size();
}
