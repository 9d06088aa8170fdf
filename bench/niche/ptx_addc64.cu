// cass-bench: ptx_addc64
// domain: inline-ptx
// features: inline-ptx
// args:
// The niche of issue 24: inline PTX add.cc.u32/addc.u32: a 64-bit sum through the carry flag. The rules leave this for a model (a warning, no HIP rewrite).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define N 4096

__global__ void apply(const unsigned long long* in, unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long v = in[i];
  unsigned long long r;
  unsigned long long w = v * 0x9E3779B97F4A7C15ull; unsigned lo, hi; asm("add.cc.u32 %0, %2, %4;\n\taddc.u32 %1, %3, %5;" : "=r"(lo), "=r"(hi) : "r"((unsigned)v), "r"((unsigned)(v >> 32)), "r"((unsigned)w), "r"((unsigned)(w >> 32))); r = ((unsigned long long)hi << 32) | lo;
  out[i] = r;
}

unsigned long long ref(unsigned long long v) { return v + v * 0x9E3779B97F4A7C15ull; }

int main() {
  static unsigned long long in[N];
  static unsigned long long out[N];
  unsigned s = 12345u;
  for (int i = 0; i < N; ++i) {  // xorshift inputs; floats in [-64, 64) with some exact zeros skipped
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    in[i] = ((unsigned long long)s << 32) | (s * 2654435761u);
  }
  unsigned long long* din; unsigned long long* dout;
  CHECK(cudaMalloc(&din, sizeof(in)));
  CHECK(cudaMalloc(&dout, sizeof(out)));
  CHECK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
  apply<<<(N + 255) / 256, 256>>>(din, dout, N);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
  int bad = 0;
  double sum = 0;
  for (int i = 0; i < N; ++i) {
    unsigned long long want = ref(in[i]);
    if (out[i] != want) { if (bad < 4) printf("  %d: got %llx, want %llx\n", i, (unsigned long long)out[i], (unsigned long long)want); ++bad; }
    sum += (double)out[i];
  }
  printf("ptx_addc64: %d values, checksum %.6e, %d wrong\n", N, sum, bad);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  if (bad) { printf("FAIL\n"); return 1; }
  printf("PASS\n");
  return 0;
}
