// cass-bench: lennard_jones
// domain: physics-nbody
// features: cutoff, fp64, periodic-boundary, shared-memory-reduction, atomicAdd-double
// args:
// Lennard-Jones forces and potential energy of 2048 atoms in a periodic box (minimum image,
// cutoff 2.5 sigma) in double precision; forces and total energy checked against the host.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__host__ __device__ inline double wrap(double d, double box) { return d - box * rint(d / box); }

__global__ void lj(const double3* x, double3* f, double* energy, int n, double box, double rc2) {
  __shared__ double part[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double e = 0;
  if (i < n) {
    double3 fi = make_double3(0, 0, 0);
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      double dx = wrap(x[i].x - x[j].x, box), dy = wrap(x[i].y - x[j].y, box), dz = wrap(x[i].z - x[j].z, box);
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= rc2) continue;
      double ir2 = 1.0 / r2, ir6 = ir2 * ir2 * ir2;
      double fr = 24.0 * ir2 * ir6 * (2.0 * ir6 - 1.0);
      fi.x += fr * dx; fi.y += fr * dy; fi.z += fr * dz;
      e += 2.0 * ir6 * (ir6 - 1.0);  // half of 4(ir12 - ir6): each pair is seen twice
    }
    f[i] = fi;
  }
  part[threadIdx.x] = e;
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) { if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s]; __syncthreads(); }
  if (threadIdx.x == 0) atomicAdd(energy, part[0]);
}

int main() {
  const int side = 13, n = side * side * side;  // 2197 atoms on a jittered lattice
  const double box = side * 1.2, rc2 = 2.5 * 2.5;
  std::vector<double3> x(n), f(n);
  unsigned s = 1001u;
  auto jit = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xFFFF) / 65536.0 * 0.2 - 0.1; };
  for (int i = 0; i < n; ++i) x[i] = make_double3((i % side) * 1.2 + jit(), (i / side % side) * 1.2 + jit(), (i / side / side) * 1.2 + jit());
  double3 *dx, *df; double* de;
  CHECK(cudaMalloc(&dx, n * sizeof(double3))); CHECK(cudaMalloc(&df, n * sizeof(double3))); CHECK(cudaMalloc(&de, 8));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(double3), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(de, 0, 8));
  lj<<<(n + 127) / 128, 128>>>(dx, df, de, n, box, rc2);
  CHECK(cudaGetLastError());
  double energy;
  CHECK(cudaMemcpy(f.data(), df, n * sizeof(double3), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&energy, de, 8, cudaMemcpyDeviceToHost));
  double ref_e = 0, max_err = 0;
  for (int i = 0; i < n; ++i) {
    double fx = 0, fy = 0, fz = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      double ddx = wrap(x[i].x - x[j].x, box), ddy = wrap(x[i].y - x[j].y, box), ddz = wrap(x[i].z - x[j].z, box);
      double r2 = ddx * ddx + ddy * ddy + ddz * ddz;
      if (r2 >= rc2) continue;
      double ir2 = 1.0 / r2, ir6 = ir2 * ir2 * ir2, fr = 24.0 * ir2 * ir6 * (2.0 * ir6 - 1.0);
      fx += fr * ddx; fy += fr * ddy; fz += fr * ddz;
      ref_e += 2.0 * ir6 * (ir6 - 1.0);
    }
    max_err = fmax(max_err, fmax(fabs(fx - f[i].x), fmax(fabs(fy - f[i].y), fabs(fz - f[i].z))));
  }
  double rel_e = fabs(energy - ref_e) / fabs(ref_e);
  printf("lennard_jones: n=%d energy=%.6f rel_e=%.2e max_force_err=%.2e\n", n, energy, rel_e, max_err);
  cudaFree(dx); cudaFree(df); cudaFree(de);
  bool ok = rel_e < 1e-10 && max_err < 1e-8;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
