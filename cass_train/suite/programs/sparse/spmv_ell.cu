// cass-bench: spmv_ell
// domain: sparse
// features: ELLPACK, column-major-padding, coalesced-access, templates
// args:
// ELLPACK SpMV (column-major slots, padding marked by column -1) for a banded matrix with
// random extra entries; a templated value type is instantiated for float and double.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

template <typename T>
__global__ void spmv_ell(const int* col, const T* val, const T* x, T* y, int rows, int width) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  T s = 0;
  for (int k = 0; k < width; ++k) {
    int c = col[k * rows + r];
    if (c >= 0) s += val[k * rows + r] * x[c];
  }
  y[r] = s;
}

template <typename T>
static double run(const std::vector<int>& col, const std::vector<double>& v, const std::vector<double>& xd, int rows, int width,
                  const std::vector<double>& ref) {
  std::vector<T> val(v.begin(), v.end()), x(xd.begin(), xd.end()), y(rows);
  int* dc; T *dv, *dx, *dy;
  if (cudaMalloc(&dc, col.size() * 4) != cudaSuccess || cudaMalloc(&dv, val.size() * sizeof(T)) != cudaSuccess ||
      cudaMalloc(&dx, x.size() * sizeof(T)) != cudaSuccess || cudaMalloc(&dy, rows * sizeof(T)) != cudaSuccess) return 1e30;
  cudaMemcpy(dc, col.data(), col.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, val.data(), val.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x.data(), x.size() * sizeof(T), cudaMemcpyHostToDevice);
  spmv_ell<T><<<(rows + 127) / 128, 128>>>(dc, dv, dx, dy, rows, width);
  if (cudaMemcpy(y.data(), dy, rows * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess) return 1e30;
  double e = 0;
  for (int i = 0; i < rows; ++i) e = fmax(e, fabs((double)y[i] - ref[i]));
  cudaFree(dc); cudaFree(dv); cudaFree(dx); cudaFree(dy);
  return e;
}

int main() {
  const int rows = 50000, width = 12;
  std::vector<int> col((size_t)width * rows, -1);
  std::vector<double> val((size_t)width * rows, 0.0), x(rows), ref(rows, 0.0);
  unsigned s = 5u;
  auto r = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
  for (int i = 0; i < rows; ++i) {
    int k = 0;
    for (int d = -2; d <= 2; ++d) if (i + d >= 0 && i + d < rows) { col[(size_t)k * rows + i] = i + d; val[(size_t)k * rows + i] = d == 0 ? 4.0 : -1.0; ++k; }
    int extra = r() % (width - k + 1);
    for (int e = 0; e < extra; ++e, ++k) { col[(size_t)k * rows + i] = r() % rows; val[(size_t)k * rows + i] = ((int)(r() % 17) - 8) / 8.0; }
  }
  for (auto& v : x) v = ((int)(r() % 33) - 16) / 16.0;
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < width; ++k) if (col[(size_t)k * rows + i] >= 0) ref[i] += val[(size_t)k * rows + i] * x[col[(size_t)k * rows + i]];
  double ef = run<float>(col, val, x, rows, width, ref), ed = run<double>(col, val, x, rows, width, ref);
  printf("spmv_ell: rows=%d width=%d err_float=%.2e err_double=%.2e\n", rows, width, ef, ed);
  bool ok = ef < 1e-5 && ed == 0.0;  // dyadic inputs: both sums are exact
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
