// Two kernels and a device helper, no main: cut into one unit per kernel (test corpus).
__device__ float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

__global__ void relu_clamp(float *x, int n, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = clampf(x[i], 0.0f, hi);
}

template <int BLOCK>
__global__ void block_sum(const int *in, int *out, int n) {
  __shared__ int buf[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, buf[0]);
}

template __global__ void block_sum<256>(const int *, int *, int);
