#include "physics.h"

__device__ float spring_force(float x, float k) { return -k * x; }
