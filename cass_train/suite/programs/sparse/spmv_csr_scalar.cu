// cass-bench: spmv_csr_scalar
// domain: sparse
// features: CSR, one-thread-per-row, irregular-rows, fp64
// args:
// y = A x for a random CSR matrix (100k rows, 1..40 nonzeros per row) in double precision.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void spmv(const int* rowptr, const int* col, const double* val, const double* x, double* y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  double s = 0.0;
  for (int e = rowptr[r]; e < rowptr[r + 1]; ++e) s += val[e] * x[col[e]];
  y[r] = s;
}

int main() {
  const int rows = 100000, cols = 80000;
  std::vector<int> rowptr(rows + 1), col;
  std::vector<double> val, x(cols), y(rows);
  unsigned s = 123u;
  auto r = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
  for (int i = 0; i < rows; ++i) {
    rowptr[i] = (int)col.size();
    int nnz = 1 + r() % 40;
    for (int k = 0; k < nnz; ++k) { col.push_back(r() % cols); val.push_back((int)(r() % 2001) - 1000); }
  }
  rowptr[rows] = (int)col.size();
  for (auto& v : x) v = (int)(r() % 201) - 100;  // integers: sums are exact in double
  int *drp, *dc; double *dv, *dx, *dy;
  CHECK(cudaMalloc(&drp, (rows + 1) * 4)); CHECK(cudaMalloc(&dc, col.size() * 4)); CHECK(cudaMalloc(&dv, val.size() * 8));
  CHECK(cudaMalloc(&dx, cols * 8)); CHECK(cudaMalloc(&dy, rows * 8));
  CHECK(cudaMemcpy(drp, rowptr.data(), (rows + 1) * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, col.data(), col.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, val.data(), val.size() * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x.data(), cols * 8, cudaMemcpyHostToDevice));
  spmv<<<(rows + 255) / 256, 256>>>(drp, dc, dv, dx, dy, rows);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, rows * 8, cudaMemcpyDeviceToHost));
  int bad = 0; double norm = 0;
  for (int i = 0; i < rows; ++i) {
    double ref = 0;
    for (int e = rowptr[i]; e < rowptr[i + 1]; ++e) ref += val[e] * x[col[e]];
    bad += ref != y[i];
    norm += fabs(y[i]);
  }
  printf("spmv_csr_scalar: rows=%d nnz=%zu l1=%.0f mismatches=%d\n", rows, col.size(), norm, bad);
  cudaFree(drp); cudaFree(dc); cudaFree(dv); cudaFree(dx); cudaFree(dy);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
