// cudaDeviceProp's layered-texture limits (HIP 5.2 lacks them). deviceQuery.cpp reads them in
// host code compiled by g++ against the shim toolkit's headers.
#include <cuda_runtime.h>
#include <cstdio>
int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("%d %d %d\n", p.maxTexture1DLayered[0], p.maxTexture2DLayered[0], p.maxTexture2DLayered[2]);
}
