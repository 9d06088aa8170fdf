#include "histogram.h"
#include <cuda_runtime.h>

__global__ void histo_kernel(const unsigned char* data, int n, unsigned int* bins) {
  __shared__ unsigned int local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int histogram256(const unsigned char* data, int n, unsigned int* bins) {
  unsigned char* d_data;
  unsigned int* d_bins;
  if (cudaMalloc(&d_data, n) != cudaSuccess) return -1;
  cudaMalloc(&d_bins, 256 * sizeof(unsigned int));
  cudaMemcpy(d_data, data, n, cudaMemcpyHostToDevice);
  cudaMemset(d_bins, 0, 256 * sizeof(unsigned int));
  histo_kernel<<<16, 128>>>(d_data, n, d_bins);
  cudaMemcpy(bins, d_bins, 256 * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  cudaFree(d_data);
  cudaFree(d_bins);
  return 0;
}
