// cass-bench: nbody_tiled
// domain: physics-nbody
// features: shared-memory-tiles, dynamic-shared-memory, rsqrtf, float4, leapfrog
// args:
// All-pairs gravitational N-body (softened), bodies staged through shared memory in tiles of
// blockDim; 5 leapfrog steps compared with a double-precision host integration.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define EPS2 0.01f

__global__ void accel(const float4* pos, float3* acc, int n) {
  extern __shared__ float4 tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = i < n ? pos[i] : make_float4(0, 0, 0, 0);
  float3 a = make_float3(0, 0, 0);
  for (int base = 0; base < n; base += blockDim.x) {
    int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);  // w = mass; 0 pads
    __syncthreads();
    for (int k = 0; k < blockDim.x; ++k) {
      float4 q = tile[k];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float inv = rsqrtf(dx * dx + dy * dy + dz * dz + EPS2);
      float f = q.w * inv * inv * inv;
      a.x += f * dx; a.y += f * dy; a.z += f * dz;
    }
    __syncthreads();
  }
  if (i < n) acc[i] = a;
}

__global__ void kick_drift(float4* pos, float3* vel, const float3* acc, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 v = vel[i];
  v.x += dt * acc[i].x; v.y += dt * acc[i].y; v.z += dt * acc[i].z;
  vel[i] = v;
  pos[i].x += dt * v.x; pos[i].y += dt * v.y; pos[i].z += dt * v.z;
}

int main() {
  const int n = 2048, steps = 5;
  const float dt = 0.001f;
  std::vector<float4> pos(n);
  std::vector<float3> vel(n, make_float3(0, 0, 0));
  unsigned s = 6u;
  auto r = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xFFFF) / 32768.0f - 1.0f; };
  for (auto& p : pos) p = make_float4(r(), r(), r(), 1.0f / n);
  std::vector<double> px(n), py(n), pz(n), vx(n, 0), vy(n, 0), vz(n, 0), ax(n), ay(n), az(n);
  for (int i = 0; i < n; ++i) { px[i] = pos[i].x; py[i] = pos[i].y; pz[i] = pos[i].z; }
  for (int st = 0; st < steps; ++st) {
    for (int i = 0; i < n; ++i) {
      double a0 = 0, a1 = 0, a2 = 0;
      for (int j = 0; j < n; ++j) {
        double dx = px[j] - px[i], dy = py[j] - py[i], dz = pz[j] - pz[i];
        double inv = 1.0 / sqrt(dx * dx + dy * dy + dz * dz + EPS2);
        double f = (1.0 / n) * inv * inv * inv;
        a0 += f * dx; a1 += f * dy; a2 += f * dz;
      }
      ax[i] = a0; ay[i] = a1; az[i] = a2;
    }
    for (int i = 0; i < n; ++i) {
      vx[i] += dt * ax[i]; vy[i] += dt * ay[i]; vz[i] += dt * az[i];
      px[i] += dt * vx[i]; py[i] += dt * vy[i]; pz[i] += dt * vz[i];
    }
  }
  float4* dp; float3 *dv, *da;
  CHECK(cudaMalloc(&dp, n * sizeof(float4))); CHECK(cudaMalloc(&dv, n * sizeof(float3))); CHECK(cudaMalloc(&da, n * sizeof(float3)));
  CHECK(cudaMemcpy(dp, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, vel.data(), n * sizeof(float3), cudaMemcpyHostToDevice));
  const int B = 128;
  for (int st = 0; st < steps; ++st) {
    accel<<<(n + B - 1) / B, B, B * sizeof(float4)>>>(dp, da, n);
    kick_drift<<<(n + B - 1) / B, B>>>(dp, dv, da, n, dt);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(pos.data(), dp, n * sizeof(float4), cudaMemcpyDeviceToHost));
  double max_err = 0;
  for (int i = 0; i < n; ++i) max_err = fmax(max_err, fmax(fabs(pos[i].x - px[i]), fmax(fabs(pos[i].y - py[i]), fabs(pos[i].z - pz[i]))));
  printf("nbody_tiled: n=%d steps=%d x0=%.5f max_err=%.2e\n", n, steps, pos[0].x, max_err);
  cudaFree(dp); cudaFree(dv); cudaFree(da);
  bool ok = max_err < 1e-4;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
