/* cass-cc: the hand-written part of the HIP API on NVIDIA GPUs, for HIP sources built with nvcc.
 *
 * The renames (hipMalloc -> cudaMalloc, ...) are generated from cass-cc's mapping tables into
 * cass_hipnv_names.h; this file holds what is not a rename: launch macros, HIP_SYMBOL, the
 * mask-less warp functions, hipDeviceProp_t fields CUDA 12/13 dropped, float/double
 * atomicMax/atomicMin, calls whose CUDA 13 signature changed, AMD builtins the translator emits.
 * Every name this file #defines is left out of the generated renames (hipnv/headers.py reads them here).
 */
#ifndef CASS_HIPNV_H
#define CASS_HIPNV_H

#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif
#ifndef __HIP_PLATFORM_NVCC__
#define __HIP_PLATFORM_NVCC__ 1
#endif
#if defined(__CUDACC__) && !defined(__HIPCC__)
#define __HIPCC__ 1
#endif
#if defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define __HIP_DEVICE_COMPILE__ 1
#endif
#ifndef HIP_VERSION_MAJOR
#define HIP_VERSION_MAJOR 5
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 0
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)
#endif

/* CUDA's headers, before the macros below exist: they declare __ballot/__any/__all, which these
 * macros replace (the generated HIP headers include others with the macros set aside). */
#include <cuda_runtime.h>
#include <cuda.h>
#include <stdio.h>
#include <string.h>

/* ---- kernel launches */
#define hipLaunchKernelGGL(kernelName, ...) cass_hipnv_launch((kernelName), __VA_ARGS__)
#define cass_hipnv_launch(k, blocks, threads, shared, stream, ...) \
  do { k<<<(blocks), (threads), (shared), (stream)>>>(__VA_ARGS__); } while (0)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(symbol) symbol
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

/* ---- thread coordinates spelled the old HIP way */
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

#ifdef __CUDACC__
/* ---- warp functions without a mask (HIP's spelling; CUDA has only the _sync forms on sm_70+).
 * Shuffles name the whole warp, as HIP's do; votes name the lanes active at the call.
 * The shuffles are real functions in the device pass for sm_70+, where CUDA declares none
 * (its host-pass and pre-sm_70 declarations serve the rest), so a program's own
 * `#define __shfl(v, d) __shfl(v, d)` still reaches them. CUDA declares __ballot/__any/__all
 * everywhere (invalid on sm_70+), so those are renamed by object-like macros: a consistent
 * rename, harmless to CCCL's own `struct __any`. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
template <class T> static __device__ __forceinline__ T __shfl(T v, int lane, int width = warpSize) {
  return __shfl_sync(0xffffffffu, v, lane, width);
}
template <class T> static __device__ __forceinline__ T __shfl_up(T v, unsigned int delta, int width = warpSize) {
  return __shfl_up_sync(0xffffffffu, v, delta, width);
}
template <class T> static __device__ __forceinline__ T __shfl_down(T v, unsigned int delta, int width = warpSize) {
  return __shfl_down_sync(0xffffffffu, v, delta, width);
}
template <class T> static __device__ __forceinline__ T __shfl_xor(T v, int mask, int width = warpSize) {
  return __shfl_xor_sync(0xffffffffu, v, mask, width);
}
#endif
static __device__ __forceinline__ unsigned long long cass_hipnv_ballot(int p) { return __ballot_sync(__activemask(), p); }
static __device__ __forceinline__ int cass_hipnv_any(int p) { return __any_sync(__activemask(), p); }
static __device__ __forceinline__ int cass_hipnv_all(int p) { return __all_sync(__activemask(), p); }
static __device__ __forceinline__ unsigned int __lane_id() {
  unsigned int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
#define __ballot cass_hipnv_ballot
#define __any cass_hipnv_any
#define __all cass_hipnv_all

/* ---- AMD builtins the cass-cc translator emits (__syncwarp's wave barrier) */
#define __builtin_amdgcn_wave_barrier() __syncwarp()
#define __builtin_amdgcn_fence(order, scope) __threadfence_block()

