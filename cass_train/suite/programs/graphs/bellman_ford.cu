// cass-bench: bellman_ford
// domain: graphs
// features: atomicMin, edge-parallel, convergence-flag, __managed__-free-host-loop
// args:
// Single-source shortest paths with integer weights: edge-parallel relaxation with atomicMin
// until no distance changes; compared with Dijkstra on the host.
#include <climits>
#include <functional>
#include <cstdio>
#include <queue>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void relax(const int* src, const int* dst, const int* w, int m, int* dist, int* changed) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  int du = dist[src[e]];
  if (du == INT_MAX) return;
  int cand = du + w[e];
  if (cand < dist[dst[e]]) {
    if (atomicMin(&dist[dst[e]], cand) > cand) *changed = 1;
  }
}

int main() {
  const int n = 20000, m = 120000;
  std::vector<int> src(m), dst(m), w(m);
  unsigned s = 424242u;
  for (int e = 0; e < m; ++e) {
    s = s * 1664525u + 1013904223u; src[e] = e < n ? e : (int)((s >> 8) % n);
    s = s * 1664525u + 1013904223u; dst[e] = e < n ? (e + 1) % n : (int)((s >> 8) % n);
    s = s * 1664525u + 1013904223u; w[e] = 1 + (int)((s >> 16) % 100);
  }
  std::vector<std::vector<std::pair<int, int>>> adj(n);
  for (int e = 0; e < m; ++e) adj[src[e]].push_back({dst[e], w[e]});
  std::vector<int> ref(n, INT_MAX);
  std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<>> pq;
  ref[0] = 0; pq.push({0, 0});
  while (!pq.empty()) {
    auto [d, u] = pq.top(); pq.pop();
    if (d > ref[u]) continue;
    for (auto [v, wt] : adj[u]) if (d + wt < ref[v]) { ref[v] = d + wt; pq.push({ref[v], v}); }
  }
  int *ds, *dd, *dw, *ddist, *dchanged;
  CHECK(cudaMalloc(&ds, m * 4)); CHECK(cudaMalloc(&dd, m * 4)); CHECK(cudaMalloc(&dw, m * 4));
  CHECK(cudaMalloc(&ddist, n * 4)); CHECK(cudaMalloc(&dchanged, 4));
  CHECK(cudaMemcpy(ds, src.data(), m * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dd, dst.data(), m * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dw, w.data(), m * 4, cudaMemcpyHostToDevice));
  std::vector<int> dist(n, INT_MAX);
  dist[0] = 0;
  CHECK(cudaMemcpy(ddist, dist.data(), n * 4, cudaMemcpyHostToDevice));
  int changed = 1, rounds = 0;
  while (changed && rounds < n) {
    CHECK(cudaMemset(dchanged, 0, 4));
    relax<<<(m + 255) / 256, 256>>>(ds, dd, dw, m, ddist, dchanged);
    CHECK(cudaMemcpy(&changed, dchanged, 4, cudaMemcpyDeviceToHost));
    ++rounds;
  }
  CHECK(cudaMemcpy(dist.data(), ddist, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  long long total = 0;
  for (int i = 0; i < n; ++i) { bad += dist[i] != ref[i]; total += dist[i]; }
  printf("bellman_ford: n=%d m=%d total=%lld mismatches=%d\n", n, m, total, bad);
  cudaFree(ds); cudaFree(dd); cudaFree(dw); cudaFree(ddist); cudaFree(dchanged);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
