// Patterns from ported and hand-written HIP trees: a program's own __shfl macro, libcu++ included
// after hip_runtime.h, a __device__ lambda behind a macro, vector arithmetic.
#include <hip/hip_runtime.h>
#include <cuda/std/functional>
#include <cstdio>
#define __shfl_xor(v, m) __shfl_xor(v, m)
#define GPU_LAMBDA __host__ __device__

template <class F> __global__ void apply(float* p, F f) { p[threadIdx.x] = f(p[threadIdx.x]); }

__global__ void reduce(const float* in, float* out) {
  float v = in[threadIdx.x];
  v += __shfl_xor(v, 1);
  float m = cuda::std::plus<float>()(v, 1.0f);
  float2 a = make_float2(v, m) * 2.0f + make_float2(1.0f, 1.0f);
  if (threadIdx.x == 0) *out = a.x + a.y + __any(v > 0) + __popcll(__ballot(1));
}

int main() {
  float *p, *o;
  hipMalloc(&p, 64 * sizeof(float));
  hipMalloc(&o, sizeof(float));
  hipLaunchKernelGGL(reduce, dim3(1), dim3(64), 0, 0, p, o);
  apply<<<1, 64>>>(p, [] GPU_LAMBDA (float x) { return 2 * x; });
  printf("%s\n", hipDeviceSynchronize() == hipSuccess ? "PASS" : "FAIL");
  return 0;
}
