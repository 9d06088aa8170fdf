// cuda_runtime.h's C++ overload cudaEventCreate(event, flags) (= cudaEventCreateWithFlags).
#include <cuda_runtime.h>
int main() {
  cudaEvent_t e;
  return cudaEventCreate(&e, cudaEventDisableTiming | cudaEventInterprocess) != cudaSuccess;
}
