// cass-bench: atomic_cas_float_max
// domain: histograms-atomics
// features: atomicCAS, __float_as_int, __int_as_float, custom-atomics, per-key-reduction
// args:
// Per-key float maximum and a float sum implemented with atomicCAS loops (no native float atomicMax).
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ float cas_max(float* addr, float v) {
  int* p = (int*)addr;
  int old = *p, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(p, assumed, __float_as_int(v));
  } while (old != assumed);
  return __int_as_float(old);
}

__device__ void cas_add(float* addr, float v) {
  unsigned* p = (unsigned*)addr;
  unsigned old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __float_as_uint(__uint_as_float(assumed) + v));
  } while (old != assumed);
}

__global__ void reduce_by_key(const int* keys, const float* vals, int n, float* maxv, float* sumv) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cas_max(&maxv[keys[i]], vals[i]);
  cas_add(&sumv[keys[i]], vals[i]);
}

int main() {
  const int n = 1 << 20, K = 97;
  std::vector<int> keys(n);
  std::vector<float> vals(n), mx(K), sm(K);
  unsigned s = 8080u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u; keys[i] = (s >> 8) % K;
    s = s * 1664525u + 1013904223u; vals[i] = (float)((int)(s >> 20) - 2048) / 8.0f;  // multiples of 1/8: sums are exact
  }
  std::vector<float> rmax(K, -1e30f), rsum(K, 0.0f);
  for (int i = 0; i < n; ++i) { rmax[keys[i]] = fmaxf(rmax[keys[i]], vals[i]); rsum[keys[i]] += vals[i]; }
  int* dk;
  float *dv, *dmax, *dsum;
  CHECK(cudaMalloc(&dk, n * 4)); CHECK(cudaMalloc(&dv, n * 4)); CHECK(cudaMalloc(&dmax, K * 4)); CHECK(cudaMalloc(&dsum, K * 4));
  CHECK(cudaMemcpy(dk, keys.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, vals.data(), n * 4, cudaMemcpyHostToDevice));
  std::vector<float> init(K, -1e30f);
  CHECK(cudaMemcpy(dmax, init.data(), K * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dsum, 0, K * 4));
  reduce_by_key<<<(n + 255) / 256, 256>>>(dk, dv, n, dmax, dsum);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(mx.data(), dmax, K * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sm.data(), dsum, K * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  double total = 0;
  for (int k = 0; k < K; ++k) { bad += mx[k] != rmax[k] || sm[k] != rsum[k]; total += sm[k]; }
  printf("atomic_cas_float_max: n=%d keys=%d total=%.3f mismatches=%d\n", n, K, total, bad);
  cudaFree(dk); cudaFree(dv); cudaFree(dmax); cudaFree(dsum);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
