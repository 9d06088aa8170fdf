#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#include "physics.h"

int main(int argc, char** argv) {
  const int n = 256, steps = 100;
  const float dt = 0.01f;
  std::vector<float> pos(n), vel(n, 0.0f), want(n);
  for (int i = 0; i < n; ++i) {
    pos[i] = 0.01f * i;
    want[i] = integrate_host(pos[i], 0.0f, dt, steps);
  }
  if (argc > 1 && std::strcmp(argv[1], "--host") == 0) {
    // a spring released at rest swings back through zero: energy stays bounded
    bool ok = std::fabs(want[n - 1]) <= pos[n - 1] + 1e-3f;
    std::printf("host reference %s\n", ok ? "bounded" : "diverged");
    return ok ? 0 : 1;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU: device run skipped\n");
    return 0;
  }
  float *d_pos, *d_vel;
  cudaMalloc(&d_pos, n * sizeof(float));
  cudaMalloc(&d_vel, n * sizeof(float));
  cudaMemcpy(d_pos, pos.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_vel, vel.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  integrate(d_pos, d_vel, n, dt, steps);
  cudaMemcpy(pos.data(), d_pos, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (std::fabs(pos[i] - want[i]) > 1e-4f) {
      std::printf("mismatch at %d: %f vs %f\n", i, pos[i], want[i]);
      return 1;
    }
  std::printf("device result matches\n");
  return 0;
}
