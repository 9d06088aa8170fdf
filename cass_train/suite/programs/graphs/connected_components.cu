// cass-bench: connected_components
// domain: graphs
// features: atomicMin, label-propagation, pointer-jumping, convergence-flag
// args:
// Connected components of a random undirected graph by min-label propagation with atomicMin
// and pointer jumping; labels must equal the smallest vertex id of each component (union-find).
#include <cstdio>
#include <numeric>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void hook(const int2* edges, int m, int* label, int* changed) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  int a = label[edges[e].x], b = label[edges[e].y];
  if (a == b) return;
  int lo = min(a, b), hi = max(a, b);
  if (atomicMin(&label[hi], lo) > lo) *changed = 1;
}

__global__ void jump(int* label, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int l = label[v];
  while (label[l] != l) l = label[l];
  label[v] = l;
}

static int find(std::vector<int>& p, int x) { while (p[x] != x) { p[x] = p[p[x]]; x = p[x]; } return x; }

int main() {
  const int n = 200000, m = 150000;  // below the giant-component threshold: many components
  std::vector<int2> edges(m);
  unsigned s = 5150u;
  for (auto& e : edges) { s = s * 1664525u + 1013904223u; e.x = (s >> 8) % n; s = s * 1664525u + 1013904223u; e.y = (s >> 8) % n; }
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (auto& e : edges) { int a = find(parent, e.x), b = find(parent, e.y); if (a != b) parent[std::max(a, b)] = std::min(a, b); }
  int2* de;
  int *dl, *dc;
  CHECK(cudaMalloc(&de, m * sizeof(int2)));
  CHECK(cudaMalloc(&dl, n * 4));
  CHECK(cudaMalloc(&dc, 4));
  CHECK(cudaMemcpy(de, edges.data(), m * sizeof(int2), cudaMemcpyHostToDevice));
  std::vector<int> label(n);
  std::iota(label.begin(), label.end(), 0);
  CHECK(cudaMemcpy(dl, label.data(), n * 4, cudaMemcpyHostToDevice));
  int changed = 1, rounds = 0;
  while (changed) {
    CHECK(cudaMemset(dc, 0, 4));
    hook<<<(m + 255) / 256, 256>>>(de, m, dl, dc);
    jump<<<(n + 255) / 256, 256>>>(dl, n);
    CHECK(cudaMemcpy(&changed, dc, 4, cudaMemcpyDeviceToHost));
    ++rounds;
  }
  CHECK(cudaMemcpy(label.data(), dl, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0, comps = 0;
  for (int v = 0; v < n; ++v) { bad += label[v] != find(parent, v); comps += label[v] == v; }
  printf("connected_components: n=%d m=%d components=%d mismatches=%d\n", n, m, comps, bad);
  cudaFree(de); cudaFree(dl); cudaFree(dc);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
