#include <hip/hip_runtime.h>
#line 1 "macros_if.cu"
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                   \
    do {                                                                   \
        hipError_t err_ = (call);                                         \
        if (err_ != hipSuccess) {                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,             \
                    hipGetErrorString(err_));                             \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

#define ALLOC hipMalloc
#define COPY_KIND hipMemcpyDeviceToHost

#if defined(hipStreamPerThread) && CUDART_VERSION >= 7000
#define MY_STREAM hipStreamPerThread
#elif defined(USE_LEGACY)
#define MY_STREAM cudaStreamLegacy
#else
#define MY_STREAM 0
#endif

#ifdef hipDeviceScheduleBlockingSync
static const unsigned kFlags = hipDeviceScheduleBlockingSync;
#endif

inline void cudaCheckLast(const char* what) {
    hipError_t e = hipGetLastError();
    if (e != hipSuccess) printf("%s: %s\n", what, hipGetErrorString(e));
}

int main() {
    float* d;
    CUDA_CHECK(ALLOC(&d, 64));
    float h[16];
    CUDA_CHECK(hipMemcpy(h, d, sizeof h, COPY_KIND));
    cudaCheckLast("copy");
    CUDA_CHECK(hipFree(d));
}
