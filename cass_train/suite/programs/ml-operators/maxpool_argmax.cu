// cass-bench: maxpool_argmax
// domain: ml-operators
// features: 2x2-pooling, argmax-indices, backward-scatter, atomicAdd, 3d-grid
// args:
// 2x2 max pooling with argmax indices (first maximum wins), then its backward pass scattering
// gradients with atomicAdd into a zeroed input gradient.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void pool_fwd(const float* in, float* out, int* arg, int H, int W) {
  int ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y * blockDim.y + threadIdx.y, ch = blockIdx.z;
  int OH = H / 2, OW = W / 2;
  if (ox >= OW || oy >= OH) return;
  const float* p = in + (size_t)ch * H * W;
  int best = (2 * oy) * W + 2 * ox;
  for (int dy = 0; dy < 2; ++dy)
    for (int dx = 0; dx < 2; ++dx) {
      int idx = (2 * oy + dy) * W + 2 * ox + dx;
      if (p[idx] > p[best]) best = idx;
    }
  out[((size_t)ch * OH + oy) * OW + ox] = p[best];
  arg[((size_t)ch * OH + oy) * OW + ox] = best;
}

__global__ void pool_bwd(const float* gout, const int* arg, float* gin, int n_out, int per_ch_out, int per_ch_in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_out) return;
  atomicAdd(&gin[(size_t)(i / per_ch_out) * per_ch_in + arg[i]], gout[i]);
}

int main() {
  const int C = 64, H = 64, W = 64, OH = H / 2, OW = W / 2;
  std::vector<float> in((size_t)C * H * W), out((size_t)C * OH * OW), gout(out.size()), gin(in.size());
  std::vector<int> arg(out.size());
  unsigned s = 1618u;
  for (auto& v : in) { s = s * 1664525u + 1013904223u; v = (float)((s >> 24) % 16); }  // many ties
  for (size_t i = 0; i < gout.size(); ++i) gout[i] = (float)(i % 7) - 3.0f;
  float *di, *dout, *dgo, *dgi; int* darg;
  CHECK(cudaMalloc(&di, in.size() * 4)); CHECK(cudaMalloc(&dout, out.size() * 4)); CHECK(cudaMalloc(&dgo, gout.size() * 4));
  CHECK(cudaMalloc(&dgi, gin.size() * 4)); CHECK(cudaMalloc(&darg, arg.size() * 4));
  CHECK(cudaMemcpy(di, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dgo, gout.data(), gout.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dgi, 0, gin.size() * 4));
  pool_fwd<<<dim3((OW + 15) / 16, (OH + 15) / 16, C), dim3(16, 16)>>>(di, dout, darg, H, W);
  pool_bwd<<<((int)out.size() + 255) / 256, 256>>>(dgo, darg, dgi, (int)out.size(), OH * OW, H * W);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(arg.data(), darg, arg.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gin.data(), dgi, gin.size() * 4, cudaMemcpyDeviceToHost));
  std::vector<float> rgin(in.size(), 0.0f);
  int bad = 0;
  for (int c = 0; c < C; ++c)
    for (int oy = 0; oy < OH; ++oy)
      for (int ox = 0; ox < OW; ++ox) {
        const float* p = in.data() + (size_t)c * H * W;
        int best = 2 * oy * W + 2 * ox;
        for (int dy = 0; dy < 2; ++dy) for (int dx = 0; dx < 2; ++dx) { int idx = (2 * oy + dy) * W + 2 * ox + dx; if (p[idx] > p[best]) best = idx; }
        size_t o = ((size_t)c * OH + oy) * OW + ox;
        bad += out[o] != p[best] || arg[o] != best;
        rgin[(size_t)c * H * W + best] += gout[o];
      }
  for (size_t i = 0; i < gin.size(); ++i) bad += gin[i] != rgin[i];
  printf("maxpool_argmax: C=%d %dx%d mismatches=%d\n", C, H, W, bad);
  cudaFree(di); cudaFree(dout); cudaFree(dgo); cudaFree(dgi); cudaFree(darg);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
