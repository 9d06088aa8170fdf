// cass-bench: curand_pi_xorwow
// domain: random-monte-carlo
// features: curand-device-api, curand_init, curand_uniform, XORWOW, shared-memory-reduction
// needs: hiprand (curand_kernel.h -> hiprand/hiprand_kernel.h)
// args:
// Estimates pi with 2^24 points from per-thread XORWOW states (curand_init with subsequences);
// the estimate must land within 4 standard errors, and every state must give numbers in (0, 1].
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <curand_kernel.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void pi_kernel(unsigned long long seed, int per_thread, unsigned long long* hits, int* out_of_range) {
  __shared__ unsigned part[256];
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed, id, 0, &st);
  unsigned h = 0;
  for (int i = 0; i < per_thread; ++i) {
    float x = curand_uniform(&st), y = curand_uniform(&st);
    if (x <= 0.0f || x > 1.0f) atomicAdd(out_of_range, 1);
    h += x * x + y * y <= 1.0f;
  }
  part[threadIdx.x] = h;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s]; __syncthreads(); }
  if (threadIdx.x == 0) atomicAdd(hits, (unsigned long long)part[0]);
}

int main() {
  const int blocks = 64, threads = 256, per_thread = 1024;
  const double total = (double)blocks * threads * per_thread;
  unsigned long long* dh;
  int* dbad;
  CHECK(cudaMalloc(&dh, 8));
  CHECK(cudaMalloc(&dbad, 4));
  CHECK(cudaMemset(dh, 0, 8));
  CHECK(cudaMemset(dbad, 0, 4));
  pi_kernel<<<blocks, threads>>>(1234ull, per_thread, dh, dbad);
  CHECK(cudaGetLastError());
  unsigned long long hits = 0;
  int bad = 0;
  CHECK(cudaMemcpy(&hits, dh, 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&bad, dbad, 4, cudaMemcpyDeviceToHost));
  double p = hits / total, pi = 4.0 * p, se = 4.0 * sqrt(p * (1 - p) / total);
  printf("curand_pi_xorwow: samples=%.0f pi~%.3f within4se=%d out_of_range=%d\n", total, pi, fabs(pi - M_PI) < 4 * se, bad);
  cudaFree(dh); cudaFree(dbad);
  bool ok = fabs(pi - M_PI) < 4 * se && bad == 0;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
