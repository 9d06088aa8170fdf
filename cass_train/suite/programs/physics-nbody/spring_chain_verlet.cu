// cass-bench: spring_chain_verlet
// domain: physics-nbody
// features: velocity-verlet, multi-kernel-steps, fp64, neighbour-access
// args:
// A 1D chain of 100k masses with nonlinear springs, 200 velocity-Verlet steps; positions and
// the total energy are compared with the host, and energy drift must stay small.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__host__ __device__ inline double spring_force(double d) { return -(d + 0.1 * d * d * d); }  // on the right mass
__host__ __device__ inline double spring_energy(double d) { return 0.5 * d * d + 0.025 * d * d * d * d; }

__global__ void forces(const double* x, double* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double left = i > 0 ? x[i] - x[i - 1] : x[i];          // fixed wall at 0 on the left
  double right = i < n - 1 ? x[i + 1] - x[i] : -x[i];    // and on the right
  a[i] = spring_force(left) - spring_force(right);
}

__global__ void half_kick(double* v, const double* a, int n, double h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += h * a[i];
}

__global__ void drift(double* x, const double* v, int n, double dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += dt * v[i];
}

static double energy(const std::vector<double>& x, const std::vector<double>& v) {
  int n = (int)x.size();
  double e = 0;
  for (int i = 0; i < n; ++i) e += 0.5 * v[i] * v[i] + spring_energy(i > 0 ? x[i] - x[i - 1] : x[i]);
  return e + spring_energy(-x[n - 1]);
}

int main() {
  const int n = 100000, steps = 200;
  const double dt = 0.01;
  std::vector<double> x(n), v(n, 0.0), a(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5 * sin(i * 0.05) * exp(-((i - n / 2) * 1e-4) * ((i - n / 2) * 1e-4));
  double e0 = energy(x, v);
  double *dx, *dv, *da;
  CHECK(cudaMalloc(&dx, n * 8)); CHECK(cudaMalloc(&dv, n * 8)); CHECK(cudaMalloc(&da, n * 8));
  CHECK(cudaMemcpy(dx, x.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v.data(), n * 8, cudaMemcpyHostToDevice));
  int B = 256, G = (n + B - 1) / B;
  forces<<<G, B>>>(dx, da, n);
  for (int s = 0; s < steps; ++s) {
    half_kick<<<G, B>>>(dv, da, n, 0.5 * dt);
    drift<<<G, B>>>(dx, dv, n, dt);
    forces<<<G, B>>>(dx, da, n);
    half_kick<<<G, B>>>(dv, da, n, 0.5 * dt);
  }
  CHECK(cudaGetLastError());
  std::vector<double> gx(n), gv(n);
  CHECK(cudaMemcpy(gx.data(), dx, n * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gv.data(), dv, n * 8, cudaMemcpyDeviceToHost));
  auto f = [&](std::vector<double>& acc) {
    for (int i = 0; i < n; ++i) {
      double l = i > 0 ? x[i] - x[i - 1] : x[i], r = i < n - 1 ? x[i + 1] - x[i] : -x[i];
      acc[i] = spring_force(l) - spring_force(r);
    }
  };
  f(a);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) v[i] += 0.5 * dt * a[i];
    for (int i = 0; i < n; ++i) x[i] += dt * v[i];
    f(a);
    for (int i = 0; i < n; ++i) v[i] += 0.5 * dt * a[i];
  }
  double max_err = 0;
  for (int i = 0; i < n; ++i) max_err = fmax(max_err, fabs(gx[i] - x[i]));
  double e1 = energy(gx, gv), drift_rel = fabs(e1 - e0) / e0;
  printf("spring_chain_verlet: n=%d steps=%d energy=%.8f drift=%.2e max_err=%.2e\n", n, steps, e1, drift_rel, max_err);
  cudaFree(dx); cudaFree(dv); cudaFree(da);
  bool ok = max_err < 1e-10 && drift_rel < 1e-3;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
