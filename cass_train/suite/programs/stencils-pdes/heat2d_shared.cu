// cass-bench: heat2d_shared
// domain: stencils-pdes
// features: shared-memory, halo, 2d-grid, ping-pong
// emu: heat_step grid=2,2 block=16,16 args=f32[900];f32[900]=0;i32:30;i32:30;f32:0.2
// args:
// Explicit 2D heat equation, 5-point stencil with a shared-memory tile and halo, 50 steps.
#include <cmath>
#include <cstdio>
#include <vector>
#include <utility>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define BX 16
#define BY 16

__global__ void heat_step(const float* u, float* v, int nx, int ny, float r) {
  __shared__ float t[BY + 2][BX + 2];
  int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  bool in = x < nx && y < ny;
  t[ly][lx] = in ? u[y * nx + x] : 0.0f;
  if (threadIdx.x == 0) t[ly][0] = (in && x > 0) ? u[y * nx + x - 1] : 0.0f;
  if (threadIdx.x == BX - 1) t[ly][BX + 1] = (in && x + 1 < nx) ? u[y * nx + x + 1] : 0.0f;
  if (threadIdx.y == 0) t[0][lx] = (in && y > 0) ? u[(y - 1) * nx + x] : 0.0f;
  if (threadIdx.y == BY - 1) t[BY + 1][lx] = (in && y + 1 < ny) ? u[(y + 1) * nx + x] : 0.0f;
  __syncthreads();
  if (!in) return;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) { v[y * nx + x] = t[ly][lx]; return; }
  float c = t[ly][lx];
  v[y * nx + x] = c + r * (t[ly][lx - 1] + t[ly][lx + 1] + t[ly - 1][lx] + t[ly + 1][lx] - 4.0f * c);
}

int main() {
  const int nx = 300, ny = 200, steps = 50;
  const float r = 0.2f;
  std::vector<float> u(nx * ny, 0.0f), ref, v(nx * ny);
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) u[y * nx + x] = ((x / 20 + y / 20) % 2) ? 100.0f : 0.0f;
  ref = u;
  std::vector<float> tmp(nx * ny);
  for (int s = 0; s < steps; ++s) {
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        float c = ref[y * nx + x];
        if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) { tmp[y * nx + x] = c; continue; }
        tmp[y * nx + x] = c + r * (ref[y * nx + x - 1] + ref[y * nx + x + 1] + ref[(y - 1) * nx + x] + ref[(y + 1) * nx + x] - 4.0f * c);
      }
    std::swap(ref, tmp);
  }
  float *d0, *d1;
  CHECK(cudaMalloc(&d0, nx * ny * 4));
  CHECK(cudaMalloc(&d1, nx * ny * 4));
  CHECK(cudaMemcpy(d0, u.data(), nx * ny * 4, cudaMemcpyHostToDevice));
  dim3 block(BX, BY), grid((nx + BX - 1) / BX, (ny + BY - 1) / BY);
  for (int s = 0; s < steps; ++s) { heat_step<<<grid, block>>>(d0, d1, nx, ny, r); std::swap(d0, d1); }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(v.data(), d0, nx * ny * 4, cudaMemcpyDeviceToHost));
  double max_err = 0, sum = 0;
  for (int i = 0; i < nx * ny; ++i) { max_err = fmax(max_err, fabs(v[i] - ref[i])); sum += v[i]; }
  printf("heat2d_shared: %dx%d steps=%d sum=%.3f max_err=%.2e\n", nx, ny, steps, sum, max_err);
  cudaFree(d0); cudaFree(d1);
  bool ok = max_err < 1e-3;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
