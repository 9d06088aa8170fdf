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
#line 1 "launch_spellings.cu"
// Launch chevrons in the spellings nvcc accepts; only split ones are rewritten.
#include <hip/hip_runtime.h>
#include <ostream>

template <typename T> struct Box { T v; };
template <typename T, typename U> __global__ void pair_kernel(T* out) { out[threadIdx.x] = T(sizeof(U)); }
__global__ void fill(int* out, int v) { out[threadIdx.x] = v; }

#define LAUNCH(k, g, b) k<<<g, b>>>
#define LAUNCH_SPLIT(k, g, b) k <<<  g, b >>> 
#define OPEN <<< 
#define CLOSE >>> 
#define NESTED std::pair<int, Box<Box<int>> >

template <typename T> struct Printer;
template <typename T> std::ostream& operator<<(std::ostream& os, const Printer<T>&);
template <typename T> struct Printer {
    friend std::ostream& operator<< <>(std::ostream& os, const Printer<T>& p);  // not a launch
};

template <typename T> T make(int n) { return T(); }

void run(int* out, float* f, hipStream_t stream, std::ostream& os, int a, int b) {
    fill <<<  1, 32 >>>  (out, 1);
    fill<<< 1, 32>>>(out, 2);
    fill<<<1, 32>>> (out, 3);
    fill<<<  1, 32>>> (out, 4);
    fill <<<
         1, 32 >>>
        (out, 5);
    fill<<<1, 32, 0,
           stream>>>
           (out, 6);
    fill <<< /* grid */  1, 32 >>> /* end */  (out, 7);
    fill<<<1, 32, 0, stream>>>(out, 8);
    fill<<<
        1, 32
    >>>(out, 9);
    LAUNCH(fill, 1, 32)(out, 10);
    LAUNCH_SPLIT(fill, 1, 32)(out, 11);
    fill OPEN 1, 32 CLOSE(out, 12);
    pair_kernel<float, Box<int>><<<1, 32>>>(f);
    pair_kernel<float, Box<Box<int>>><<<1, 32>>>(f);
    pair_kernel<float, Box<Box<int>> > <<<  1, 32, 0, stream >>>  (f);
    pair_kernel<float, Box<int>> <<<  dim3(1), dim3(make<int>(32)) >>>  (f);
    (fill)<<< 1, 32>>> (out, 13);
    // not launches: shifts, comparisons, templates closed by "> >"
    os << (a < b) << (a >> 1) << (b > a);
    NESTED nested = make<std::pair<int, Box<Box<int>> > >(0);
    Box<Box<Box<int>> > boxes = make<Box<Box<Box<int>> > >(0);
    (void)nested, (void)boxes;
}
