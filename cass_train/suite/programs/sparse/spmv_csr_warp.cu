// cass-bench: spmv_csr_warp
// domain: sparse
// features: CSR, warp-per-row, warp-shuffle, full-mask, __ldg
// args:
// CSR SpMV with one warp per row (rows of 50..400 nonzeros), lanes striding the row and
// reducing with __shfl_down_sync; float values, checked with a tolerance.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void spmv_warp(const int* __restrict__ rowptr, const int* __restrict__ col, const float* __restrict__ val,
                          const float* __restrict__ x, float* y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (warp >= rows) return;
  float s = 0.0f;
  for (int e = rowptr[warp] + lane; e < rowptr[warp + 1]; e += 32) s += __ldg(&val[e]) * __ldg(&x[col[e]]);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[warp] = s;
}

int main() {
  const int rows = 8192, cols = 8192;
  std::vector<int> rowptr(rows + 1), col;
  std::vector<float> val, x(cols), y(rows);
  unsigned s = 1717u;
  auto r = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
  for (int i = 0; i < rows; ++i) {
    rowptr[i] = (int)col.size();
    int nnz = 50 + r() % 351;
    for (int k = 0; k < nnz; ++k) { col.push_back(r() % cols); val.push_back((r() & 0xFFFF) / 65536.0f - 0.5f); }
  }
  rowptr[rows] = (int)col.size();
  for (auto& v : x) v = (r() & 0xFFFF) / 65536.0f;
  int *drp, *dc; float *dv, *dx, *dy;
  CHECK(cudaMalloc(&drp, (rows + 1) * 4)); CHECK(cudaMalloc(&dc, col.size() * 4)); CHECK(cudaMalloc(&dv, val.size() * 4));
  CHECK(cudaMalloc(&dx, cols * 4)); CHECK(cudaMalloc(&dy, rows * 4));
  CHECK(cudaMemcpy(drp, rowptr.data(), (rows + 1) * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, col.data(), col.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, val.data(), val.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x.data(), cols * 4, cudaMemcpyHostToDevice));
  spmv_warp<<<rows * 32 / 256, 256>>>(drp, dc, dv, dx, dy, rows);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, rows * 4, cudaMemcpyDeviceToHost));
  double max_err = 0;
  for (int i = 0; i < rows; ++i) {
    double ref = 0;
    for (int e = rowptr[i]; e < rowptr[i + 1]; ++e) ref += (double)val[e] * x[col[e]];
    max_err = fmax(max_err, fabs(ref - y[i]));
  }
  printf("spmv_csr_warp: rows=%d nnz=%zu max_err=%.2e\n", rows, col.size(), max_err);
  cudaFree(drp); cudaFree(dc); cudaFree(dv); cudaFree(dx); cudaFree(dy);
  bool ok = max_err < 1e-4;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
