// cass-bench: jacobi3d
// domain: stencils-pdes
// features: 3d-grid, 3d-block, fp64, ping-pong
// args:
// 7-point Jacobi iterations for a 3D Poisson problem in double precision on a 3D grid of blocks.
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void jacobi(const double* u, double* v, const double* f, int n, double h2) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= n || y >= n || z >= n) return;
  size_t i = ((size_t)z * n + y) * n + x;
  if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) { v[i] = u[i]; return; }
  size_t sy = n, sz = (size_t)n * n;
  v[i] = (u[i - 1] + u[i + 1] + u[i - sy] + u[i + sy] + u[i - sz] + u[i + sz] - h2 * f[i]) / 6.0;
}

int main() {
  const int n = 40, iters = 30;
  const size_t total = (size_t)n * n * n;
  const double h2 = 1.0 / ((n - 1) * (n - 1));
  std::vector<double> u(total, 0.0), f(total), out(total);
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        size_t i = ((size_t)z * n + y) * n + x;
        f[i] = sin(0.1 * x) * cos(0.2 * y) + 0.01 * z;
        if (z == 0) u[i] = 1.0;
      }
  std::vector<double> a = u, b(total);
  for (int it = 0; it < iters; ++it) {
    for (int z = 0; z < n; ++z)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
          size_t i = ((size_t)z * n + y) * n + x;
          if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) { b[i] = a[i]; continue; }
          b[i] = (a[i - 1] + a[i + 1] + a[i - n] + a[i + n] + a[i - n * n] + a[i + n * n] - h2 * f[i]) / 6.0;
        }
    std::swap(a, b);
  }
  double *du, *dv, *df;
  CHECK(cudaMalloc(&du, total * 8));
  CHECK(cudaMalloc(&dv, total * 8));
  CHECK(cudaMalloc(&df, total * 8));
  CHECK(cudaMemcpy(du, u.data(), total * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(df, f.data(), total * 8, cudaMemcpyHostToDevice));
  dim3 block(8, 8, 4), grid((n + 7) / 8, (n + 7) / 8, (n + 3) / 4);
  for (int it = 0; it < iters; ++it) { jacobi<<<grid, block>>>(du, dv, df, n, h2); std::swap(du, dv); }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), du, total * 8, cudaMemcpyDeviceToHost));
  double max_err = 0, sum = 0;
  for (size_t i = 0; i < total; ++i) { max_err = fmax(max_err, fabs(out[i] - a[i])); sum += out[i]; }
  printf("jacobi3d: n=%d iters=%d sum=%.9f max_err=%.2e\n", n, iters, sum, max_err);
  cudaFree(du); cudaFree(dv); cudaFree(df);
  bool ok = max_err < 1e-12;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
