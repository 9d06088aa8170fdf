// cass-bench: bf16_dot
// domain: mixed-precision
// features: cuda_bf16, __nv_bfloat16, __bfloat162float, __float2bfloat16, warp-shuffle, fp32-accumulation
// needs: hip_bf16.h (HIP >= 5.7)
// args:
// Batched dot products of bf16 vectors with fp32 accumulation (warp per pair); inputs are
// exactly representable in bf16, so the host reference in double is compared tightly.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void dots(const __nv_bfloat16* a, const __nv_bfloat16* b, float* out, int pairs, int len) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (w >= pairs) return;
  float s = 0.0f;
  for (int i = lane; i < len; i += 32) s += __bfloat162float(a[(size_t)w * len + i]) * __bfloat162float(b[(size_t)w * len + i]);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) out[w] = s;
}

int main() {
  const int pairs = 4096, len = 512;
  std::vector<__nv_bfloat16> a((size_t)pairs * len), b(a.size());
  std::vector<float> af(a.size()), bf(a.size()), out(pairs);
  unsigned s = 8u;
  for (size_t i = 0; i < a.size(); ++i) {
    s = s * 1664525u + 1013904223u; af[i] = ((int)(s >> 25) - 64) / 32.0f;  // 7-bit values: exact in bf16
    s = s * 1664525u + 1013904223u; bf[i] = ((int)(s >> 25) - 64) / 64.0f;
    a[i] = __float2bfloat16(af[i]); b[i] = __float2bfloat16(bf[i]);
  }
  __nv_bfloat16 *da, *db; float* dout;
  CHECK(cudaMalloc(&da, a.size() * 2)); CHECK(cudaMalloc(&db, b.size() * 2)); CHECK(cudaMalloc(&dout, pairs * 4));
  CHECK(cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
  dots<<<pairs * 32 / 256, 256>>>(da, db, dout, pairs, len);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, pairs * 4, cudaMemcpyDeviceToHost));
  int bad = 0; double total = 0;
  for (int p = 0; p < pairs; ++p) {
    double r = 0;
    for (int i = 0; i < len; ++i) r += (double)af[(size_t)p * len + i] * bf[(size_t)p * len + i];
    bad += out[p] != (float)r;  // products are multiples of 2^-11 below 2: every partial sum is exact in float
    total += out[p];
  }
  printf("bf16_dot: pairs=%d len=%d total=%.4f mismatches=%d\n", pairs, len, total, bad);
  cudaFree(da); cudaFree(db); cudaFree(dout);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
