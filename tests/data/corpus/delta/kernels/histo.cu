// Histogram with shared-memory atomics and a host check (test corpus).
#include <cstdio>

__global__ void histo(const unsigned char *data, int n, unsigned *bins) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = 1 << 16;
  unsigned char *h = new unsigned char[n];
  unsigned ref[256] = {0}, got[256];
  for (int i = 0; i < n; i++) { h[i] = (unsigned char)((i * 2654435761u) >> 24); ref[h[i]]++; }
  unsigned char *d; unsigned *bins;
  cudaMalloc(&d, n); cudaMalloc(&bins, sizeof got);
  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, sizeof got);
  histo<<<32, 256>>>(d, n, bins);
  cudaMemcpy(got, bins, sizeof got, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < 256; b++) bad += got[b] != ref[b];
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
