// cass-bench: api_viaddmax
// domain: unknown-api
// features: __viaddmax_u32
// args:
// The niche of issue 24: __viaddmax_u32 (CUDA 12's DPX functions): max(a + b, c). The rules leave this for a model (a warning, no HIP rewrite).
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
  r = __viaddmax_u32(v & 0xffff, v >> 16, v * 40503u & 0x1ffff);
  out[i] = r;
}

unsigned ref(unsigned v) { unsigned s = (v & 0xffff) + (v >> 16), c = v * 40503u & 0x1ffff; return s > c ? s : c; }

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
  printf("api_viaddmax: %d values, checksum %.6e, %d wrong\n", N, sum, bad);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  if (bad) { printf("FAIL\n"); return 1; }
  printf("PASS\n");
  return 0;
}
