// cudaDeviceSetLimit: hipDeviceSetLimit arrives in HIP 5.3; cass-cc warns, renames anyway, clang fails.
#include <cuda_runtime.h>
int main() { return cudaDeviceSetLimit(cudaLimitMallocHeapSize, 128 << 20) != cudaSuccess; }
