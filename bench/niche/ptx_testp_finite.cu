// cass-bench: ptx_testp_finite
// domain: inline-ptx
// features: inline-ptx
// args:
// The niche of issue 24: inline PTX testp.finite.f32 with a predicate register: 1 for finite inputs. The rules leave this for a model (a warning, no HIP rewrite).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define N 4096

__global__ void apply(const float* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  unsigned r;
  asm("{\n\t.reg .pred p;\n\ttestp.finite.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "f"(v));
  out[i] = r;
}

unsigned ref(float v) { return std::isfinite(v) ? 1u : 0u; }

int main() {
  static float in[N];
  static unsigned out[N];
  unsigned s = 12345u;
  for (int i = 0; i < N; ++i) {  // xorshift inputs; floats in [-64, 64) with some exact zeros skipped
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    in[i] = (i % 97 == 0) ? INFINITY : (i % 89 == 0) ? NAN : ((int)(s % 16384u) - 8192) / 128.0f;
  }
  float* din; unsigned* dout;
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
  printf("ptx_testp_finite: %d values, checksum %.6e, %d wrong\n", N, sum, bad);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  if (bad) { printf("FAIL\n"); return 1; }
  printf("PASS\n");
  return 0;
}
