// cooperative_groups::binary_partition (CUDA 11) and cg::reduce on the group it returns: absent in HIP 5.2.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(const int *in, int *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[threadIdx.x];
  auto sub = cg::binary_partition(tile, v & 1);
  out[threadIdx.x] = cg::reduce(sub, v, cg::plus<int>());
}
