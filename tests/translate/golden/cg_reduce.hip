#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
#ifndef CASS_PRELUDE_eba1d91341948a6f
#define CASS_PRELUDE_eba1d91341948a6f
#include <hip/hip_cooperative_groups.h>
namespace cooperative_groups {
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <class Group, class T, class Op> __device__ T reduce(const Group& g, T v, Op op) { for (unsigned int o = g.size() / 2; o > 0; o /= 2) v = op(v, g.shfl_xor(v, o)); return v; }
}
#endif
#ifndef CASS_PRELUDE_cda9b33e028269c7
#define CASS_PRELUDE_cda9b33e028269c7
#if defined(__HIP_PLATFORM_AMD__)
static __device__ inline long long atomicAnd(long long* p, long long v) { return (long long)atomicAnd((unsigned long long*)p, (unsigned long long)v); }
static __device__ inline long long atomicOr(long long* p, long long v) { return (long long)atomicOr((unsigned long long*)p, (unsigned long long)v); }
static __device__ inline long long atomicXor(long long* p, long long v) { return (long long)atomicXor((unsigned long long*)p, (unsigned long long)v); }
static __device__ inline long long atomicMin(long long* p, long long v) { unsigned long long* u = (unsigned long long*)p; unsigned long long seen = *(volatile unsigned long long*)u, o; do { o = seen; if (!((long long)o > v)) break; seen = atomicCAS(u, o, (unsigned long long)v); } while (seen != o); return (long long)o; }
static __device__ inline long long atomicMax(long long* p, long long v) { unsigned long long* u = (unsigned long long*)p; unsigned long long seen = *(volatile unsigned long long*)u, o; do { o = seen; if (!((long long)o < v)) break; seen = atomicCAS(u, o, (unsigned long long)v); } while (seen != o); return (long long)o; }
static __device__ inline unsigned short atomicCAS(unsigned short* p, unsigned short compare, unsigned short val) { unsigned int* w = (unsigned int*)((unsigned long long)p & ~3ull); unsigned int shift = ((unsigned long long)p & 2ull) ? 16u : 0u; unsigned int seen = *(volatile unsigned int*)w, o; do { o = seen; unsigned short cur = (unsigned short)(o >> shift); if (cur != compare) return cur; seen = atomicCAS(w, o, (o & ~(0xffffu << shift)) | ((unsigned int)val << shift)); } while (seen != o); return compare; }
static __device__ inline float2 atomicAdd(float2* p, float2 v) { return make_float2(atomicAdd(&p->x, v.x), atomicAdd(&p->y, v.y)); }
static __device__ inline float4 atomicAdd(float4* p, float4 v) { return make_float4(atomicAdd(&p->x, v.x), atomicAdd(&p->y, v.y), atomicAdd(&p->z, v.z), atomicAdd(&p->w, v.w)); }
#endif
#endif
#if defined(__HIP_PLATFORM_AMD__)
#ifndef _CG_DRIVER_API_H
#define _CG_DRIVER_API_H
#endif
#ifndef _CG_INFO_H_
#define _CG_INFO_H_
#endif
#ifndef _CG_INVOKE_H
#define _CG_INVOKE_H
#endif
#ifndef _CG_PARTITIONING_H
#define _CG_PARTITIONING_H
#endif
#ifndef _COOPERATIVE_GROUPS_HELPERS_H_
#define _COOPERATIVE_GROUPS_HELPERS_H_
#endif
#ifndef _COOPERATIVE_GROUPS_H_
#define _COOPERATIVE_GROUPS_H_
#endif
#ifndef _COOPERATIVE_GROUPS_MEMORY_H_
#define _COOPERATIVE_GROUPS_MEMORY_H_
#endif
#ifndef _COOPERATIVE_GROUPS_REDUCE_H
#define _COOPERATIVE_GROUPS_REDUCE_H
#endif
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
#line 1 "cg_reduce.cu"
// cooperative_groups::reduce (CUDA 11+), which HIP 5.2 lacks.
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void block_sum(const float* in, float* out, int* hi) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  float total = cg::reduce(warp, v, cg::plus<float>());
  int top = cg::reduce(warp, (int)v, cg::greater<int>());
  if (warp.thread_rank() == 0) {
    atomicAdd(out, total);
    atomicMax(hi, top);
  }
}
