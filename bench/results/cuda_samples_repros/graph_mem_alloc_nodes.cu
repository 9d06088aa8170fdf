// Graph memory nodes (cudaMemAllocNodeParams, cudaGraphAddMemAllocNode/FreeNode, CUDA 11.4): not in HIP 5.2.
#include <cuda_runtime.h>
int main() {
  cudaGraph_t g; cudaGraphNode_t a, f;
  cudaGraphCreate(&g, 0);
  cudaMemAllocNodeParams p = {};
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.bytesize = 1 << 20;
  cudaGraphAddMemAllocNode(&a, g, nullptr, 0, &p);
  return cudaGraphAddMemFreeNode(&f, g, &a, 1, p.dptr) != cudaSuccess;
}
