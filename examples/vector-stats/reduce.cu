// reduce: shared memory, __syncthreads, warp shuffles, atomics, a stream and events.
#include <cstdio>
#include <cuda_runtime.h>
#include "ops.h"

constexpr int kBlock = 256;

__inline__ __device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void sum_kernel(const float* x, size_t n, float* partial) {
  __shared__ float warp_totals[kBlock / 32];
  float v = 0.0f;
  for (size_t i = blockIdx.x * (size_t)kBlock + threadIdx.x; i < n; i += (size_t)kBlock * gridDim.x)
    v += x[i];
  v = warp_sum(v);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < kBlock / 32 ? warp_totals[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) atomicAdd(partial, v);
  }
}

int gpu_sum(const float* x, size_t n, double* out) {
  float *dx = nullptr, *dsum = nullptr;
  cudaStream_t stream;
  cudaEvent_t start, stop;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaMalloc((void**)&dx, n * sizeof(float)));
  CHECK(cudaMalloc((void**)&dsum, sizeof(float)));
  CHECK(cudaMemcpyAsync(dx, x, n * sizeof(float), cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemsetAsync(dsum, 0, sizeof(float), stream));
  CHECK(cudaEventRecord(start, stream));
  sum_kernel<<<64, kBlock, 0, stream>>>(dx, n, dsum);
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaStreamSynchronize(stream));
  float ms = 0.0f, total = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(&total, dsum, sizeof(float), cudaMemcpyDeviceToHost));
  fprintf(stderr, "sum kernel: %.3f ms\n", ms);
  *out = total;
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dsum));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(stream));
  return 0;
}
