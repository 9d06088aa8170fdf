// cass-bench: bfs_frontier
// domain: graphs
// features: atomics, atomicCAS, atomicAdd, frontier-queues, CSR
// args:
// Level-synchronous BFS on a random CSR graph with explicit frontier queues; levels are claimed
// with atomicCAS, the next frontier grows with atomicAdd.
#include <cstdio>
#include <queue>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void expand(const int* rowptr, const int* col, int* level, const int* frontier, int fsize,
                       int* next, int* nsize, int depth) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= fsize) return;
  int u = frontier[t];
  for (int e = rowptr[u]; e < rowptr[u + 1]; ++e) {
    int v = col[e];
    if (atomicCAS(&level[v], -1, depth + 1) == -1) next[atomicAdd(nsize, 1)] = v;
  }
}

int main() {
  const int n = 100000, deg = 6;
  std::vector<int> rowptr(n + 1), col;
  unsigned s = 99991u;
  for (int u = 0; u < n; ++u) {
    rowptr[u] = (int)col.size();
    col.push_back((u + 1) % n);  // a ring keeps it connected
    for (int k = 1; k < deg; ++k) { s = s * 1664525u + 1013904223u; col.push_back((int)((s >> 8) % n)); }
  }
  rowptr[n] = (int)col.size();
  std::vector<int> ref(n, -1);
  std::queue<int> q;
  ref[0] = 0; q.push(0);
  while (!q.empty()) { int u = q.front(); q.pop(); for (int e = rowptr[u]; e < rowptr[u + 1]; ++e) if (ref[col[e]] < 0) { ref[col[e]] = ref[u] + 1; q.push(col[e]); } }
  int *drow, *dcol, *dlevel, *fa, *fb, *dsize;
  CHECK(cudaMalloc(&drow, (n + 1) * 4));
  CHECK(cudaMalloc(&dcol, col.size() * 4));
  CHECK(cudaMalloc(&dlevel, n * 4));
  CHECK(cudaMalloc(&fa, n * 4));
  CHECK(cudaMalloc(&fb, n * 4));
  CHECK(cudaMalloc(&dsize, 4));
  CHECK(cudaMemcpy(drow, rowptr.data(), (n + 1) * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dcol, col.data(), col.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dlevel, 0xFF, n * 4));
  int zero = 0;
  CHECK(cudaMemcpy(dlevel, &zero, 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(fa, &zero, 4, cudaMemcpyHostToDevice));
  int fsize = 1, depth = 0;
  while (fsize > 0) {
    CHECK(cudaMemset(dsize, 0, 4));
    expand<<<(fsize + 255) / 256, 256>>>(drow, dcol, dlevel, fa, fsize, fb, dsize, depth);
    CHECK(cudaMemcpy(&fsize, dsize, 4, cudaMemcpyDeviceToHost));
    std::swap(fa, fb);
    ++depth;
  }
  std::vector<int> level(n);
  CHECK(cudaMemcpy(level.data(), dlevel, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0, maxl = 0;
  for (int i = 0; i < n; ++i) { bad += level[i] != ref[i]; maxl = level[i] > maxl ? level[i] : maxl; }
  printf("bfs_frontier: n=%d edges=%zu depth=%d mismatches=%d\n", n, col.size(), maxl, bad);
  cudaFree(drow); cudaFree(dcol); cudaFree(dlevel); cudaFree(fa); cudaFree(fb); cudaFree(dsize);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
