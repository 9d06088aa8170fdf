// HIP for the HIP-on-NVIDIA tests: kernels, launch macros, streams, events, shared memory,
// constant memory through HIP_SYMBOL, device properties, pinned and managed memory.
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(call) do { hipError_t e = (call); if (e != hipSuccess) { \
  printf("error %s at line %d\n", hipGetErrorString(e), __LINE__); return 1; } } while (0)

__constant__ float scale[1];

__global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) y[i] = a * x[i] * scale[0] + y[i];
}

template <int BLOCK, typename T>
__global__ void block_sum(const T* in, T* out, int n) {
  __shared__ T tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) tile[threadIdx.x] += tile[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tile[0];
}

__global__ void reverse_dynamic(int* data, int n) {
  HIP_DYNAMIC_SHARED(int, buf)
  int t = threadIdx.x;
  buf[t] = data[t];
  __syncthreads();
  data[t] = buf[n - 1 - t];
}

int main() {
  const int n = 1 << 12;
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 0));
  int clock = 0;
  CHECK(hipDeviceGetAttribute(&clock, hipDeviceAttributeClockRate, 0));
  printf("device: %s, warp %d, arch %s\n", prop.name, prop.warpSize, prop.gcnArchName);

  float *x, *y, *hy;
  CHECK(hipMalloc(&x, n * sizeof(float)));
  CHECK(hipMalloc((void**)&y, n * sizeof(float)));
  CHECK(hipHostMalloc(&hy, n * sizeof(float)));
  for (int i = 0; i < n; ++i) hy[i] = float(i);
  const float two = 2.0f;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(scale), &two, sizeof two));

  hipStream_t s;
  hipEvent_t start, stop;
  CHECK(hipStreamCreate(&s));
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventRecord(start, s));
  CHECK(hipMemcpyAsync(x, hy, n * sizeof(float), hipMemcpyHostToDevice, s));
  CHECK(hipMemcpyAsync(y, hy, n * sizeof(float), hipMemcpyHostToDevice, s));
  hipLaunchKernelGGL(saxpy, dim3(n / 256), dim3(256), 0, s, 0.5f, x, y, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpyAsync(hy, y, n * sizeof(float), hipMemcpyDeviceToHost, s));
  CHECK(hipEventRecord(stop, s));
  CHECK(hipEventSynchronize(stop));
  float ms = 0;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  printf("saxpy time: %f ms\n", ms);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += hy[i];
  printf("saxpy sum %.1f\n", sum);

  float* partial;
  CHECK(hipMalloc(&partial, (n / 256) * sizeof(float)));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(block_sum<256, float>), dim3(n / 256), dim3(256), 0, 0, y, partial, n);
  block_sum<256, float><<<n / 256, 256>>>(y, partial, n);
  CHECK(hipDeviceSynchronize());

  int* managed;
  CHECK(hipMallocManaged(&managed, 64 * sizeof(int)));
  for (int i = 0; i < 64; ++i) managed[i] = i;
  CHECK(hipMemAdvise(managed, 64 * sizeof(int), hipMemAdviseSetReadMostly, 0));
  CHECK(hipMemPrefetchAsync(managed, 64 * sizeof(int), 0, s));
  hipLaunchKernelGGL(reverse_dynamic, dim3(1), dim3(64), 64 * sizeof(int), s, managed, 64);
  CHECK(hipStreamSynchronize(s));
  printf("reversed first %d last %d\n", managed[0], managed[63]);

  bool ok = sum == double(n) * (n - 1) && managed[0] == 63;  // y = 0.5 * x * 2 + x
  CHECK(hipFree(managed));
  CHECK(hipFree(partial));
  CHECK(hipFree(x));
  CHECK(hipFree(y));
  CHECK(hipHostFree(hy));
  CHECK(hipEventDestroy(start));
  CHECK(hipEventDestroy(stop));
  CHECK(hipStreamDestroy(s));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
