// cass-bench: pagerank_pull
// domain: graphs
// features: CSR, pull-based, fp32, dangling-nodes, shared-memory-reduction
// args:
// 30 pull-style PageRank iterations on a random graph (in-edge CSR), dangling mass summed by a
// block reduction each iteration.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void dangling_sum(const float* rank, const int* outdeg, float* total, int n) {
  __shared__ float part[256];
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) if (outdeg[i] == 0) s += rank[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int st = 128; st > 0; st >>= 1) { if (threadIdx.x < st) part[threadIdx.x] += part[threadIdx.x + st]; __syncthreads(); }
  if (threadIdx.x == 0) *total = part[0];
}

__global__ void pull(const int* inptr, const int* src, const int* outdeg, const float* rank, float* next,
                     const float* dangling, int n, float d) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  float s = 0.0f;
  for (int e = inptr[v]; e < inptr[v + 1]; ++e) s += rank[src[e]] / outdeg[src[e]];
  next[v] = (1.0f - d) / n + d * (s + *dangling / n);
}

int main() {
  const int n = 30000, iters = 30;
  const float d = 0.85f;
  std::vector<std::vector<int>> in(n);
  std::vector<int> outdeg(n, 0);
  unsigned s = 31u;
  for (int u = 0; u < n; ++u) {
    s = s * 1664525u + 1013904223u;
    int k = (s >> 28) % 8;  // 0..7 out-edges; zero makes a dangling node
    for (int j = 0; j < k; ++j) { s = s * 1664525u + 1013904223u; in[(s >> 8) % n].push_back(u); ++outdeg[u]; }
  }
  std::vector<int> inptr(n + 1, 0), src;
  for (int v = 0; v < n; ++v) { inptr[v] = (int)src.size(); src.insert(src.end(), in[v].begin(), in[v].end()); }
  inptr[n] = (int)src.size();
  std::vector<double> ref(n, 1.0 / n), nx(n);
  for (int it = 0; it < iters; ++it) {
    double dang = 0;
    for (int i = 0; i < n; ++i) if (!outdeg[i]) dang += ref[i];
    for (int v = 0; v < n; ++v) {
      double acc = 0;
      for (int e = inptr[v]; e < inptr[v + 1]; ++e) acc += ref[src[e]] / outdeg[src[e]];
      nx[v] = (1 - d) / n + d * (acc + dang / n);
    }
    ref.swap(nx);
  }
  int *dptr, *dsrc, *ddeg;
  float *ra, *rb, *ddang;
  CHECK(cudaMalloc(&dptr, (n + 1) * 4)); CHECK(cudaMalloc(&dsrc, src.size() * 4)); CHECK(cudaMalloc(&ddeg, n * 4));
  CHECK(cudaMalloc(&ra, n * 4)); CHECK(cudaMalloc(&rb, n * 4)); CHECK(cudaMalloc(&ddang, 4));
  CHECK(cudaMemcpy(dptr, inptr.data(), (n + 1) * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dsrc, src.data(), src.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ddeg, outdeg.data(), n * 4, cudaMemcpyHostToDevice));
  std::vector<float> r(n, 1.0f / n);
  CHECK(cudaMemcpy(ra, r.data(), n * 4, cudaMemcpyHostToDevice));
  for (int it = 0; it < iters; ++it) {
    dangling_sum<<<1, 256>>>(ra, ddeg, ddang, n);
    pull<<<(n + 255) / 256, 256>>>(dptr, dsrc, ddeg, ra, rb, ddang, n, d);
    std::swap(ra, rb);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(r.data(), ra, n * 4, cudaMemcpyDeviceToHost));
  double max_rel = 0, sum = 0;
  int best = 0;
  for (int i = 0; i < n; ++i) { max_rel = fmax(max_rel, fabs(r[i] - ref[i]) / ref[i]); sum += r[i]; if (r[i] > r[best]) best = i; }
  printf("pagerank_pull: n=%d edges=%zu sum=%.5f top=%d max_rel=%.2e\n", n, src.size(), sum, best, max_rel);
  cudaFree(dptr); cudaFree(dsrc); cudaFree(ddeg); cudaFree(ra); cudaFree(rb); cudaFree(ddang);
  bool ok = max_rel < 1e-3 && fabs(sum - 1.0) < 1e-3;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
