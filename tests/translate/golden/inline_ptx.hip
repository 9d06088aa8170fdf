#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
#ifndef CASS_PRELUDE_0c4ca2dba7e623e4
#define CASS_PRELUDE_0c4ca2dba7e623e4
static __host__ __device__ inline unsigned int __cass_bfe_u32(unsigned int a, unsigned int b, unsigned int c) { unsigned int pos = b & 0xFFu, len = c & 0xFFu; unsigned int n = pos > 31 ? 0 : (len < 32u - pos ? len : 32u - pos); unsigned int field = n == 0 ? 0 : (a >> pos) & (n == 32 ? ~(unsigned int)0 : (1u << n) - 1u); return field; }
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
#line 1 "inline_ptx.cu"
// Inline PTX idioms rewritten to HIP; the last one is left for a model.
#include <hip/hip_runtime.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  (id) = __lane_id();
  return id;
}

__global__ void k(const unsigned* in, unsigned* out, long long* t) {
  unsigned a = in[threadIdx.x], b = in[threadIdx.x + 32], r;
  (r) = (((unsigned int)(a)) ^ (((unsigned int)(b)) ^ ((unsigned int)(lane_id()))));
  unsigned f;
  (f) = __cass_bfe_u32(((unsigned int)(r)), ((unsigned int)0x8u), ((unsigned int)0x4u));
  long long c;
  (c) = ((unsigned long long)clock64());
  out[threadIdx.x] = r + f;
  t[threadIdx.x] = c;
  asm volatile("cp.async.wait_all;");
}
