// cass-bench: bf16_rounding
// domain: mixed-precision
// features: cuda_bf16, __float2bfloat16_rn, __float2bfloat16_rz, __nv_bfloat162, __hadd2, __hmul2
// needs: hip_bf16.h (HIP >= 5.7)
// args:
// float -> bf16 conversions (round-to-nearest-even and toward zero) of hard cases (ties, NaN,
// Inf, subnormals) and packed __nv_bfloat162 add/mul, checked bit for bit against a host model.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void convert(const float* in, unsigned short* rn, unsigned short* rz, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 a = __float2bfloat16_rn(in[i]), b = __float2bfloat16_rz(in[i]);
  rn[i] = *reinterpret_cast<unsigned short*>(&a);
  rz[i] = *reinterpret_cast<unsigned short*>(&b);
}

__global__ void packed(const __nv_bfloat162* x, const __nv_bfloat162* y, __nv_bfloat162* sum, __nv_bfloat162* prod, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  sum[i] = __hadd2(x[i], y[i]);
  prod[i] = __hmul2(x[i], y[i]);
}

static unsigned f2u(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static float u2f(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static unsigned short bf_rn(float f) {
  unsigned u = f2u(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FFF;  // NaN: canonical
  return (unsigned short)((u + 0x7FFFu + ((u >> 16) & 1)) >> 16);
}
static unsigned short bf_rz(float f) {
  unsigned u = f2u(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FFF;
  return (unsigned short)(u >> 16);
}

int main() {
  const int n = 1 << 16;
  std::vector<float> in(n);
  unsigned s = 1u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    unsigned u = s;
    if (i % 4 == 1) u = (u & 0xFFFF0000u) | 0x8000u;      // exact ties
    if (i % 97 == 0) u = 0x7F800000u | (u & 0x80000000u); // infinities
    if (i % 101 == 0) u &= 0x807FFFFFu;                   // subnormals
    in[i] = u2f(u);
  }
  float* din; unsigned short *drn, *drz;
  CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&drn, n * 2)); CHECK(cudaMalloc(&drz, n * 2));
  CHECK(cudaMemcpy(din, in.data(), n * 4, cudaMemcpyHostToDevice));
  convert<<<n / 256, 256>>>(din, drn, drz, n);
  std::vector<unsigned short> rn(n), rz(n);
  CHECK(cudaMemcpy(rn.data(), drn, n * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rz.data(), drz, n * 2, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    bool nan = std::isnan(in[i]);
    if (nan) bad += (rn[i] & 0x7FFF) <= 0x7F80 || (rz[i] & 0x7FFF) <= 0x7F80;  // any NaN is fine
    else bad += rn[i] != bf_rn(in[i]) || rz[i] != bf_rz(in[i]);
  }
  // packed arithmetic on small integers: exact in bf16 (8 significant bits)
  const int m = 4096;
  std::vector<__nv_bfloat162> x(m), y(m), sum(m), prod(m);
  for (int i = 0; i < m; ++i) { x[i] = __floats2bfloat162_rn((float)(i % 15 - 7), (float)(i % 11)); y[i] = __floats2bfloat162_rn((float)(i % 9 - 4), 0.5f); }
  __nv_bfloat162 *dx, *dy, *ds, *dp;
  CHECK(cudaMalloc(&dx, m * 4)); CHECK(cudaMalloc(&dy, m * 4)); CHECK(cudaMalloc(&ds, m * 4)); CHECK(cudaMalloc(&dp, m * 4));
  CHECK(cudaMemcpy(dx, x.data(), m * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), m * 4, cudaMemcpyHostToDevice));
  packed<<<m / 256, 256>>>(dx, dy, ds, dp, m);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(sum.data(), ds, m * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(prod.data(), dp, m * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) {
    float x0 = (float)(i % 15 - 7), x1 = (float)(i % 11), y0 = (float)(i % 9 - 4), y1 = 0.5f;
    bad += __low2float(sum[i]) != x0 + y0 || __high2float(sum[i]) != x1 + y1;
    bad += __low2float(prod[i]) != x0 * y0 || __high2float(prod[i]) != x1 * y1;
  }
  printf("bf16_rounding: conversions=%d packed=%d mismatches=%d\n", n, m, bad);
  cudaFree(din); cudaFree(drn); cudaFree(drz); cudaFree(dx); cudaFree(dy); cudaFree(ds); cudaFree(dp);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
