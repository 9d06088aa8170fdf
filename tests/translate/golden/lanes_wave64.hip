#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
#ifndef CASS_PRELUDE_551ae1c91d380076
#define CASS_PRELUDE_551ae1c91d380076
#if defined(__HIP_PLATFORM_AMD__)
#ifndef CASS_CORRECTED_common
#define CASS_CORRECTED_common
#include <type_traits>
/* a template that forwards to HIP's own function for operands that are not arithmetic (__half,
   __half2, the bfloat16 stand-in): only the overloads here stand for HIP's arithmetic ones */
template <class... A> struct __cass_any_arithmetic : std::false_type {};
template <class T, class... R> struct __cass_any_arithmetic<T, R...>
    : std::integral_constant<bool, std::is_arithmetic<T>::value || __cass_any_arithmetic<R...>::value> {};
#define CASS_FORWARD(fixed, hip)                                                                  \
  template <class... A, typename std::enable_if<!__cass_any_arithmetic<A...>::value, int>::type = 0> \
  static __host__ __device__ inline auto fixed(A... a) -> decltype(hip(a...)) { return hip(a...); }
/* a float rounded by a mode: 0 to nearest even, 1 toward zero, 2 down, 3 up */
#define CASS_RN 0
#define CASS_RZ 1
#define CASS_RD 2
#define CASS_RU 3

#endif
#ifndef CASS_CORRECTED_bit_count
#define CASS_CORRECTED_bit_count
/* CUDA's __popc, __popcll, __ffs and __ffsll return int (with CUDA's operand types); HIP 5.2's
   return unsigned int (the same bits) */
static __device__ inline int __cass_cuda_popc(unsigned int x) { return (int)__popc(x); }
static __device__ inline int __cass_cuda_popcll(unsigned long long int x) { return (int)__popcll(x); }
static __device__ inline int __cass_cuda_ffs(int x) { return (int)__ffs(x); }
static __device__ inline int __cass_cuda_ffsll(long long int x) { return (int)__ffsll(x); }

#endif
#else
#define __cass_cuda_popc __popc
#define __cass_cuda_popcll __popcll
#define __cass_cuda_ffs __ffs
#define __cass_cuda_ffsll __ffsll
#endif
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
#line 1 "lanes_wave64.cu"
// 32-lane assumptions, translated for a wave64 target (gfx90a): flagged, not silently kept.
#include <hip/hip_runtime.h>

__global__ void warp_sum(const int* in, int* out) {
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x / 32;
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);
  unsigned voters = __ballot(v > 0);
  if (lane == 0) out[warp] = v + __cass_cuda_popc(voters);
}
