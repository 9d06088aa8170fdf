// PyTorch-style switches for cuda_fp16.h operators, and half2 arithmetic.
#define __CUDA_NO_HALF_OPERATORS__
#define __CUDA_NO_HALF_CONVERSIONS__
#include <cuda_fp16.h>

__global__ void axpy(__half2* y, const __half2* x, __half2 a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma2(a, x[i], y[i]);
#ifdef __CUDA_NO_HALF_OPERATORS__
  if (i == 0) y[0] = __hadd2(y[0], __float2half2_rn(1.0f));
#endif
}
