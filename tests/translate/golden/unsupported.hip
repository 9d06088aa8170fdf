#include <hip/hip_runtime.h>
#line 1 "unsupported.cu"
#include <hip/hip_runtime.h>
#include <cuda_bf16.h>

__global__ void k(int* out) {
    unsigned mask = __match_any_sync(0xffffffff, out[threadIdx.x]);
    out[threadIdx.x] = __reduce_add_sync(0xffffffff, (int)mask);
}

int main() {
    hipStream_t s;
    hipStreamCreate(&s);
    cudaStreamAttrValue value;
    cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &value);
    hipDeviceSetLimit(hipLimitStackSize, 4096);
    cudaGraphicsGLRegisterBuffer(nullptr, 0, 0);
    cuFooBar();
    cudaLaunch((const void*)k);
    return 0;
}
