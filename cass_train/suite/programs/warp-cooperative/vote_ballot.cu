// cass-bench: vote_ballot
// domain: warp-cooperative
// features: __ballot_sync, __all_sync, __any_sync, __popc, __ffs, full-mask, lane-masks
// emu: votes grid=2 block=128 args=i32[256];u32[8]=0;i32[32]=0;i32[256]=0;i32:256
// args:
// Warp votes over a predicate: ballot mask, popcount, first set lane, all/any, and each lane's
// rank among the set lanes; every warp's answers are checked on the host.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void votes(const int* in, unsigned* masks, int* info, int* rank, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  int v = gid < n ? in[gid] : 0;
  bool p = (v & 3) == 0;
  unsigned m = __ballot_sync(0xffffffffu, p);
  int all_pos = __all_sync(0xffffffffu, v >= 0);
  int any_big = __any_sync(0xffffffffu, v > 1000);
  rank[gid] = p ? __popc(m & ((1u << lane) - 1u)) : -1;
  if (lane == 0) {
    int w = gid / 32;
    masks[w] = m;
    info[w * 4 + 0] = __popc(m);
    info[w * 4 + 1] = __ffs(m);  // 1-based, 0 when none
    info[w * 4 + 2] = all_pos;
    info[w * 4 + 3] = any_big;
  }
}

int main() {
  const int n = 1 << 16, warps = n / 32;
  std::vector<int> h(n), info(warps * 4), rank(n);
  std::vector<unsigned> masks(warps);
  unsigned s = 10u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    int w = i / 32;
    h[i] = (w % 5 == 0) ? (int)(s >> 22) - 20 : (w % 7 == 0 ? 4 * (int)(s >> 25) : (int)(s >> 23) % 1001);
  }
  int *din, *dinfo, *drank; unsigned* dmask;
  CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dinfo, warps * 16)); CHECK(cudaMalloc(&drank, n * 4)); CHECK(cudaMalloc(&dmask, warps * 4));
  CHECK(cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice));
  votes<<<n / 128, 128>>>(din, dmask, dinfo, drank, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(masks.data(), dmask, warps * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(info.data(), dinfo, warps * 16, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rank.data(), drank, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0, alls = 0, anys = 0;
  for (int w = 0; w < warps; ++w) {
    unsigned m = 0; int all_pos = 1, any_big = 0, cnt = 0;
    for (int l = 0; l < 32; ++l) {
      int v = h[w * 32 + l];
      bool p = (v & 3) == 0;
      if (p) m |= 1u << l;
      all_pos &= v >= 0; any_big |= v > 1000;
      bad += rank[w * 32 + l] != (p ? cnt : -1);
      cnt += p;
    }
    int ffs = 0;
    for (int l = 0; l < 32; ++l) if (m >> l & 1) { ffs = l + 1; break; }
    bad += masks[w] != m || info[w * 4] != cnt || info[w * 4 + 1] != ffs || (info[w * 4 + 2] != 0) != (all_pos != 0) || (info[w * 4 + 3] != 0) != (any_big != 0);
    alls += all_pos; anys += any_big;
  }
  printf("vote_ballot: warps=%d all=%d any=%d mismatches=%d\n", warps, alls, anys, bad);
  cudaFree(din); cudaFree(dinfo); cudaFree(drank); cudaFree(dmask);
  printf(bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
