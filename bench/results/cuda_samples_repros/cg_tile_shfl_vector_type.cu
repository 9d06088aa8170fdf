// thread_block_tile::shfl_xor on a vector type (uint4): CUDA shuffles any trivially copyable T;
// HIP 5.2's cooperative groups static_assert "Neither an integer or float type".
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(uint4 *p) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  uint4 v = p[threadIdx.x];
  p[threadIdx.x] = tile.shfl_xor(v, 1);
}
