// Test kernels for the gfx1100 emulator (tests/emu). One code object holds them all.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#define K extern "C" __global__
#define GID (blockIdx.x * blockDim.x + threadIdx.x)

K void vadd(const float* a, const float* b, float* c, int n) { int i = GID; if (i < n) c[i] = a[i] + b[i]; }
K void saxpy(float alpha, const float* x, float* y, int n) { int i = GID; if (i < n) y[i] = alpha * x[i] + y[i]; }
K void int_ops(const int* a, const int* b, int* out, int n) {
  int i = GID; if (i >= n) return;
  int x = a[i], y = b[i];
  out[6 * i + 0] = x * y; out[6 * i + 1] = y != 0 ? x / y : 0; out[6 * i + 2] = y != 0 ? x % y : 0;
  out[6 * i + 3] = (x << (y & 7)) ^ (x >> 3); out[6 * i + 4] = min(x, y) - max(x, y); out[6 * i + 5] = abs(x) & 0xffff;
}
K void uint_ops(const unsigned* a, unsigned* out, int n) {
  int i = GID; if (i >= n) return;
  unsigned x = a[i];
  out[4 * i + 0] = __popc(x); out[4 * i + 1] = __clz(x); out[4 * i + 2] = __ffs(x); out[4 * i + 3] = __brev(x);
}
K void float_math(const float* a, float* out, int n) {
  int i = GID; if (i >= n) return;
  float x = a[i];
  out[5 * i + 0] = sqrtf(fabsf(x)); out[5 * i + 1] = floorf(x) + ceilf(x); out[5 * i + 2] = fmaxf(x, 0.5f) * fminf(x, -0.5f);
  out[5 * i + 3] = x / 3.0f; out[5 * i + 4] = (float)(int)(x * 100.0f);
}
K void transcend(const float* a, float* out, int n) {
  int i = GID; if (i >= n) return;
  float x = a[i];
  out[3 * i + 0] = __expf(x); out[3 * i + 1] = __logf(fabsf(x) + 1.0f); out[3 * i + 2] = __sinf(x);
}
K void convert(const float* a, int* oi, unsigned* ou, float* of, int n) {
  int i = GID; if (i >= n) return;
  oi[i] = (int)a[i]; ou[i] = (unsigned)fabsf(a[i]); of[i] = (float)(oi[i] * 3) + (float)ou[i];
}
K void block_sum(const float* in, float* out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
}
K void block_max_int(const int* in, int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (int k = 64; k > 0; k >>= 1) { if (t < k) s[t] = max(s[t], s[t + k]); __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
}
K void shfl_xor_sum(const float* in, float* out) {
  float v = in[GID];
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor(v, m, 32);
  out[GID] = v;
}
K void shfl_down_scan(const int* in, int* out) {
  int v = in[GID];
  int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) { int u = __shfl_up(v, d, 32); if (lane >= d) v += u; }
  out[GID] = v;
}
K void shfl_idx(const int* in, const int* src, int* out) { out[GID] = __shfl(in[GID], src[GID], 32); }
K void ballot_count(const int* in, unsigned* out) {
  unsigned b = (unsigned)__ballot(in[GID] > 0);
  if ((threadIdx.x & 31) == 0) out[GID / 32] = b;
}
K void vote_any_all(const int* in, int* out) {
  int p = in[GID] > 0;
  unsigned b = (unsigned)__ballot(p);
  out[2 * GID] = b != 0; out[2 * GID + 1] = b == 0xffffffffu;
}
K void atomic_add_int(const int* in, int* total, int n) { int i = GID; if (i < n) atomicAdd(total, in[i]); }
K void atomic_add_float(const float* in, float* total, int n) { int i = GID; if (i < n) atomicAdd(total, in[i]); }
K void atomic_max_ret(const int* in, int* m, int* old) { old[GID] = atomicMax(m, in[GID]); }
K void atomic_cas_count(int* counter, int* tickets) {
  int t;
  do { t = *(volatile int*)counter; } while (atomicCAS(counter, t, t + 1) != t);
  tickets[GID] = t;
}
K void lds_histogram(const int* in, int* hist, int n) {
  __shared__ int h[16];
  if (threadIdx.x < 16) h[threadIdx.x] = 0;
  __syncthreads();
  int i = GID;
  if (i < n) atomicAdd(&h[in[i] & 15], 1);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}
