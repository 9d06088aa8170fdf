#pragma once
#include <cuda_runtime.h>

__device__ float spring_force(float x, float k);
void integrate(float* d_pos, float* d_vel, int n, float dt, int steps);
float integrate_host(float pos, float vel, float dt, int steps);
