// cass-bench: redblack_sor
// domain: stencils-pdes
// features: 2d-grid, in-place-update, checkerboard, fp64
// args:
// Red-black Gauss-Seidel (SOR) for the 2D Laplace equation; each colour is one kernel launch.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void sor_colour(double* u, int n, int colour, double omega) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1 || ((x + y) & 1) != colour) return;
  int i = y * n + x;
  double gs = 0.25 * (u[i - 1] + u[i + 1] + u[i - n] + u[i + n]);
  u[i] = u[i] + omega * (gs - u[i]);
}

int main() {
  const int n = 128, iters = 100;
  const double omega = 1.5;
  std::vector<double> u(n * n, 0.0);
  for (int x = 0; x < n; ++x) u[x] = sin(M_PI * x / (n - 1));  // top edge
  std::vector<double> ref = u;
  for (int it = 0; it < iters; ++it)
    for (int colour = 0; colour < 2; ++colour)
      for (int y = 1; y < n - 1; ++y)
        for (int x = 1; x < n - 1; ++x) {
          if (((x + y) & 1) != colour) continue;
          int i = y * n + x;
          double gs = 0.25 * (ref[i - 1] + ref[i + 1] + ref[i - n] + ref[i + n]);
          ref[i] = ref[i] + omega * (gs - ref[i]);
        }
  double* d;
  CHECK(cudaMalloc(&d, n * n * 8));
  CHECK(cudaMemcpy(d, u.data(), n * n * 8, cudaMemcpyHostToDevice));
  dim3 block(16, 16), grid(n / 16, n / 16);
  for (int it = 0; it < iters; ++it) {
    sor_colour<<<grid, block>>>(d, n, 0, omega);
    sor_colour<<<grid, block>>>(d, n, 1, omega);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(u.data(), d, n * n * 8, cudaMemcpyDeviceToHost));
  double max_err = 0, mid = u[(n / 2) * n + n / 2];
  for (int i = 0; i < n * n; ++i) max_err = fmax(max_err, fabs(u[i] - ref[i]));
  printf("redblack_sor: n=%d iters=%d centre=%.10f max_err=%.2e\n", n, iters, mid, max_err);
  cudaFree(d);
  bool ok = max_err < 1e-12;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
