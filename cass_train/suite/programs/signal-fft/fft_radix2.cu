// cass-bench: fft_radix2
// domain: signal-fft
// features: shared-memory, float2, sincospif, bit-reversal, __brev
// args:
// In-place radix-2 complex FFT of 1024 points, one block per signal, 64 signals; checked
// against a double-precision DFT on the host.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define N 1024
#define LOGN 10

__global__ void fft(float2* data) {
  __shared__ float2 s[N];
  float2* x = data + (size_t)blockIdx.x * N;
  for (int i = threadIdx.x; i < N; i += blockDim.x) s[__brev(i) >> (32 - LOGN)] = x[i];
  __syncthreads();
  for (int len = 2; len <= N; len <<= 1) {
    int half = len >> 1;
    for (int k = threadIdx.x; k < N / 2; k += blockDim.x) {
      int group = k / half, pos = k % half;
      int i = group * len + pos, j = i + half;
      float sn, cs;
      sincospif(-2.0f * pos / len, &sn, &cs);
      float2 a = s[i], b = s[j];
      float2 t = make_float2(b.x * cs - b.y * sn, b.x * sn + b.y * cs);
      s[i] = make_float2(a.x + t.x, a.y + t.y);
      s[j] = make_float2(a.x - t.x, a.y - t.y);
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < N; i += blockDim.x) x[i] = s[i];
}

int main() {
  const int signals = 64;
  std::vector<float2> h((size_t)signals * N), out(h.size());
  for (int sgl = 0; sgl < signals; ++sgl)
    for (int i = 0; i < N; ++i)
      h[(size_t)sgl * N + i] = make_float2((float)cos(2 * M_PI * (sgl + 3) * i / N) + 0.25f * ((i * 7 + sgl) % 5),
                                           (float)sin(2 * M_PI * 17 * i / N) * 0.5f);
  float2* d;
  CHECK(cudaMalloc(&d, h.size() * sizeof(float2)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(float2), cudaMemcpyHostToDevice));
  fft<<<signals, 256>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d, h.size() * sizeof(float2), cudaMemcpyDeviceToHost));
  double max_err = 0;
  for (int sgl = 0; sgl < signals; sgl += 9) {  // a DFT of every ninth signal on the host
    for (int k = 0; k < N; ++k) {
      double re = 0, im = 0;
      for (int n = 0; n < N; ++n) {
        double ang = -2 * M_PI * (double)((long long)k * n % N) / N;
        float2 v = h[(size_t)sgl * N + n];
        re += v.x * cos(ang) - v.y * sin(ang);
        im += v.x * sin(ang) + v.y * cos(ang);
      }
      float2 g = out[(size_t)sgl * N + k];
      max_err = fmax(max_err, fmax(fabs(g.x - re), fabs(g.y - im)));
    }
  }
  printf("fft_radix2: signals=%d n=%d bin3=%.3f max_err=%.2e\n", signals, N, out[3].x, max_err);
  cudaFree(d);
  bool ok = max_err < 2e-2;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
