// A CUDA program for the verify tests: a warp-shuffle reduction, shared memory, atomics.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void reduce(const float* in, float* out, int n) {
  __shared__ float warp_sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  float* h = (float*)malloc(n * sizeof(float));
  double expect = 0;
  for (int i = 0; i < n; ++i) { h[i] = (i % 13) * 0.25f; expect += h[i]; }
  float *in, *out, result = 0;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof(float));
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  cudaEventRecord(a);
  reduce<<<(n + 255) / 256, 256>>>(in, out, n);
  cudaEventRecord(b);
  cudaMemcpy(&result, out, sizeof(float), cudaMemcpyDeviceToHost);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  printf("n = %d\nsum = %.6e (expected %.6e)\nkernel time: %.3f ms\n", n, result, expect, ms);
  printf("%s\n", (result - expect) / expect < 1e-5 ? "PASS" : "FAIL");
  cudaFree(in); cudaFree(out); free(h);
  return 0;
}
