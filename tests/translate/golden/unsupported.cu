#include <cuda_runtime.h>
#include <cuda_fp8.h>

__global__ void k(int* out) {
    unsigned mask = __match_any_sync(0xffffffff, out[threadIdx.x]);
    out[threadIdx.x] = __reduce_add_sync(0xffffffff, (int)mask);
}

int main() {
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamAttrValue value;
    cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &value);
    cudaDeviceSetLimit(cudaLimitStackSize, 4096);
    cudaGraphicsGLRegisterBuffer(nullptr, 0, 0);
    cuLogsCurrent(0, 0);
    cudaLaunch((const void*)k);
    return 0;
}
