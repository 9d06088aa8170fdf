// cass-bench: reduce_sum_template
// domain: reductions-scans
// features: shared-memory, templates, dynamic-shared-memory, grid-stride-loop, events
// args:
// Two-pass sum reduction of integers (exact) with a templated block size and dynamic shared memory.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

template <unsigned BLOCK, typename T>
__global__ void reduce(const T* in, T* out, int n) {
  extern __shared__ unsigned char smem_raw[];
  T* sdata = reinterpret_cast<T*>(smem_raw);
  T s = 0;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x) s += in[i];
  sdata[threadIdx.x] = s;
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) sdata[threadIdx.x] += sdata[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sdata[0];
}

int main() {
  const int n = 3000017;
  const unsigned B = 256;
  const int blocks = 120;
  std::vector<long long> h(n);
  unsigned s = 31337u;
  long long ref = 0;
  for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; h[i] = (long long)(s >> 16) - 32768; ref += h[i]; }
  long long *din, *dpart, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(long long)));
  CHECK(cudaMalloc(&dpart, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&dout, sizeof(long long)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a));
  reduce<B, long long><<<blocks, B, B * sizeof(long long)>>>(din, dpart, n);
  reduce<B, long long><<<1, B, B * sizeof(long long)>>>(dpart, dout, blocks);
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  long long got = 0;
  CHECK(cudaMemcpy(&got, dout, sizeof(long long), cudaMemcpyDeviceToHost));
  printf("kernel time: %.3f ms\n", ms);
  printf("reduce_sum_template: n=%d sum=%lld ref=%lld\n", n, got, ref);
  cudaFree(din); cudaFree(dpart); cudaFree(dout);
  printf(got == ref ? "PASS\n" : "FAIL\n");
  return got == ref ? 0 : 1;
}
