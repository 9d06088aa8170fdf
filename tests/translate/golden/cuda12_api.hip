#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
#ifndef CASS_PRELUDE_7f26e555d323c825
#define CASS_PRELUDE_7f26e555d323c825
static inline hipError_t hipMemAdvise(const void* p, size_t n, hipMemoryAdvise advice, hipMemLocation loc) { return hipMemAdvise(p, n, advice, loc.type == hipMemLocationTypeDevice ? loc.id : hipCpuDeviceId); }
#endif
#ifndef CASS_PRELUDE_565b7c18250e184c
#define CASS_PRELUDE_565b7c18250e184c
static inline hipError_t hipMemPrefetchAsync(const void* p, size_t n, hipMemLocation loc, unsigned int flags, hipStream_t stream = nullptr) { (void)flags; return hipMemPrefetchAsync(p, n, loc.type == hipMemLocationTypeDevice ? loc.id : hipCpuDeviceId, stream); }
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
#line 1 "cuda12_api.cu"
// CUDA 12.2+/13 calls that take a cudaMemLocation where HIP 5.2 takes a device number.
#include <hip/hip_runtime.h>

int prefetch(float* managed, size_t n, int device, hipStream_t stream) {
  hipMemLocation loc;
  loc.type = hipMemLocationTypeDevice;
  loc.id = device;
  hipMemAdvise(managed, n * sizeof(float), hipMemAdviseSetPreferredLocation, loc);
  return hipMemPrefetchAsync(managed, n * sizeof(float), loc, 0, stream) == hipSuccess;
}
