#include <hip/hip_runtime.h>
#define K extern "C" __global__ void
K fdiv32(const float* a, const float* b, float* q, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) q[i] = a[i] / b[i]; }
K fdiv64(const double* a, const double* b, double* q, double* s, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { q[i] = a[i] / b[i]; s[i] = sqrt(fabs(a[i])); } }
K fma_both(const float* a, const float* b, const float* c, float* r, const double* x, const double* y, const double* z, double* r2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { r[i] = fmaf(a[i], b[i], c[i]); r2[i] = fma(x[i], y[i], z[i]); } }
K ftz_ops(const float* a, const float* b, float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { out[3 * i] = a[i] * b[i]; out[3 * i + 1] = a[i] + b[i]; out[3 * i + 2] = fmaf(a[i], b[i], b[i]); } }
K sincos_large(const double* x, double* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { out[2 * i] = sin(x[i]); out[2 * i + 1] = cos(x[i]); } }
K round_frexp(const float* x, const double* d, float* out, double* dout, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { out[i] = rintf(x[i]); dout[2 * i] = log(d[i]); dout[2 * i + 1] = rint(d[i]); } }
