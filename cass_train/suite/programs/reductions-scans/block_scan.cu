// cass-bench: block_scan
// domain: reductions-scans
// features: shared-memory, multi-kernel, exclusive-scan
// args:
// Exclusive prefix sum of a large array: per-block Hillis-Steele scan, scan of block sums, add-back.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

#define B 512

__global__ void scan_blocks(const unsigned* in, unsigned* out, unsigned* sums, int n) {
  __shared__ unsigned buf[2][B];
  int gid = blockIdx.x * B + threadIdx.x;
  unsigned v = gid < n ? in[gid] : 0u;
  int cur = 0;
  buf[cur][threadIdx.x] = v;
  __syncthreads();
  for (int off = 1; off < B; off <<= 1) {
    unsigned x = buf[cur][threadIdx.x];
    if (threadIdx.x >= off) x += buf[cur][threadIdx.x - off];
    buf[cur ^ 1][threadIdx.x] = x;
    cur ^= 1;
    __syncthreads();
  }
  unsigned incl = buf[cur][threadIdx.x];
  if (gid < n) out[gid] = incl - v;  // exclusive
  if (threadIdx.x == B - 1) sums[blockIdx.x] = incl;
}

__global__ void add_offsets(unsigned* out, const unsigned* offsets, int n) {
  int gid = blockIdx.x * B + threadIdx.x;
  if (gid < n) out[gid] += offsets[blockIdx.x];
}

int main() {
  const int n = 1 << 18;  // 512 blocks of 512: the block sums fit one block
  const int blocks = (n + B - 1) / B;
  std::vector<unsigned> h(n), out(n);
  unsigned s = 5u;
  for (auto& v : h) { s = s * 1664525u + 1013904223u; v = (s >> 24); }
  unsigned *din, *dout, *dsums, *doffs, *dtmp;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMalloc(&dsums, blocks * 4));
  CHECK(cudaMalloc(&doffs, blocks * 4));
  CHECK(cudaMalloc(&dtmp, 4));
  CHECK(cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice));
  scan_blocks<<<blocks, B>>>(din, dout, dsums, n);
  scan_blocks<<<1, B>>>(dsums, doffs, dtmp, blocks);
  add_offsets<<<blocks, B>>>(dout, doffs, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  unsigned acc = 0;
  int bad = 0;
  for (int i = 0; i < n; ++i) { if (out[i] != acc) ++bad; acc += h[i]; }
  printf("block_scan: n=%d total=%u last=%u mismatches=%d\n", n, acc, out[n - 1], bad);
  cudaFree(din); cudaFree(dout); cudaFree(dsums); cudaFree(doffs); cudaFree(dtmp);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
