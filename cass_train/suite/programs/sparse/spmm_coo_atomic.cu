// cass-bench: spmm_coo_atomic
// domain: sparse
// features: COO, atomicAdd-float, sparse-dense-matmul, 2d-grid
// args:
// C = A * B with A sparse in COO (unsorted entries) and B dense (N x 32): each thread takes one
// nonzero and one column and accumulates into C with atomicAdd; values are small dyadic
// numbers so the float sums are exact in any order.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define NC 32

__global__ void spmm(const int* ri, const int* ci, const float* v, int nnz, const float* B, float* C) {
  int e = blockIdx.x * blockDim.y + threadIdx.y, j = threadIdx.x;
  if (e >= nnz) return;
  atomicAdd(&C[ri[e] * NC + j], v[e] * B[ci[e] * NC + j]);
}

int main() {
  const int rows = 20000, inner = 15000, nnz = 300000;
  std::vector<int> ri(nnz), ci(nnz);
  std::vector<float> v(nnz), B((size_t)inner * NC), C((size_t)rows * NC);
  unsigned s = 64u;
  auto r = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
  for (int e = 0; e < nnz; ++e) { ri[e] = r() % rows; ci[e] = r() % inner; v[e] = ((int)(r() % 9) - 4) * 0.25f; }
  for (auto& b : B) b = ((int)(r() % 17) - 8) * 0.125f;
  std::vector<double> ref((size_t)rows * NC, 0.0);
  for (int e = 0; e < nnz; ++e) for (int j = 0; j < NC; ++j) ref[(size_t)ri[e] * NC + j] += (double)v[e] * B[(size_t)ci[e] * NC + j];
  int *dri, *dci; float *dv, *dB, *dC;
  CHECK(cudaMalloc(&dri, nnz * 4)); CHECK(cudaMalloc(&dci, nnz * 4)); CHECK(cudaMalloc(&dv, nnz * 4));
  CHECK(cudaMalloc(&dB, B.size() * 4)); CHECK(cudaMalloc(&dC, C.size() * 4));
  CHECK(cudaMemcpy(dri, ri.data(), nnz * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dci, ci.data(), nnz * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v.data(), nnz * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dC, 0, C.size() * 4));
  dim3 block(NC, 8);
  spmm<<<(nnz + 7) / 8, block>>>(dri, dci, dv, nnz, dB, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost));
  int bad = 0; double sum = 0;
  for (size_t i = 0; i < C.size(); ++i) { bad += C[i] != ref[i]; sum += C[i]; }
  printf("spmm_coo_atomic: rows=%d nnz=%d cols=%d sum=%.4f mismatches=%d\n", rows, nnz, NC, sum, bad);
  cudaFree(dri); cudaFree(dci); cudaFree(dv); cudaFree(dB); cudaFree(dC);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