/* ---- atomics HIP has and CUDA lacks */
static __device__ __forceinline__ float cass_hipnv_atomic_max(float* a, float v) {
  int* p = (int*)a;
  int old = *p, seen;
  do {
    seen = old;
    if (__int_as_float(seen) >= v) break;
    old = atomicCAS(p, seen, __float_as_int(v));
  } while (old != seen);
  return __int_as_float(old);
}
static __device__ __forceinline__ float cass_hipnv_atomic_min(float* a, float v) {
  int* p = (int*)a;
  int old = *p, seen;
  do {
    seen = old;
    if (__int_as_float(seen) <= v) break;
    old = atomicCAS(p, seen, __float_as_int(v));
  } while (old != seen);
  return __int_as_float(old);
}
static __device__ __forceinline__ double cass_hipnv_atomic_max(double* a, double v) {
  unsigned long long* p = (unsigned long long*)a;
  unsigned long long old = *p, seen;
  do {
    seen = old;
    if (__longlong_as_double((long long)seen) >= v) break;
    old = atomicCAS(p, seen, (unsigned long long)__double_as_longlong(v));
  } while (old != seen);
  return __longlong_as_double((long long)old);
}
static __device__ __forceinline__ double cass_hipnv_atomic_min(double* a, double v) {
  unsigned long long* p = (unsigned long long*)a;
  unsigned long long old = *p, seen;
  do {
    seen = old;
    if (__longlong_as_double((long long)seen) <= v) break;
    old = atomicCAS(p, seen, (unsigned long long)__double_as_longlong(v));
  } while (old != seen);
  return __longlong_as_double((long long)old);
}
static __device__ __forceinline__ float atomicMax(float* a, float v) { return cass_hipnv_atomic_max(a, v); }
static __device__ __forceinline__ float atomicMin(float* a, float v) { return cass_hipnv_atomic_min(a, v); }
static __device__ __forceinline__ double atomicMax(double* a, double v) { return cass_hipnv_atomic_max(a, v); }
static __device__ __forceinline__ double atomicMin(double* a, double v) { return cass_hipnv_atomic_min(a, v); }
template <class T> static __device__ __forceinline__ T cass_hipnv_atomic_add(T* a, T v) { return atomicAdd(a, v); }
template <class T> static __device__ __forceinline__ void cass_hipnv_atomic_add_noret(T* a, T v) { atomicAdd(a, v); }
#define unsafeAtomicAdd cass_hipnv_atomic_add
#define safeAtomicAdd cass_hipnv_atomic_add
#define atomicAddNoRet cass_hipnv_atomic_add_noret
#endif /* __CUDACC__ */

/* ---- arithmetic on vector types (float2 + float2, float4 * 2.0f, ...), which HIP's vector types
 * have and CUDA's lack. Templates constrained to the vector types (through the return type): a program's own non-template
 * operators (helper_math.h) are preferred over them, so both can exist. */
#ifdef __cplusplus
/* CUDA 13 deprecates double4, longlong4 and ulonglong4 (in favour of ..._16a/_32a): naming them
 * here must not warn in every program. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1444
template <class V> struct cass_hipnv_vec {};
#define CASS_HIPNV_VEC(T, S, N) template <> struct cass_hipnv_vec<T> { typedef S scalar; typedef T self; enum { n = N }; };
#define CASS_HIPNV_VECS(P, S) CASS_HIPNV_VEC(P##1, S, 1) CASS_HIPNV_VEC(P##2, S, 2) CASS_HIPNV_VEC(P##3, S, 3) \
  CASS_HIPNV_VEC(P##4, S, 4)
CASS_HIPNV_VECS(float, float) CASS_HIPNV_VECS(double, double) CASS_HIPNV_VECS(int, int)
CASS_HIPNV_VECS(uint, unsigned int) CASS_HIPNV_VECS(short, short) CASS_HIPNV_VECS(ushort, unsigned short)
CASS_HIPNV_VECS(char, signed char) CASS_HIPNV_VECS(uchar, unsigned char) CASS_HIPNV_VECS(longlong, long long)
CASS_HIPNV_VECS(ulonglong, unsigned long long)
#undef CASS_HIPNV_VECS
#undef CASS_HIPNV_VEC
#pragma nv_diagnostic pop
#pragma GCC diagnostic pop
#define CASS_HIPNV_OP(op)                                                                                          \
  template <class V> static __host__ __device__ __forceinline__ typename cass_hipnv_vec<V>::self& operator op##=(V& a, const V& b) {             \
    typedef typename cass_hipnv_vec<V>::scalar S;                                                                  \
    for (int i = 0; i < cass_hipnv_vec<V>::n; ++i) reinterpret_cast<S*>(&a)[i] op##= reinterpret_cast<const S*>(&b)[i]; \
    return a;                                                                                                      \
  }                                                                                                                \
  template <class V> static __host__ __device__ __forceinline__ typename cass_hipnv_vec<V>::self& operator op##=(V& a, typename cass_hipnv_vec<V>::scalar s) { \
    typedef typename cass_hipnv_vec<V>::scalar S;                                                                  \
    for (int i = 0; i < cass_hipnv_vec<V>::n; ++i) reinterpret_cast<S*>(&a)[i] op##= s;                            \
    return a;                                                                                                      \
  }                                                                                                                \
  template <class V> static __host__ __device__ __forceinline__ typename cass_hipnv_vec<V>::self operator op(V a, const V& b) { return a op##= b; } \
  template <class V> static __host__ __device__ __forceinline__ typename cass_hipnv_vec<V>::self operator op(V a, typename cass_hipnv_vec<V>::scalar s) { \
    return a op##= s;                                                                                              \
  }                                                                                                                \
  template <class V> static __host__ __device__ __forceinline__ typename cass_hipnv_vec<V>::self operator op(typename cass_hipnv_vec<V>::scalar s, const V& b) { \
    typedef typename cass_hipnv_vec<V>::scalar S;                                                                  \
    V a = b;                                                                                                       \
    for (int i = 0; i < cass_hipnv_vec<V>::n; ++i) reinterpret_cast<S*>(&a)[i] = s op reinterpret_cast<const S*>(&b)[i]; \
    return a;                                                                                                      \
  }
CASS_HIPNV_OP(+) CASS_HIPNV_OP(-) CASS_HIPNV_OP(*) CASS_HIPNV_OP(/)
#undef CASS_HIPNV_OP
template <class V> static __host__ __device__ __forceinline__ typename cass_hipnv_vec<V>::self operator-(V a) {
  typedef typename cass_hipnv_vec<V>::scalar S;
  for (int i = 0; i < cass_hipnv_vec<V>::n; ++i) reinterpret_cast<S*>(&a)[i] = -reinterpret_cast<S*>(&a)[i];
  return a;
}
#endif

/* ---- device properties: hipDeviceProp_t keeps fields CUDA 13's cudaDeviceProp dropped, and
 * HIP's own; hipGetDeviceProperties fills them from device attributes. */
