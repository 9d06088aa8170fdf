// cudaStreamWaitEvent(stream, event): CUDA 12's runtime header gives flags a default (0); HIP 5.2 does not.
#include <cuda_runtime.h>
int main() {
  cudaStream_t s; cudaEvent_t e;
  cudaStreamCreate(&s); cudaEventCreate(&e);
  return cudaStreamWaitEvent(s, e) != cudaSuccess;
}
