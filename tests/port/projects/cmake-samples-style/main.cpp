// A C++ file of the program calling the runtime API (compiled by the C++ compiler, not nvcc)
#include <cstdio>
#include <cuda_runtime.h>
int fill_and_sum(int n);
int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("no device");
    return 0;
  }
  std::printf("sum %d\n", fill_and_sum(256));
  return 0;
}
