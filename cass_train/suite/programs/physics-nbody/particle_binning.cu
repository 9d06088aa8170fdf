// cass-bench: particle_binning
// domain: physics-nbody
// features: atomicAdd, counting-sort, 3d-cells, scan, cell-lists
// args:
// Builds cell lists for 500k particles in a 32^3 grid: count per cell with atomics, exclusive
// scan (one block), scatter with atomic cursors; every cell must hold exactly its particles.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define G 32
#define CELLS (G * G * G)

__host__ __device__ inline int cell_of(float3 p) {
  int cx = min((int)(p.x * G), G - 1), cy = min((int)(p.y * G), G - 1), cz = min((int)(p.z * G), G - 1);
  return (cz * G + cy) * G + cx;
}

__global__ void count(const float3* p, int n, unsigned* counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[cell_of(p[i])], 1u);
}

__global__ void scan(const unsigned* counts, unsigned* starts) {
  __shared__ unsigned sums[1024];
  const int per = CELLS / 1024;
  unsigned local = 0;
  for (int k = 0; k < per; ++k) local += counts[threadIdx.x * per + k];
  sums[threadIdx.x] = local;
  __syncthreads();
  for (int off = 1; off < 1024; off <<= 1) {
    unsigned v = threadIdx.x >= off ? sums[threadIdx.x - off] : 0u;
    __syncthreads();
    sums[threadIdx.x] += v;
    __syncthreads();
  }
  unsigned acc = sums[threadIdx.x] - local;
  for (int k = 0; k < per; ++k) { starts[threadIdx.x * per + k] = acc; acc += counts[threadIdx.x * per + k]; }
}

__global__ void scatter(const float3* p, int n, const unsigned* starts, unsigned* cursor, int* ids) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int c = cell_of(p[i]);
  ids[starts[c] + atomicAdd(&cursor[c], 1u)] = i;
}

int main() {
  const int n = 500000;
  std::vector<float3> p(n);
  unsigned s = 4711u;
  auto r = [&]() { s = s * 1664525u + 1013904223u; return (s >> 8) / 16777216.0f; };
  for (auto& q : p) { float a = r(); q = make_float3(r(), a * a, r()); }
  float3* dp; unsigned *dc, *ds, *dcur; int* dids;
  CHECK(cudaMalloc(&dp, n * sizeof(float3))); CHECK(cudaMalloc(&dc, CELLS * 4)); CHECK(cudaMalloc(&ds, CELLS * 4));
  CHECK(cudaMalloc(&dcur, CELLS * 4)); CHECK(cudaMalloc(&dids, n * 4));
  CHECK(cudaMemcpy(dp, p.data(), n * sizeof(float3), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dc, 0, CELLS * 4)); CHECK(cudaMemset(dcur, 0, CELLS * 4));
  count<<<(n + 255) / 256, 256>>>(dp, n, dc);
  scan<<<1, 1024>>>(dc, ds);
  scatter<<<(n + 255) / 256, 256>>>(dp, n, ds, dcur, dids);
  CHECK(cudaGetLastError());
  std::vector<unsigned> counts(CELLS), starts(CELLS);
  std::vector<int> ids(n);
  CHECK(cudaMemcpy(counts.data(), dc, CELLS * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(starts.data(), ds, CELLS * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ids.data(), dids, n * 4, cudaMemcpyDeviceToHost));
  std::vector<unsigned> ref(CELLS, 0);
  for (auto& q : p) ++ref[cell_of(q)];
  int bad = 0;
  unsigned acc = 0, maxc = 0;
  for (int c = 0; c < CELLS; ++c) {
    bad += counts[c] != ref[c] || starts[c] != acc;
    std::vector<int> mine(ids.begin() + acc, ids.begin() + acc + ref[c]);
    for (int id : mine) bad += cell_of(p[id]) != c;
    acc += ref[c];
    maxc = std::max(maxc, ref[c]);
  }
  std::vector<int> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < n; ++i) bad += sorted[i] != i;
  printf("particle_binning: n=%d cells=%d max_per_cell=%u mismatches=%d\n", n, CELLS, maxc, bad);
  cudaFree(dp); cudaFree(dc); cudaFree(ds); cudaFree(dcur); cudaFree(dids);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
