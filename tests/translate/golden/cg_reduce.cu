// cooperative_groups::reduce (CUDA 11+), which HIP 5.2 lacks.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void block_sum(const float* in, float* out, int* hi) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  float total = cg::reduce(warp, v, cg::plus<float>());
  int top = cg::reduce(warp, (int)v, cg::greater<int>());
  if (warp.thread_rank() == 0) {
    atomicAdd(out, total);
    atomicMax(hi, top);
  }
}
