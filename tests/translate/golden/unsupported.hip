#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
#ifndef CASS_PRELUDE_93b4bce8201a0b98
#define CASS_PRELUDE_93b4bce8201a0b98
template <class T> static __device__ inline unsigned int __cass_match_any_t(unsigned int mask, T v) { unsigned int m = 0; for (int l = 0; l < 32; ++l) if ((mask >> l) & 1u) m |= (__shfl(v, l, 32) == v ? 1u : 0u) << l; return m; }
static __device__ inline unsigned int __cass_match_any(unsigned int mask, int v) { return __cass_match_any_t<int>(mask, v); }
static __device__ inline unsigned int __cass_match_any(unsigned int mask, unsigned int v) { return __cass_match_any_t<unsigned int>(mask, v); }
static __device__ inline unsigned int __cass_match_any(unsigned int mask, long v) { return __cass_match_any_t<long>(mask, v); }
static __device__ inline unsigned int __cass_match_any(unsigned int mask, unsigned long v) { return __cass_match_any_t<unsigned long>(mask, v); }
static __device__ inline unsigned int __cass_match_any(unsigned int mask, long long v) { return __cass_match_any_t<long long>(mask, v); }
static __device__ inline unsigned int __cass_match_any(unsigned int mask, unsigned long long v) { return __cass_match_any_t<unsigned long long>(mask, v); }
static __device__ inline unsigned int __cass_match_any(unsigned int mask, float v) { return __cass_match_any_t<float>(mask, v); }
static __device__ inline unsigned int __cass_match_any(unsigned int mask, double v) { return __cass_match_any_t<double>(mask, v); }
#endif
#ifndef CASS_PRELUDE_92a6af96efe3e2f3
#define CASS_PRELUDE_92a6af96efe3e2f3
template <class T> static __device__ inline T __cass_reduce_add_t(unsigned int mask, T v) { if (mask == 0xffffffffu) { for (int o = 16; o > 0; o /= 2) { T w = __shfl_xor(v, o, 32); v = v + w; } return v; } T r = v; bool first = true; for (int l = 0; l < 32; ++l) if ((mask >> l) & 1u) { T w = __shfl(v, l, 32); if (first) { r = w; first = false; } else { T v = r; r = v + w; } } return r; }
static __device__ inline int __cass_reduce_add(unsigned int mask, int v) { return __cass_reduce_add_t<int>(mask, v); }
static __device__ inline unsigned int __cass_reduce_add(unsigned int mask, unsigned int v) { return __cass_reduce_add_t<unsigned int>(mask, v); }
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
#line 1 "unsupported.cu"
#include <hip/hip_runtime.h>
#error "cass-cc: CUDA header <cuda_fp8.h> is not supported by HIP 5.2"

__global__ void k(int* out) {
    unsigned mask = __cass_match_any(0xffffffff, out[threadIdx.x]);
    out[threadIdx.x] = __cass_reduce_add(0xffffffff, (int)mask);
}

int main() {
    hipStream_t s;
    hipStreamCreate(&s);
    cudaStreamAttrValue value;
    cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &value);
    hipDeviceSetLimit(hipLimitStackSize, 4096);
    hipGraphicsGLRegisterBuffer(nullptr, 0, 0);
    cuLogsCurrent(0, 0);
    cudaLaunch((const void*)k);
    return 0;
}
