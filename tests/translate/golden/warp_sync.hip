#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
#ifndef CASS_PRELUDE_a29c7fe5bab176fc
#define CASS_PRELUDE_a29c7fe5bab176fc
static __device__ inline void __cass_syncwarp() {
#if defined(__HIP_PLATFORM_AMD__)
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"); __builtin_amdgcn_wave_barrier(); __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#else
  __syncwarp();
#endif
}
#endif
#ifndef CASS_PRELUDE_b19ff20f9c6f925a
#define CASS_PRELUDE_b19ff20f9c6f925a
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
#ifndef CASS_CORRECTED_minmax
#define CASS_CORRECTED_minmax
/* CUDA's overload set of min and max (crt/math_functions.hpp's signatures): same-type integers keep
   their type; a signed and an unsigned integer of one width compare as unsigned and return unsigned;
   float and double as fminf/fmin (fmaxf/fmax), a float beside a double as double. Other operand
   types go to HIP's own. */
#define CASS_MINMAX_INT(name, op, S, U)                                                                         \
  static __host__ __device__ inline S __cass_cuda_##name(S a, S b) { return a op b ? a : b; }                  \
  static __host__ __device__ inline U __cass_cuda_##name(U a, U b) { return a op b ? a : b; }                  \
  static __host__ __device__ inline U __cass_cuda_##name(S a, U b) { return __cass_cuda_##name((U)a, b); }     \
  static __host__ __device__ inline U __cass_cuda_##name(U a, S b) { return __cass_cuda_##name(a, (U)b); }
#define CASS_MINMAX(name, op, ff, f)                                                                              \
  CASS_MINMAX_INT(name, op, int, unsigned int)                                                                   \
  CASS_MINMAX_INT(name, op, long int, unsigned long int)                                                         \
  CASS_MINMAX_INT(name, op, long long int, unsigned long long int)                                               \
  static __host__ __device__ inline float __cass_cuda_##name(float a, float b) { return ff(a, b); }              \
  static __host__ __device__ inline double __cass_cuda_##name(double a, double b) { return f(a, b); }           \
  static __host__ __device__ inline double __cass_cuda_##name(float a, double b) { return f((double)a, b); }    \
  static __host__ __device__ inline double __cass_cuda_##name(double a, float b) { return f(a, (double)b); }    \
  CASS_FORWARD(__cass_cuda_##name, name)
CASS_MINMAX(min, <, fminf, fmin)
CASS_MINMAX(max, >, fmaxf, fmax)
#undef CASS_MINMAX
#undef CASS_MINMAX_INT
#endif
#else
#define __cass_cuda_min min
#define __cass_cuda_max max
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
#line 1 "warp_sync.cu"
#include <hip/hip_runtime.h>
#define FULL_MASK 0xffffffffu
#define WARP_SUM(v) for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o)

template <typename T, int W> __device__ T pick(T v, int lane) { return v + lane * W; }

__device__ float warp_reduce(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    return v;
}

__global__ void kernel(float* out, const float* in) {
    float v = in[threadIdx.x];
    v = warp_reduce(v);
    WARP_SUM(v);
    float first = __shfl(v, 0);
    float up = __shfl_up(v, 1, 16);
    float x = __shfl_xor(pick<float, 2>(v, (int)threadIdx.x), 1);
    float y = __shfl(
                          (v > 0.0f ? v : -v),
                          __cass_cuda_min(3, (int)threadIdx.x));
    unsigned ballot = (((unsigned int)__ballot(v > 0.0f)) & (FULL_MASK));
    bool any = ((((unsigned int)__ballot(v > 1.0f)) & (FULL_MASK)) != 0u), all = ((((unsigned int)__ballot(v < 2.0f)) & (FULL_MASK)) == (((unsigned int)__ballot(1)) & (FULL_MASK)));
    unsigned active = ((unsigned int)__ballot(1));
    __cass_syncwarp();
    __cass_syncwarp();
    out[threadIdx.x] = first + up + x + y + ballot + any + all + active;
}
