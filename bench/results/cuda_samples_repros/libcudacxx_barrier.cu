// libcu++ (<cuda/barrier>, <cuda/pipeline>; CUDA's include/cuda/): no counterpart in ROCm 5.2,
// clang's bare "file not found" instead of a named reason.
#include <cuda/barrier>
__global__ void k(int *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = 1;
}
