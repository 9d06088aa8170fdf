// HIP for the HIP-on-NVIDIA tests: warp shuffles and votes with and without masks, atomics
// (float/double atomicMax/atomicMin, which CUDA lacks).
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void warp_ops(const int* in, int* out) {
  int v = in[threadIdx.x];
  int a = v;
  for (int o = 16; o > 0; o /= 2) a += __shfl_down(a, o);
  int b = v;
  for (int o = 16; o > 0; o /= 2) b += __shfl_xor_sync(0xffffffff, b, o);
  int c = __shfl(v, 0);
  int d = __shfl_up(v, 1);
  float f = __shfl_xor(float(v), 1, 32);
  unsigned long long ball = __ballot(v % 2 == 0);
  unsigned int ball_sync = __ballot_sync(0xffffffffu, v % 2 == 0);
  int any = __any(v > 30), all = __all(v >= 0);
  int all_sync = __all_sync(__activemask(), v >= 0);
  if (threadIdx.x == 5) {
    out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = int(f);
    out[5] = __popcll(ball); out[6] = __popc(ball_sync); out[7] = any + all + all_sync;
    out[8] = __lane_id();
  }
}

__global__ void atomics(const float* x, float* fmax, float* fmin, double* dmax, double* dmin,
                        int* count, double* dsum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(fmax, x[i]);
  atomicMin(fmin, x[i]);
  atomicMax(dmax, double(x[i]));
  atomicMin(dmin, double(x[i]));
  atomicAdd(count, 1);
  unsafeAtomicAdd(dsum, 1.0);
  atomicCAS(count + 1, 0, i + 1);
}

int main() {
  int h_in[32], h_out[9];
  for (int i = 0; i < 32; ++i) h_in[i] = i;
  int *in, *out;
  hipMalloc(&in, sizeof h_in);
  hipMalloc(&out, sizeof h_out);
  hipMemcpy(in, h_in, sizeof h_in, hipMemcpyHostToDevice);
  hipLaunchKernelGGL(warp_ops, dim3(1), dim3(32), 0, 0, in, out);
  hipMemcpy(h_out, out, sizeof h_out, hipMemcpyDeviceToHost);
  printf("warp: %d %d %d %d %d %d %d %d %d\n", h_out[0], h_out[1], h_out[2], h_out[3], h_out[4], h_out[5],
         h_out[6], h_out[7], h_out[8]);
  bool ok = h_out[1] == 496 && h_out[2] == 0 && h_out[3] == 4 && h_out[4] == 4 && h_out[5] == 16 && h_out[6] == 16
            && h_out[7] == 3 && h_out[8] == 5;

  const int n = 1024;
  float hx[n];
  for (int i = 0; i < n; ++i) hx[i] = float((i * 37) % 1000) - 500.0f;
  float *x, *fmax, *fmin;
  double *dmax, *dmin, *dsum;
  int* count;
  hipMalloc(&x, sizeof hx);
  hipMalloc(&fmax, sizeof(float)); hipMalloc(&fmin, sizeof(float));
  hipMalloc(&dmax, sizeof(double)); hipMalloc(&dmin, sizeof(double)); hipMalloc(&dsum, sizeof(double));
  hipMalloc(&count, 2 * sizeof(int));
  hipMemcpy(x, hx, sizeof hx, hipMemcpyHostToDevice);
  float lo = 1e30f, hi = -1e30f;
  double dlo = 1e300, dhi = -1e300, zero = 0;
  hipMemcpy(fmax, &hi, sizeof hi, hipMemcpyHostToDevice);
  hipMemcpy(fmin, &lo, sizeof lo, hipMemcpyHostToDevice);
  hipMemcpy(dmax, &dhi, sizeof dhi, hipMemcpyHostToDevice);
  hipMemcpy(dmin, &dlo, sizeof dlo, hipMemcpyHostToDevice);
  hipMemcpy(dsum, &zero, sizeof zero, hipMemcpyHostToDevice);
  hipMemset(count, 0, 2 * sizeof(int));
  atomics<<<n / 128, 128>>>(x, fmax, fmin, dmax, dmin, count, dsum);
  int hc[2];
  hipMemcpy(&hi, fmax, sizeof hi, hipMemcpyDeviceToHost);
  hipMemcpy(&lo, fmin, sizeof lo, hipMemcpyDeviceToHost);
  hipMemcpy(&dhi, dmax, sizeof dhi, hipMemcpyDeviceToHost);
  hipMemcpy(&dlo, dmin, sizeof dlo, hipMemcpyDeviceToHost);
  hipMemcpy(&zero, dsum, sizeof zero, hipMemcpyDeviceToHost);
  hipMemcpy(hc, count, sizeof hc, hipMemcpyDeviceToHost);
  printf("atomics: %g %g %g %g %d %g\n", hi, lo, dhi, dlo, hc[0], zero);
  ok = ok && hi == 499.0f && lo == -500.0f && dhi == 499.0 && dlo == -500.0 && hc[0] == n && zero == n && hc[1] > 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
