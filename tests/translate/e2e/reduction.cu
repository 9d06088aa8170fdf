#include <cuda_runtime.h>
#include <cstdio>

#define FULL_MASK 0xffffffff
constexpr int kBlock = 256;

__inline__ __device__ float warpReduceSum(float val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(FULL_MASK, val, offset);
    return val;
}

__global__ void reduce(const float* in, float* out, int n) {
    __shared__ float partial[kBlock / 32];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = warpReduceSum(sum);
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    if (lane == 0) partial[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = (threadIdx.x < blockDim.x / warpSize) ? partial[lane] : 0.0f;
        sum = warpReduceSum(sum);
        unsigned active = __ballot_sync(FULL_MASK, sum != 0.0f);
        __syncwarp();
        if (lane == 0 && active) atomicAdd(out, sum);
    }
}

int main() {
    const int n = 1 << 16;
    float *in, *out;
    cudaMallocManaged(&in, n * sizeof(float));
    cudaMallocManaged(&out, sizeof(float));
    for (int i = 0; i < n; ++i) in[i] = 1.0f;
    *out = 0.0f;
    reduce<<<64, kBlock>>>(in, out, n);
    cudaDeviceSynchronize();
    printf("sum = %f\n", *out);
    cudaFree(in);
    cudaFree(out);
    return *out == n ? 0 : 1;
}
