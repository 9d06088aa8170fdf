// cass-bench: ptx_dp4a
// domain: inline-ptx
// features: inline-ptx
// args:
// The niche of issue 24: inline PTX dp4a.u32.u32: four byte products summed onto an accumulator. The rules leave this for a model (a warning, no HIP rewrite).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define N 4096

__global__ void apply(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = in[i];
  unsigned r;
  unsigned b = v * 747796405u; asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(v), "r"(b), "r"(v >> 7));
  out[i] = r;
}

unsigned ref(unsigned v) { unsigned b = v * 747796405u, s = v >> 7; for (int k = 0; k < 4; ++k) s += ((v >> (8 * k)) & 255) * ((b >> (8 * k)) & 255); return s; }

int main() {
  static unsigned in[N];
  static unsigned out[N];
  unsigned s = 12345u;
  for (int i = 0; i < N; ++i) {  // xorshift inputs; floats in [-64, 64) with some exact zeros skipped
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    in[i] = (i % 61 == 0) ? 0u : s;
  }
  unsigned* din; unsigned* dout;
  CHECK(cudaMalloc(&din, sizeof(in)));
  CHECK(cudaMalloc(&dout, sizeof(out)));
  CHECK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
  apply<<<(N + 255) / 256, 256>>>(din, dout, N);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
  int bad = 0;
  double sum = 0;
  for (int i = 0; i < N; ++i) {
    unsigned want = ref(in[i]);
    if (out[i] != want) { if (bad < 4) printf("  %d: got %llx, want %llx\n", i, (unsigned long long)out[i], (unsigned long long)want); ++bad; }
    sum += (double)out[i];
  }
  printf("ptx_dp4a: %d values, checksum %.6e, %d wrong\n", N, sum, bad);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  if (bad) { printf("FAIL\n"); return 1; }
  printf("PASS\n");
  return 0;
}
