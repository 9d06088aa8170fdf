// cass-bench: ptx_ex2_approx
// domain: inline-ptx
// features: inline-ptx
// args:
// The niche of issue 24: inline PTX ex2.approx.f32: powers of two within 1e-6 relative. The rules leave this for a model (a warning, no HIP rewrite).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define N 4096

__global__ void apply(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  float r;
  asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(v));
  out[i] = r;
}

float ref(float v) { return std::exp2(v); }

int main() {
  static float in[N];
  static float out[N];
  unsigned s = 12345u;
  for (int i = 0; i < N; ++i) {  // xorshift inputs; floats in [-64, 64) with some exact zeros skipped
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    in[i] = ((int)(s % 16384u) - 8192) / 128.0f + (s % 16384u == 8192u ? 0.5f : 0.0f);
  }
  float* din; float* dout;
  CHECK(cudaMalloc(&din, sizeof(in)));
  CHECK(cudaMalloc(&dout, sizeof(out)));
  CHECK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
  apply<<<(N + 255) / 256, 256>>>(din, dout, N);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
  int bad = 0;
  double sum = 0;
  for (int i = 0; i < N; ++i) {
    float want = ref(in[i]);
    if (!(std::fabs(out[i] - want) <= 1e-6f * std::fabs(want))) { if (bad < 4) printf("  %d: %a -> %a, want %a\n", i, in[i], out[i], want); ++bad; }
    sum += (double)out[i];
  }
  printf("ptx_ex2_approx: %d values, checksum %.6e, %d wrong\n", N, sum, bad);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  if (bad) { printf("FAIL\n"); return 1; }
  printf("PASS\n");
  return 0;
}
