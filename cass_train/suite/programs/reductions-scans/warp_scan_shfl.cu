// cass-bench: warp_scan_shfl
// domain: reductions-scans
// features: warp-shuffle, full-mask, shfl-up, shared-memory
// emu: block_inclusive_scan grid=2 block=256 args=i32[400];i32[400]=0;i32:400
// args:
// Inclusive block scan built from __shfl_up_sync warp scans and a scan of warp totals.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ __forceinline__ int warp_inclusive(int v) {
  int lane = threadIdx.x & 31;
  for (int off = 1; off < 32; off <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += y;
  }
  return v;
}

__global__ void block_inclusive_scan(const int* in, int* out, int n) {
  __shared__ int warp_totals[32];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = gid < n ? in[gid] : 0;
  v = warp_inclusive(v);
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < (int)(blockDim.x >> 5) ? warp_totals[lane] : 0;
    t = warp_inclusive(t);
    warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (gid < n) out[gid] = v;
}

int main() {
  const int n = 100000, threads = 1024;
  std::vector<int> h(n), out(n);
  unsigned s = 4242u;
  for (auto& v : h) { s = s * 1664525u + 1013904223u; v = (int)(s >> 26) - 32; }
  int *din, *dout;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice));
  block_inclusive_scan<<<(n + threads - 1) / threads, threads>>>(din, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  long long checksum = 0;
  for (int b = 0; b < n; b += threads) {
    int acc = 0;
    for (int i = b; i < n && i < b + threads; ++i) { acc += h[i]; if (out[i] != acc) ++bad; checksum += out[i]; }
  }
  printf("warp_scan_shfl: n=%d checksum=%lld mismatches=%d\n", n, checksum, bad);
  cudaFree(din); cudaFree(dout);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
