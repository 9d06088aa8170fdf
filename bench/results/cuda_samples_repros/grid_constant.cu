// __grid_constant__ (CUDA 11.7, large kernel parameters): unknown to HIP 5.2 (an annotation cass-cc could drop).
struct Big { int v[1024]; };
__global__ void k(const __grid_constant__ Big p, int *out) { out[threadIdx.x] = p.v[threadIdx.x]; }
