// Conditional graph nodes (CUDA 12.3: cudaGraphConditionalHandle, cudaGraphNodeParams): not in HIP 5.2.
#include <cuda_runtime.h>
__global__ void setc(cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, 1); }
int main() {
  cudaGraph_t g; cudaGraphConditionalHandle h;
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault);
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  return p.conditional.size != 1;  // (cudaGraphAddNode's signature differs between CUDA 12 and 13)
}
