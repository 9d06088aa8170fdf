#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
#if defined(__HIP_PLATFORM_AMD__)
#ifndef __CHANNEL_DESCRIPTOR_H__
#define __CHANNEL_DESCRIPTOR_H__
#endif
#ifndef __COMMON_FUNCTIONS_H__
#define __COMMON_FUNCTIONS_H__
#endif
#ifndef __CUDA_DEVICE_RUNTIME_API_H__
#define __CUDA_DEVICE_RUNTIME_API_H__
#endif
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__
#endif
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif
#ifndef __DEVICE_ATOMIC_FUNCTIONS_HPP__
#define __DEVICE_ATOMIC_FUNCTIONS_HPP__
#endif
#ifndef __DEVICE_ATOMIC_FUNCTIONS_H__
#define __DEVICE_ATOMIC_FUNCTIONS_H__
#endif
#ifndef __DEVICE_DOUBLE_FUNCTIONS_H__
#define __DEVICE_DOUBLE_FUNCTIONS_H__
#endif
#ifndef __DEVICE_FUNCTIONS_H__
#define __DEVICE_FUNCTIONS_H__
#endif
#ifndef __DEVICE_LAUNCH_PARAMETERS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#endif
#ifndef __DEVICE_TYPES_H__
#define __DEVICE_TYPES_H__
#endif
#ifndef __DRIVER_FUNCTIONS_H__
#define __DRIVER_FUNCTIONS_H__
#endif
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__
#endif
#ifndef __FUNC_MACRO_H__
#define __FUNC_MACRO_H__
#endif
#ifndef __HOST_CONFIG_H__
#define __HOST_CONFIG_H__
#endif
#ifndef __HOST_DEFINES_H__
#define __HOST_DEFINES_H__
#endif
#ifndef __LIBRARY_TYPES_H__
#define __LIBRARY_TYPES_H__
#endif
#ifndef __MATH_FUNCTIONS_H__
#define __MATH_FUNCTIONS_H__
#endif
#ifndef __SM_20_ATOMIC_FUNCTIONS_HPP__
#define __SM_20_ATOMIC_FUNCTIONS_HPP__
#endif
#ifndef __SM_20_ATOMIC_FUNCTIONS_H__
#define __SM_20_ATOMIC_FUNCTIONS_H__
#endif
#ifndef __SM_20_INTRINSICS_HPP__
#define __SM_20_INTRINSICS_HPP__
#endif
#ifndef __SM_20_INTRINSICS_H__
#define __SM_20_INTRINSICS_H__
#endif
#ifndef __SM_30_INTRINSICS_HPP__
#define __SM_30_INTRINSICS_HPP__
#endif
#ifndef __SM_30_INTRINSICS_H__
#define __SM_30_INTRINSICS_H__
#endif
#ifndef __SM_32_ATOMIC_FUNCTIONS_HPP__
#define __SM_32_ATOMIC_FUNCTIONS_HPP__
#endif
#ifndef __SM_32_ATOMIC_FUNCTIONS_H__
#define __SM_32_ATOMIC_FUNCTIONS_H__
#endif
#ifndef __SM_32_INTRINSICS_HPP__
#define __SM_32_INTRINSICS_HPP__
#endif
#ifndef __SM_32_INTRINSICS_H__
#define __SM_32_INTRINSICS_H__
#endif
#ifndef __SM_35_ATOMIC_FUNCTIONS_H__
#define __SM_35_ATOMIC_FUNCTIONS_H__
#endif
#ifndef __SM_35_INTRINSICS_H__
#define __SM_35_INTRINSICS_H__
#endif
#ifndef __SM_60_ATOMIC_FUNCTIONS_HPP__
#define __SM_60_ATOMIC_FUNCTIONS_HPP__
#endif
#ifndef __SM_60_ATOMIC_FUNCTIONS_H__
#define __SM_60_ATOMIC_FUNCTIONS_H__
#endif
#ifndef __SM_61_INTRINSICS_HPP__
#define __SM_61_INTRINSICS_HPP__
#endif
#ifndef __SM_61_INTRINSICS_H__
#define __SM_61_INTRINSICS_H__
#endif
#ifndef __SURFACE_INDIRECT_FUNCTIONS_H__
#define __SURFACE_INDIRECT_FUNCTIONS_H__
#endif
#ifndef __SURFACE_TYPES_H__
#define __SURFACE_TYPES_H__
#endif
#ifndef __TEXTURE_INDIRECT_FUNCTIONS_H__
#define __TEXTURE_INDIRECT_FUNCTIONS_H__
#endif
#ifndef __TEXTURE_TYPES_H__
#define __TEXTURE_TYPES_H__
#endif
#ifndef __VECTOR_FUNCTIONS_HPP__
#define __VECTOR_FUNCTIONS_HPP__
#endif
#ifndef __VECTOR_FUNCTIONS_H__
#define __VECTOR_FUNCTIONS_H__
#endif
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12040
#endif
#endif
#ifdef __clang__
#pragma clang diagnostic pop
#endif
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
