// cass-bench: shfl_xor_allreduce
// domain: warp-cooperative
// features: __shfl_xor_sync, __shfl_sync, width-argument, sub-warp-segments, full-mask, double-shuffle
// emu: seg_allreduce grid=1 block=64 args=i32[64];f64[64];i32[64]=0;f64[64]=0;i32[64]=0
// args:
// Butterfly all-reduce within segments of 8 lanes (width 8) for int max and double sum, then a
// broadcast from lane 5 of each warp; every lane's results are checked.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void seg_allreduce(const int* a, const double* b, int* seg_max, double* seg_sum, int* bcast) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int m = a[gid];
  double s = b[gid];
  for (int o = 4; o > 0; o >>= 1) {
    m = max(m, __shfl_xor_sync(0xffffffffu, m, o, 8));
    s += __shfl_xor_sync(0xffffffffu, s, o, 8);
  }
  seg_max[gid] = m;
  seg_sum[gid] = s;
  bcast[gid] = __shfl_sync(0xffffffffu, a[gid], 5);
}

int main() {
  const int n = 1 << 18;
  std::vector<int> a(n), mx(n), bc(n);
  std::vector<double> b(n), sm(n);
  unsigned s = 2u;
  for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; a[i] = (int)s; b[i] = (double)(s >> 8) / 1024.0; }
  int *da, *dm, *dbc; double *db, *ds;
  CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&dm, n * 4)); CHECK(cudaMalloc(&dbc, n * 4));
  CHECK(cudaMalloc(&db, n * 8)); CHECK(cudaMalloc(&ds, n * 8));
  CHECK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * 8, cudaMemcpyHostToDevice));
  seg_allreduce<<<n / 256, 256>>>(da, db, dm, ds, dbc);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(mx.data(), dm, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sm.data(), ds, n * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bc.data(), dbc, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int seg = 0; seg < n / 8; ++seg) {
    int m = a[seg * 8]; double t = 0;
    for (int k = 0; k < 8; ++k) { m = std::max(m, a[seg * 8 + k]); t += b[seg * 8 + k]; }
    for (int k = 0; k < 8; ++k) bad += mx[seg * 8 + k] != m || sm[seg * 8 + k] != t;
  }
  for (int i = 0; i < n; ++i) bad += bc[i] != a[(i / 32) * 32 + 5];
  printf("shfl_xor_allreduce: n=%d seg_max0=%d mismatches=%d\n", n, mx[0], bad);
  cudaFree(da); cudaFree(dm); cudaFree(dbc); cudaFree(db); cudaFree(ds);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
