#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
#ifndef CASS_PRELUDE_bee859fb45cb3635
#define CASS_PRELUDE_bee859fb45cb3635
template <class R, class... A> static inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, R (*func)(A...)) { return hipFuncGetAttributes(attr, reinterpret_cast<const void*>(func)); }
#endif
#ifndef CASS_PRELUDE_50fdacc81aa3713d
#define CASS_PRELUDE_50fdacc81aa3713d
#if defined(__HIP_PLATFORM_AMD__)
/* CUDA's cudaDeviceProp: HIP's fields, and those HIP keeps as device attributes. */
#ifndef CASS_SERVED_CUDA_DEVICE_PROP
#define CASS_SERVED_CUDA_DEVICE_PROP
struct cudaDeviceProp : hipDeviceProp_t { int deviceOverlap; int asyncEngineCount; int unifiedAddressing; unsigned int luidDeviceNodeMask; int maxTexture1DMipmap; int maxTextureCubemap; int maxSurface1D; int maxSurfaceCubemap; size_t surfaceAlignment; int persistingL2CacheMaxSize; int streamPrioritiesSupported; int globalL1CacheSupported; int localL1CacheSupported; size_t sharedMemPerMultiprocessor; int regsPerMultiprocessor; int multiGpuBoardGroupID; int hostNativeAtomicSupported; int computePreemptionSupported; int canUseHostPointerForRegisteredMem; size_t sharedMemPerBlockOptin; int maxBlocksPerMultiProcessor; int accessPolicyMaxWindowSize; size_t reservedSharedMemPerBlock; int memoryPoolsSupported; int hostRegisterSupported; int clusterLaunch; int mpsEnabled; int deviceNumaConfig; int deviceNumaId; int hostNumaId; };
static inline hipError_t hipGetDeviceProperties(cudaDeviceProp* p, int d) { hipError_t e = hipGetDeviceProperties(static_cast<hipDeviceProp_t*>(p), d); if (e != hipSuccess) return e; int v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeDeviceOverlap, d); p->deviceOverlap = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeAsyncEngineCount, d); p->asyncEngineCount = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeUnifiedAddressing, d); p->unifiedAddressing = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeLuidDeviceNodeMask, d); p->luidDeviceNodeMask = (unsigned int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeMaxTexture1DMipmap, d); p->maxTexture1DMipmap = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeMaxTextureCubemap, d); p->maxTextureCubemap = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeMaxSurface1D, d); p->maxSurface1D = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeMaxSurfaceCubemap, d); p->maxSurfaceCubemap = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeSurfaceAlignment, d); p->surfaceAlignment = (size_t)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributePersistingL2CacheMaxSize, d); p->persistingL2CacheMaxSize = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeStreamPrioritiesSupported, d); p->streamPrioritiesSupported = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeGlobalL1CacheSupported, d); p->globalL1CacheSupported = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeLocalL1CacheSupported, d); p->localL1CacheSupported = (int)v; p->sharedMemPerMultiprocessor = p->maxSharedMemoryPerMultiProcessor; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeMaxRegistersPerMultiprocessor, d); p->regsPerMultiprocessor = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeMultiGpuBoardGroupID, d); p->multiGpuBoardGroupID = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeHostNativeAtomicSupported, d); p->hostNativeAtomicSupported = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeComputePreemptionSupported, d); p->computePreemptionSupported = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeCanUseHostPointerForRegisteredMem, d); p->canUseHostPointerForRegisteredMem = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeSharedMemPerBlockOptin, d); p->sharedMemPerBlockOptin = (size_t)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeMaxBlocksPerMultiProcessor, d); p->maxBlocksPerMultiProcessor = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeAccessPolicyMaxWindowSize, d); p->accessPolicyMaxWindowSize = (int)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeReservedSharedMemPerBlock, d); p->reservedSharedMemPerBlock = (size_t)v; v = 0; (void)hipDeviceGetAttribute(&v, hipDeviceAttributeMemoryPoolsSupported, d); p->memoryPoolsSupported = (int)v; p->hostRegisterSupported = 1; p->clusterLaunch = 0; p->mpsEnabled = 0; p->deviceNumaConfig = 0; p->deviceNumaId = -1; p->hostNumaId = -1; return hipSuccess; }
#endif
#else
static inline hipError_t hipGetDeviceProperties(cudaDeviceProp* p, int d) { return cudaGetDeviceProperties(p, d); }
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
#line 1 "runtime_api.cu"
// Runtime API walk-through: devices, memory, streams, events, occupancy, peers.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

int main() {
    int count = 0;
    hipGetDeviceCount(&count);
    cudaDeviceProp prop;
    hipGetDeviceProperties(&prop, 0);
    int smem = 0;
    hipDeviceGetAttribute(&smem, hipDeviceAttributeMaxSharedMemoryPerBlock, 0);
    hipDeviceGetAttribute(&smem, hipDeviceAttributeMultiprocessorCount, 0);
    printf("%s %d\n", prop.name, prop.multiProcessorCount);

    float *d = nullptr, *h = nullptr, *m = nullptr;
    hipMalloc((void**)&d, 1024 * sizeof(float));
    hipHostMalloc(&h, 1024 * sizeof(float));
    hipMallocManaged(&m, 1024 * sizeof(float), hipMemAttachGlobal);
    hipMemset(d, 0, 1024 * sizeof(float));

    hipStream_t s;
    hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
    hipMemcpyAsync(d, h, 1024 * sizeof(float), hipMemcpyHostToDevice, s);
    int blocks = 0;
    hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 256, 0);
    scale<<<4, 256, 0, s>>>(d, 2.0f, 1024);
    hipError_t err = hipGetLastError();
    if (err != hipSuccess) printf("%s: %s\n", hipGetErrorName(err), hipGetErrorString(err));
    hipMemcpyAsync(h, d, 1024 * sizeof(float), hipMemcpyDeviceToHost, s);
    hipStreamSynchronize(s);

    hipFuncAttributes attr;
    hipFuncGetAttributes(&attr, scale);
    int peer = 0;
    hipDeviceCanAccessPeer(&peer, 0, 1);
    if (err == hipErrorOutOfMemory || err == hipErrorInvalidValue) return 1;

    hipStreamDestroy(s);
    hipFree(d);
    hipFree(m);
    hipHostFree(h);
    hipDeviceReset();
    return 0;
}
