// Stream attributes and L2 persistence (CUDA 11): HIP 5.2 has none; clang's raw errors follow
// cass-cc's "not supported" warnings (hints that could be served as no-ops, or one named error).
#include <cuda_runtime.h>
int main() {
  cudaStreamAttrValue value = {};
  cudaStreamAttrID id = cudaStreamAttributeAccessPolicyWindow;
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
  cudaStreamSetAttribute(0, id, &value);
  return cudaCtxResetPersistingL2Cache() != cudaSuccess;
}
