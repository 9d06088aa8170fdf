// Reads the SM id through inline PTX: nvcc builds it, the gfx1100 side cannot (test corpus).
#include <cstdio>

__global__ void where(unsigned *out) {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  out[blockIdx.x] = id;
}

int main() {
  unsigned *d;
  cudaMalloc(&d, 4 * sizeof(unsigned));
  where<<<4, 1>>>(d);
  unsigned h[4];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%u\nPASS\n", h[0] < 1024);
  return 0;
}
