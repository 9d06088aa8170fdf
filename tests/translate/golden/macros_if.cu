#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                   \
    do {                                                                   \
        cudaError_t err_ = (call);                                         \
        if (err_ != cudaSuccess) {                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,             \
                    cudaGetErrorString(err_));                             \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

#define ALLOC cudaMalloc
#define COPY_KIND cudaMemcpyDeviceToHost

#if defined(cudaStreamPerThread) && CUDART_VERSION >= 7000
#define MY_STREAM cudaStreamPerThread
#elif defined(USE_LEGACY)
#define MY_STREAM cudaStreamLegacy
#else
#define MY_STREAM 0
#endif

#ifdef cudaDeviceScheduleBlockingSync
static const unsigned kFlags = cudaDeviceScheduleBlockingSync;
#endif

inline void cudaCheckLast(const char* what) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) printf("%s: %s\n", what, cudaGetErrorString(e));
}

int main() {
    float* d;
    CUDA_CHECK(ALLOC(&d, 64));
    float h[16];
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, COPY_KIND));
    cudaCheckLast("copy");
    CUDA_CHECK(cudaFree(d));
}
