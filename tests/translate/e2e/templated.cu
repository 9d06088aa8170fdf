#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>

template <typename T> struct Scale {
    T factor;
    __device__ T operator()(T x) const { return x * factor; }
};

template <typename T, int ITEMS, typename Op>
__global__ void transform(T* data, int n, Op op) {
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
        if (base + k < n) data[base + k] = op(data[base + k]);
}

__global__ void halfScale(__half* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = __hmul(data[i], __float2half(0.5f));
}

template <typename T>
cudaError_t run(T* d, int n, cudaStream_t stream) {
    constexpr int kItems = 4;
    dim3 block(128);
    dim3 grid((n + block.x * kItems - 1) / (block.x * kItems));
    transform<T, kItems, Scale<T>><<<grid, block, 0, stream>>>(d, n, Scale<T>{T(2)});
    return cudaGetLastError();
}

int main() {
    float* d;
    __half* h;
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudaMalloc(&d, 1024 * sizeof(float));
    cudaMalloc(&h, 1024 * sizeof(__half));
    if (run(d, 1024, stream) != cudaSuccess) return 1;
    halfScale<<<4, 256, 0, stream>>>(h, 1024);
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
    cudaFree(d);
    cudaFree(h);
    return 0;
}
