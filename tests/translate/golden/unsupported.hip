#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
template <class T> static __device__ inline unsigned int __cass_match_any(T v) { unsigned int m = 0; for (int l = 0; l < 32; ++l) m |= (__shfl(v, l, 32) == v ? 1u : 0u) << l; return m; }
template <class T> static __device__ inline T __cass_reduce_add(T v) { for (int o = 16; o > 0; o /= 2) { T w = __shfl_xor(v, o, 32); v = v + w; } return v; }
#ifdef __clang__
#pragma clang diagnostic pop
#endif
#line 1 "unsupported.cu"
#include <hip/hip_runtime.h>
#include <cuda_fp8.h>

__global__ void k(int* out) {
    unsigned mask = __cass_match_any(out[threadIdx.x]);
    out[threadIdx.x] = __cass_reduce_add((int)mask);
}

int main() {
    hipStream_t s;
    hipStreamCreate(&s);
    cudaStreamAttrValue value;
    cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &value);
    hipDeviceSetLimit(hipLimitStackSize, 4096);
    hipGraphicsGLRegisterBuffer(nullptr, 0, 0);
    cuFooBar();
    cudaLaunch((const void*)k);
    return 0;
}
