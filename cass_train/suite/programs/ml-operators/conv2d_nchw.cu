// cass-bench: conv2d_nchw
// domain: ml-operators
// features: 3d-grid, __restrict__, __ldg, padding, stride, bias-relu
// args:
// Direct 3x3 convolution (stride 1, pad 1) of an NCHW batch with bias and ReLU; blockIdx.z spans
// (image, output channel).
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void conv(const float* __restrict__ in, const float* __restrict__ w, const float* __restrict__ bias,
                     float* __restrict__ out, int C, int K, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / K, k = blockIdx.z % K;
  if (x >= W || y >= H) return;
  float s = __ldg(&bias[k]);
  for (int c = 0; c < C; ++c)
    for (int dy = 0; dy < 3; ++dy)
      for (int dx = 0; dx < 3; ++dx) {
        int yy = y + dy - 1, xx = x + dx - 1;
        if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
        s += __ldg(&in[((size_t)(n * C + c) * H + yy) * W + xx]) * __ldg(&w[((k * C + c) * 3 + dy) * 3 + dx]);
      }
  out[((size_t)(n * K + k) * H + y) * W + x] = fmaxf(s, 0.0f);
}

int main() {
  const int N = 4, C = 8, K = 16, H = 56, W = 56;
  std::vector<float> in((size_t)N * C * H * W), w(K * C * 9), bias(K), out((size_t)N * K * H * W);
  unsigned s = 2718u;
  auto r = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xFFFF) / 32768.0f - 1.0f; };
  for (auto& v : in) v = r();
  for (auto& v : w) v = 0.2f * r();
  for (auto& v : bias) v = 0.1f * r();
  float *di, *dw, *db, *dout;
  CHECK(cudaMalloc(&di, in.size() * 4)); CHECK(cudaMalloc(&dw, w.size() * 4)); CHECK(cudaMalloc(&db, K * 4)); CHECK(cudaMalloc(&dout, out.size() * 4));
  CHECK(cudaMemcpy(di, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dw, w.data(), w.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, bias.data(), K * 4, cudaMemcpyHostToDevice));
  dim3 block(16, 16), grid((W + 15) / 16, (H + 15) / 16, N * K);
  conv<<<grid, block>>>(di, dw, db, dout, C, K, H, W);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
  double max_err = 0; long zeros = 0;
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
          double acc = bias[k];
          for (int c = 0; c < C; ++c)
            for (int dy = 0; dy < 3; ++dy)
              for (int dx = 0; dx < 3; ++dx) {
                int yy = y + dy - 1, xx = x + dx - 1;
                if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
                acc += (double)in[((size_t)(n * C + c) * H + yy) * W + xx] * w[((k * C + c) * 3 + dy) * 3 + dx];
              }
          double ref = acc > 0 ? acc : 0;
          float got = out[((size_t)(n * K + k) * H + y) * W + x];
          max_err = fmax(max_err, fabs(ref - got));
          zeros += got == 0.0f;
        }
  printf("conv2d_nchw: N=%d C=%d K=%d %dx%d relu_zeros=%ld max_err=%.2e\n", N, C, K, H, W, zeros, max_err);
  cudaFree(di); cudaFree(dw); cudaFree(db); cudaFree(dout);
  bool ok = max_err < 1e-4;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
