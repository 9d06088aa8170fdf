// cass-bench: merge_path
// domain: sorting-searching
// features: merge-path, diagonal-binary-search, device-functions
// args:
// Merges two sorted arrays: each thread finds its merge-path split on its diagonal and writes
// a fixed number of outputs; ties take from A first (a stable merge).
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define PER_THREAD 8

__device__ int split(const float* a, int na, const float* b, int nb, int diag) {
  int lo = max(0, diag - nb), hi = min(diag, na);
  while (lo < hi) {  // the number of A elements among the first `diag` outputs
    int i = (lo + hi) >> 1;
    if (a[i] <= b[diag - i - 1]) lo = i + 1; else hi = i;
  }
  return lo;
}

__global__ void merge(const float* a, int na, const float* b, int nb, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int diag = t * PER_THREAD;
  if (diag >= na + nb) return;
  int i = split(a, na, b, nb, diag), j = diag - i;
  for (int k = 0; k < PER_THREAD && diag + k < na + nb; ++k) {
    if (j >= nb || (i < na && a[i] <= b[j])) out[diag + k] = a[i++];
    else out[diag + k] = b[j++];
  }
}

int main() {
  const int na = 300001, nb = 222222;
  std::vector<float> a(na), b(nb), out(na + nb), ref(na + nb);
  unsigned s = 13579u;
  for (auto& v : a) { s = s * 1664525u + 1013904223u; v = (float)(s >> 16); }
  for (auto& v : b) { s = s * 1664525u + 1013904223u; v = (float)(s >> 16); }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), ref.begin());
  float *da, *db, *dout;
  CHECK(cudaMalloc(&da, na * 4));
  CHECK(cudaMalloc(&db, nb * 4));
  CHECK(cudaMalloc(&dout, (na + nb) * 4));
  CHECK(cudaMemcpy(da, a.data(), na * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), nb * 4, cudaMemcpyHostToDevice));
  int threads = (na + nb + PER_THREAD - 1) / PER_THREAD;
  merge<<<(threads + 127) / 128, 128>>>(da, na, db, nb, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, (na + nb) * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < na + nb; ++i) bad += out[i] != ref[i];
  printf("merge_path: na=%d nb=%d median=%.1f mismatches=%d\n", na, nb, out[(na + nb) / 2], bad);
  cudaFree(da); cudaFree(db); cudaFree(dout);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
