#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
template <class R, class... A> static inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, R (*func)(A...)) { return hipFuncGetAttributes(attr, reinterpret_cast<const void*>(func)); }
#ifdef __clang__
#pragma clang diagnostic pop
#endif
#line 1 "runtime_api.cu"
// Runtime API walk-through: devices, memory, streams, events, occupancy, peers.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

int main() {
    int count = 0;
    hipGetDeviceCount(&count);
    hipDeviceProp_t prop;
    hipGetDeviceProperties(&prop, 0);
    int smem = 0;
    hipDeviceGetAttribute(&smem, hipDeviceAttributeMaxSharedMemoryPerBlock, 0);
    hipDeviceGetAttribute(&smem, hipDeviceAttributeMultiprocessorCount, 0);
    printf("%s %d\n", prop.name, prop.multiProcessorCount);

    float *d = nullptr, *h = nullptr, *m = nullptr;
    hipMalloc((void**)&d, 1024 * sizeof(float));
    hipHostMalloc(&h, 1024 * sizeof(float));
    hipMallocManaged(&m, 1024 * sizeof(float), hipMemAttachGlobal);
    hipMemset(d, 0, 1024 * sizeof(float));

    hipStream_t s;
    hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
    hipMemcpyAsync(d, h, 1024 * sizeof(float), hipMemcpyHostToDevice, s);
    int blocks = 0;
    hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 256, 0);
    scale<<<4, 256, 0, s>>>(d, 2.0f, 1024);
    hipError_t err = hipGetLastError();
    if (err != hipSuccess) printf("%s: %s\n", hipGetErrorName(err), hipGetErrorString(err));
    hipMemcpyAsync(h, d, 1024 * sizeof(float), hipMemcpyDeviceToHost, s);
    hipStreamSynchronize(s);

    hipFuncAttributes attr;
    hipFuncGetAttributes(&attr, scale);
    int peer = 0;
    hipDeviceCanAccessPeer(&peer, 0, 1);
    if (err == hipErrorOutOfMemory || err == hipErrorInvalidValue) return 1;

    hipStreamDestroy(s);
    hipFree(d);
    hipFree(m);
    hipHostFree(h);
    hipDeviceReset();
    return 0;
}
