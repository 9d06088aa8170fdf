// Host code, compiled by the C++ compiler against the toolkit's <cuda_runtime.h>.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

cudaError_t scale(float* d_x, float a, int n);

int main() {
  const int n = 1000;
  std::vector<float> x(n, 2.0f);
  float* d_x = nullptr;
  cudaError_t err = cudaMalloc(&d_x, n * sizeof(float));
  if (err != cudaSuccess) {
    std::printf("no GPU: %s\n", cudaGetErrorString(err));
    return 0;
  }
  cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale(d_x, 3.0f, n);
  cudaMemcpy(x.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  std::printf("x[%d] = %g\n", n - 1, x[n - 1]);
  return x[n - 1] == 6.0f ? 0 : 1;
}
