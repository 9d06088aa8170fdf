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
#line 1 "vector_operators.cu"
// helper_math.h style operators: HIP's vector types define these, so they go.
#include <hip/hip_runtime.h>

/* cass-cc: operator-(float4) removed: HIP defines it */



/* cass-cc: operator+=(float4, float4) removed: HIP defines it */


/* cass-cc: operator*(float, float2) removed: HIP defines it */

// Kept: not an operator HIP has (a dot product), a member, and pointer arithmetic.
inline __host__ __device__ float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
struct Particle {
    float4 p;
    __host__ __device__ Particle operator+(float4 d) const { return Particle{make_float4(p.x + d.x, p.y, p.z, p.w)}; }
};
struct Cursor { float4* at; };
inline Cursor operator+(Cursor c, int n) { return Cursor{c.at + n}; }

__global__ void step(float4* x, float4 v) {
    float4 a = x[threadIdx.x];
    a += v;
    x[threadIdx.x] = -a + 2.0f * a;
}
