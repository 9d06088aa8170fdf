// cass-bench: curand_normal_philox
// domain: random-monte-carlo
// features: curand-device-api, Philox4_32_10, curand_normal4, skipahead, double-atomics
// needs: hiprand (curand_kernel.h -> hiprand/hiprand_kernel.h)
// args:
// Draws 2^22 normals with Philox (curand_normal4) and checks mean, variance and the fraction
// beyond 2 sigma against their sampling error.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <curand_kernel.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void moments(unsigned long long seed, int per_thread, double* sums) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t st;
  curand_init(seed, id, 0, &st);
  double s1 = 0, s2 = 0, tail = 0;
  for (int i = 0; i < per_thread; i += 4) {
    float4 v = curand_normal4(&st);
    float a[4] = {v.x, v.y, v.z, v.w};
    for (int k = 0; k < 4; ++k) { s1 += a[k]; s2 += (double)a[k] * a[k]; tail += fabsf(a[k]) > 2.0f; }
  }
  atomicAdd(&sums[0], s1);
  atomicAdd(&sums[1], s2);
  atomicAdd(&sums[2], tail);
}

int main() {
  const int blocks = 128, threads = 128, per_thread = 256;
  const double n = (double)blocks * threads * per_thread;
  double* d;
  CHECK(cudaMalloc(&d, 3 * 8));
  CHECK(cudaMemset(d, 0, 3 * 8));
  moments<<<blocks, threads>>>(42ull, per_thread, d);
  CHECK(cudaGetLastError());
  double h[3];
  CHECK(cudaMemcpy(h, d, 3 * 8, cudaMemcpyDeviceToHost));
  double mean = h[0] / n, var = h[1] / n - mean * mean, tail = h[2] / n;
  const double p2 = 0.0455002638963584;  // P(|Z| > 2)
  bool ok = fabs(mean) < 5 / sqrt(n) && fabs(var - 1) < 5 * sqrt(2.0 / n) && fabs(tail - p2) < 5 * sqrt(p2 * (1 - p2) / n);
  printf("curand_normal_philox: n=%.0f mean_ok=%d var_ok=%d tail_ok=%d\n", n, fabs(mean) < 5 / sqrt(n),
         fabs(var - 1) < 5 * sqrt(2.0 / n), fabs(tail - p2) < 5 * sqrt(p2 * (1 - p2) / n));
  cudaFree(d);
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
