// Rewrites a rename cannot do (HIP 5.2, wave32).
#include <cuda_runtime.h>

__constant__ float coeffs[16];
__device__ int counter;

// The program's own float atomicMax: CUDA lacks it, HIP has it.
__device__ float atomicMax(float* address, float val) {
  int* a = (int*)address;
  int old = *a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void __launch_bounds__(256, 2) stats(const int* in, int* out, float* fmax) {
  int v = in[threadIdx.x];
  int total = __reduce_add_sync(0xffffffff, v);
  unsigned hi = __reduce_max_sync(0xffffffff, (unsigned)v);
  unsigned peers = __match_any_sync(__activemask(), v);
  int same;
  __match_all_sync(0xffffffff, v, &same);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&counter, total + (int)hi + __popc(peers) + same);
    atomicMax(fmax, coeffs[threadIdx.x % 16]);
  }
  out[threadIdx.x] = total;
}

int upload(const float* host, int* dcount) {
  cudaMemcpyToSymbol(coeffs, host, sizeof(coeffs));
  cudaMemcpyToSymbolAsync(coeffs, host, 4 * sizeof(float), 0, cudaMemcpyHostToDevice, 0);
  cudaMemcpyFromSymbol(dcount, counter, sizeof(int));
  void* where = nullptr;
  cudaGetSymbolAddress(&where, counter);
  size_t size = 0;
  cudaGetSymbolSize(&size, HIP_SYMBOL(coeffs));  // already wrapped: left alone
  return where != nullptr && size == sizeof(coeffs);
}
