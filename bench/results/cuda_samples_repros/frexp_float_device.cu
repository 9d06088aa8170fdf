// frexp(float, int*) in device code: CUDA's float overload; through HIP 5.2 the call is left
// to an undefined host-style symbol and the device link fails (lld: undefined symbol).
__device__ float f(int n) { int e; return frexp((float)n, &e) + e; }
__global__ void k(float *out, int n) { out[0] = f(n); }
