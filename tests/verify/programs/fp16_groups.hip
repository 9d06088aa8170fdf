// HIP for the HIP-on-NVIDIA tests: half precision, complex numbers, cooperative groups
// (thread blocks, tiles, a grid-wide sync through hipLaunchCooperativeKernel).
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_complex.h>
#include <hip/hip_cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void half_ops(const __half* a, const __half* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half2 p = __halves2half2(a[i], b[i]);
    __half2 q = __hmul2(p, __float2half2_rn(2.0f));
    __half s = __hadd(__low2half(q), __high2half(q));
    s = __shfl_xor(s, 1);
    out[i] = __half2float(s);
  }
}

__global__ void grid_sum(const int* in, int* partial, int* total, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) v += in[i];
  for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0) atomicAdd(&partial[blockIdx.x], v);
  grid.sync();
  if (grid.thread_rank() == 0) {
    int t = 0;
    for (int b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
}

int main() {
  const int n = 256;
  __half ha[n], hb[n];
  for (int i = 0; i < n; ++i) { ha[i] = __float2half(i * 0.5f); hb[i] = __float2half(1.0f); }
  __half *a, *b;
  float* out;
  hipMalloc(&a, sizeof ha); hipMalloc(&b, sizeof hb); hipMalloc(&out, n * sizeof(float));
  hipMemcpy(a, ha, sizeof ha, hipMemcpyHostToDevice);
  hipMemcpy(b, hb, sizeof hb, hipMemcpyHostToDevice);
  hipLaunchKernelGGL(half_ops, dim3(n / 64), dim3(64), 0, 0, a, b, out, n);
  float hout[n];
  hipMemcpy(hout, out, sizeof hout, hipMemcpyDeviceToHost);
  printf("half: %g %g\n", hout[0], hout[3]);
  // lane i holds 2 * (0.5 i) + 2 * 1 = i + 2, then takes lane i ^ 1's value
  bool ok = hout[0] == 3.0f && hout[3] == 4.0f;

  hipFloatComplex z = make_hipFloatComplex(1.0f, 2.0f);
  hipFloatComplex w = hipCmulf(z, hipConjf(z));
  printf("complex: %g %g\n", hipCrealf(w), hipCimagf(w));
  ok = ok && hipCrealf(w) == 5.0f && hipCimagf(w) == 0.0f;

  const int m = 1 << 14, blocks = 8;
  int* hin = new int[m];
  for (int i = 0; i < m; ++i) hin[i] = i % 7;
  int *in, *partial, *total;
  hipMalloc(&in, m * sizeof(int)); hipMalloc(&partial, blocks * sizeof(int)); hipMalloc(&total, sizeof(int));
  hipMemcpy(in, hin, m * sizeof(int), hipMemcpyHostToDevice);
  hipMemset(partial, 0, blocks * sizeof(int));
  int mm = m;
  void* args[] = {&in, &partial, &total, &mm};
  hipError_t e = hipLaunchCooperativeKernel((void*)grid_sum, dim3(blocks), dim3(128), args, 0, 0);
  int htotal = -1;
  hipMemcpy(&htotal, total, sizeof htotal, hipMemcpyDeviceToHost);
  long expect = 0;
  for (int i = 0; i < m; ++i) expect += hin[i];
  printf("grid sum: %d (%s)\n", htotal, hipGetErrorString(e));
  ok = ok && e == hipSuccess && htotal == expect;
  delete[] hin;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
