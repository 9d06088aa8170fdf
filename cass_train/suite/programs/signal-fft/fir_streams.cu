// cass-bench: fir_streams
// domain: signal-fft
// features: constant-memory, cudaMemcpyToSymbol, streams, events, cudaStreamWaitEvent, shared-memory
// args:
// A 63-tap FIR filter over 4 channels, each channel on its own stream; an event makes the
// last stream wait for the others before a combining kernel runs.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define TAPS 63
#define BLOCK 256
__constant__ float c_taps[TAPS];

__global__ void fir(const float* in, float* out, int n) {
  __shared__ float buf[BLOCK + TAPS - 1];
  int base = blockIdx.x * BLOCK;
  for (int i = threadIdx.x; i < BLOCK + TAPS - 1; i += BLOCK) {
    int g = base + i - (TAPS - 1);
    buf[i] = (g >= 0 && g < n) ? in[g] : 0.0f;
  }
  __syncthreads();
  int i = base + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = 0; k < TAPS; ++k) s += c_taps[k] * buf[threadIdx.x + TAPS - 1 - k];
  out[i] = s;
}

__global__ void combine(const float* y, float* mix, int n, int channels) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int c = 0; c < channels; ++c) s += y[(size_t)c * n + i];
  mix[i] = s;
}

int main() {
  const int n = 1 << 16, C = 4;
  float taps[TAPS];
  for (int k = 0; k < TAPS; ++k) { float t = k - (TAPS - 1) / 2.0f; taps[k] = (t == 0 ? 0.25f : sinf(0.25f * (float)M_PI * t) / ((float)M_PI * t)) * (0.54f - 0.46f * cosf(2 * (float)M_PI * k / (TAPS - 1))); }
  CHECK(cudaMemcpyToSymbol(c_taps, taps, sizeof(taps)));
  std::vector<float> x((size_t)C * n), mix(n);
  unsigned s = 606u;
  for (auto& v : x) { s = s * 1664525u + 1013904223u; v = ((s >> 9) & 0xFFFF) / 32768.0f - 1.0f; }
  float *dx, *dy, *dmix;
  CHECK(cudaMalloc(&dx, x.size() * 4));
  CHECK(cudaMalloc(&dy, x.size() * 4));
  CHECK(cudaMalloc(&dmix, n * 4));
  cudaStream_t st[C];
  cudaEvent_t done[C];
  for (int c = 0; c < C; ++c) { CHECK(cudaStreamCreate(&st[c])); CHECK(cudaEventCreate(&done[c])); }
  for (int c = 0; c < C; ++c) {
    CHECK(cudaMemcpyAsync(dx + (size_t)c * n, x.data() + (size_t)c * n, n * 4, cudaMemcpyHostToDevice, st[c]));
    fir<<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, st[c]>>>(dx + (size_t)c * n, dy + (size_t)c * n, n);
    CHECK(cudaEventRecord(done[c], st[c]));
  }
  for (int c = 0; c < C - 1; ++c) CHECK(cudaStreamWaitEvent(st[C - 1], done[c], 0));
  combine<<<(n + 255) / 256, 256, 0, st[C - 1]>>>(dy, dmix, n, C);
  CHECK(cudaStreamSynchronize(st[C - 1]));
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(mix.data(), dmix, n * 4, cudaMemcpyDeviceToHost));
  double max_err = 0, energy = 0;
  for (int i = 0; i < n; ++i) {
    double m = 0;
    for (int c = 0; c < C; ++c) {
      double y = 0;
      for (int k = 0; k < TAPS; ++k) if (i - k >= 0) y += (double)taps[k] * x[(size_t)c * n + i - k];
      m += y;
    }
    max_err = fmax(max_err, fabs(m - mix[i]));
    energy += m * m;
  }
  printf("fir_streams: n=%d channels=%d energy=%.3f max_err=%.2e\n", n, C, energy, max_err);
  for (int c = 0; c < C; ++c) { cudaStreamDestroy(st[c]); cudaEventDestroy(done[c]); }
  cudaFree(dx); cudaFree(dy); cudaFree(dmix);
  bool ok = max_err < 1e-4;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
