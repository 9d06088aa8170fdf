#include <hip/hip_runtime.h>
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
static inline hipError_t hipMemAdvise(const void* p, size_t n, hipMemoryAdvise advice, hipMemLocation loc) { return hipMemAdvise(p, n, advice, loc.type == hipMemLocationTypeDevice ? loc.id : hipCpuDeviceId); }
static inline hipError_t hipMemPrefetchAsync(const void* p, size_t n, hipMemLocation loc, unsigned int flags, hipStream_t stream = nullptr) { (void)flags; return hipMemPrefetchAsync(p, n, loc.type == hipMemLocationTypeDevice ? loc.id : hipCpuDeviceId, stream); }
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
