// cooperative_groups::labeled_partition (CUDA 11) and shfl on the coalesced group it returns: absent in HIP 5.2.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const int *in, int *out) {
  cg::coalesced_group active = cg::coalesced_threads();
  auto g = cg::labeled_partition(active, in[threadIdx.x]);
  out[threadIdx.x] = g.shfl(in[threadIdx.x], 0) + g.thread_rank();
}
