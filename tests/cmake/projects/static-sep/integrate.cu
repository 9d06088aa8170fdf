#include "physics.h"

#define K 4.0f

__global__ void step(float* pos, float* vel, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    vel[i] += spring_force(pos[i], K) * dt;  // defined in forces.cu: needs the device link
    pos[i] += vel[i] * dt;
  }
}

void integrate(float* d_pos, float* d_vel, int n, float dt, int steps) {
  for (int s = 0; s < steps; ++s) step<<<(n + 63) / 64, 64>>>(d_pos, d_vel, n, dt);
  cudaDeviceSynchronize();
}

float integrate_host(float pos, float vel, float dt, int steps) {
  for (int s = 0; s < steps; ++s) {
    vel += -K * pos * dt;
    pos += vel * dt;
  }
  return pos;
}