K void loop_collatz(const int* in, int* steps, int n) {
  int i = GID; if (i >= n) return;
  unsigned x = in[i]; int s = 0;
  while (x != 1 && s < 1000) { x = (x & 1) ? 3 * x + 1 : x / 2; s++; }
  steps[i] = s;
}
K void switch_op(const int* op, const float* a, float* out, int n) {
  int i = GID; if (i >= n) return;
  float x = a[i], r;
  switch (op[i] & 7) {
    case 0: r = x + 1.0f; break;
    case 1: r = x * 2.0f; break;
    case 2: r = -x; break;
    case 3: r = x * x; break;
    case 4: r = x - 7.0f; break;
    case 5: r = x * 0.25f; break;
    default: r = 0.0f;
  }
  out[i] = r;
}
K void daxpy(double alpha, const double* x, double* y, int n) { int i = GID; if (i < n) y[i] = alpha * x[i] + y[i]; }
K void dmath(const double* a, double* out, int n) {
  int i = GID; if (i >= n) return;
  double x = a[i];
  out[3 * i] = sqrt(fabs(x)); out[3 * i + 1] = x / 7.0; out[3 * i + 2] = floor(x) * 2.5;
}
K void int64_ops(const long long* a, const long long* b, long long* out, int n) {
  int i = GID; if (i >= n) return;
  long long x = a[i], y = b[i];
  out[4 * i] = x * y; out[4 * i + 1] = x + (y << 13); out[4 * i + 2] = x >> 7; out[4 * i + 3] = (unsigned long long)x >> 9;
}
K void int64_div(const long long* a, const long long* b, long long* out, int n) {
  int i = GID; if (i < n) out[i] = b[i] ? a[i] / b[i] : 0;
}
K void half_ops(const __half* a, const __half* b, __half* out, int n) {
  int i = GID; if (i < n) out[i] = __hadd(__hmul(a[i], b[i]), a[i]);
}
K void half_to_float(const __half* a, float* out, int n) { int i = GID; if (i < n) out[i] = __half2float(a[i]) * 3.0f; }
K void dyn_lds_reverse(const int* in, int* out) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = buf[blockDim.x - 1 - t];
}
struct Params { float scale; int offset; double bias; };
K void struct_arg(Params p, const float* in, double* out, int n) {
  int i = GID; if (i < n) out[i] = (double)(in[i] * p.scale + (float)p.offset) + p.bias;
}
K void launch2d(float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = x * 1000.0f + y;
}
K void launch3d(int* out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = x + 100 * y + 10000 * z;
}
K void ids(int* out) {
  int g = GID;
  out[4 * g] = threadIdx.x; out[4 * g + 1] = blockIdx.x; out[4 * g + 2] = blockDim.x; out[4 * g + 3] = gridDim.x;
}
K void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += 16) {
    As[ty][tx] = A[row * n + t + tx]; Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
K void stencil1d(const float* in, float* out, int n) {
  int i = GID;
  if (i > 0 && i < n - 1) out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}
K void select_minmax(const float* a, const float* b, float* out, int n) {
  int i = GID; if (i < n) out[i] = a[i] > b[i] ? a[i] - b[i] : (a[i] < -b[i] ? b[i] : a[i] * b[i]);
}
K void private_array(const int* in, int* out, int n) {
  int i = GID; if (i >= n) return;
  int tmp[32];
  for (int k = 0; k < 32; k++) tmp[k] = in[i] * k;
  out[i] = tmp[in[i] & 31] + tmp[(in[i] >> 5) & 31];
}
K void byte_ops(const unsigned char* a, unsigned short* out, int n) {
  int i = GID; if (i < n) out[i] = (unsigned short)(a[i] * 3 + (a[(i + 1) % n] >> 1));
}
K void warp_reduce_max(const float* in, float* out) {
  float v = in[GID];
  for (int m = 16; m > 0; m >>= 1) v = fmaxf(v, __shfl_xor(v, m, 32));
  if ((threadIdx.x & 31) == 0) out[GID / 32] = v;
}
// Calls that are not inlined: a stack array in the callee (private memory through its flat
// address), and recursion.
__attribute__((noinline)) __device__ int stack_mix(const int* in, int n, int salt) {
  volatile int tmp[24];
  for (int k = 0; k < 24; k++) tmp[k] = in[(k * 7 + salt) % n] * (k + 1);
  int s = 0; for (int k = 0; k < 24; k++) s += tmp[(k * 5 + salt) % 24];
  return s;
}
__attribute__((noinline)) __device__ float halve_add(float x, int d) { return d > 0 ? halve_add(x * 0.5f, d - 1) + 1.0f : x; }
K void device_calls(const int* in, int* out, float* fout, int n) {
  int i = GID; if (i < n) { out[i] = stack_mix(in, n, i); fout[i] = halve_add((float)in[i], i % 5); }
}