struct cass_hipnv_device_prop : cudaDeviceProp {
  int clockRate, memoryClockRate, computeMode, kernelExecTimeoutEnabled, cooperativeMultiDeviceLaunch;
  int deviceOverlap, maxSharedMemoryPerMultiProcessor, clockInstructionRate, isLargeBar, asicRevision;
  char gcnArchName[256];
};
static inline cudaError_t cass_hipnv_get_device_properties(cass_hipnv_device_prop* prop, int device) {
  memset(prop, 0, sizeof *prop);
  cudaError_t err = cudaGetDeviceProperties(prop, device);
  if (err != cudaSuccess) return err;
  cudaDeviceGetAttribute(&prop->clockRate, cudaDevAttrClockRate, device);
  cudaDeviceGetAttribute(&prop->memoryClockRate, cudaDevAttrMemoryClockRate, device);
  cudaDeviceGetAttribute(&prop->computeMode, cudaDevAttrComputeMode, device);
  cudaDeviceGetAttribute(&prop->kernelExecTimeoutEnabled, cudaDevAttrKernelExecTimeout, device);
  prop->cooperativeMultiDeviceLaunch = 0;
  prop->deviceOverlap = prop->asyncEngineCount > 0;
  prop->maxSharedMemoryPerMultiProcessor = (int)prop->sharedMemPerMultiprocessor;
  prop->clockInstructionRate = prop->clockRate;
  snprintf(prop->gcnArchName, sizeof prop->gcnArchName, "sm_%d%d", prop->major, prop->minor);
  return cudaSuccess;
}
#define hipDeviceProp_t cass_hipnv_device_prop
#define hipGetDeviceProperties cass_hipnv_get_device_properties

/* ---- pinned host memory: HIP's flags argument has a default */
template <class T> static inline cudaError_t cass_hipnv_host_malloc(T** ptr, size_t size, unsigned int flags = 0) {
  return cudaHostAlloc((void**)ptr, size, flags);
}
#define hipHostMalloc cass_hipnv_host_malloc
#define hipMallocHost cass_hipnv_host_malloc
#define hipFreeHost cudaFreeHost
#define hipHostMallocDefault cudaHostAllocDefault
#define hipHostMallocPortable cudaHostAllocPortable
#define hipHostMallocMapped cudaHostAllocMapped
#define hipHostMallocWriteCombined cudaHostAllocWriteCombined
#define hipHostMallocCoherent 0
#define hipHostMallocNonCoherent 0
#define hipHostMallocNumaUser 0

/* ---- managed-memory hints: CUDA 13 takes a cudaMemLocation where HIP takes a device number */
static inline cudaMemLocation cass_hipnv_location(int device) {
  cudaMemLocation loc;
  loc.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  loc.id = device == cudaCpuDeviceId ? 0 : device;
  return loc;
}
static inline cudaError_t cass_hipnv_prefetch(const void* ptr, size_t count, int device, cudaStream_t stream = 0) {
#if CUDART_VERSION >= 13000
  return cudaMemPrefetchAsync(ptr, count, cass_hipnv_location(device), 0, stream);
#else
  return cudaMemPrefetchAsync(ptr, count, device, stream);
#endif
}
static inline cudaError_t cass_hipnv_advise(const void* ptr, size_t count, cudaMemoryAdvise advice, int device) {
#if CUDART_VERSION >= 13000
  return cudaMemAdvise(ptr, count, advice, cass_hipnv_location(device));
#else
  return cudaMemAdvise(ptr, count, advice, device);
#endif
}
#define hipMemPrefetchAsync cass_hipnv_prefetch
#define hipMemAdvise cass_hipnv_advise

/* ---- HIP names with no CUDA row in the tables */
#define hipDeviceAttributeMaxSharedMemoryPerMultiprocessor cudaDevAttrMaxSharedMemoryPerMultiprocessor
#define make_hipComplex make_cuComplex

#endif /* CASS_HIPNV_H */
