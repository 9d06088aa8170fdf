// flags: -rdc=true
// Dynamic parallelism (a kernel launching a kernel): no HIP counterpart; clang's "reference to
// __global__ function in __global__ function" instead of one named reason.
__global__ void child(int *p) { p[threadIdx.x] = 1; }
__global__ void parent(int *p) { child<<<1, 32>>>(p); }
