// cass-bench: stream_compact
// domain: reductions-scans
// features: atomics, warp-vote, ballot, popc, full-mask
// args:
// Keep the elements divisible by 3, in order within each warp: ballot + popc give warp offsets,
// one atomicAdd per warp reserves space; the result is sorted on the host and checked.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void compact(const int* in, int* out, int* count, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  bool keep = gid < n && (in[gid] % 3 == 0);
  unsigned mask = __ballot_sync(0xffffffffu, keep);
  int total = __popc(mask);
  int base = 0;
  if (lane == 0 && total > 0) base = atomicAdd(count, total);
  base = __shfl_sync(0xffffffffu, base, 0);
  if (keep) out[base + __popc(mask & ((1u << lane) - 1u))] = in[gid];
}

int main() {
  const int n = 1 << 20;
  std::vector<int> h(n);
  unsigned s = 8u;
  for (auto& v : h) { s = s * 1664525u + 1013904223u; v = (int)(s >> 4); }
  std::vector<int> ref;
  for (int v : h) if (v % 3 == 0) ref.push_back(v);
  int *din, *dout, *dcount;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMalloc(&dcount, 4));
  CHECK(cudaMemset(dcount, 0, 4));
  CHECK(cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice));
  compact<<<(n + 255) / 256, 256>>>(din, dout, dcount, n);
  CHECK(cudaGetLastError());
  int count = 0;
  CHECK(cudaMemcpy(&count, dcount, 4, cudaMemcpyDeviceToHost));
  bool ok = count == (int)ref.size();
  if (ok) {
    std::vector<int> got(count);
    CHECK(cudaMemcpy(got.data(), dout, count * 4, cudaMemcpyDeviceToHost));
    std::sort(got.begin(), got.end());
    std::sort(ref.begin(), ref.end());
    ok = got == ref;
  }
  printf("stream_compact: n=%d kept=%d expected=%zu\n", n, count, ref.size());
  cudaFree(din); cudaFree(dout); cudaFree(dcount);
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
