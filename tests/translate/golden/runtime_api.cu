// Runtime API walk-through: devices, memory, streams, events, occupancy, peers.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

int main() {
    int count = 0;
    cudaGetDeviceCount(&count);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int smem = 0;
    cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlock, 0);
    cudaDeviceGetAttribute(&smem, cudaDevAttrMultiProcessorCount, 0);
    printf("%s %d\n", prop.name, prop.multiProcessorCount);

    float *d = nullptr, *h = nullptr, *m = nullptr;
    cudaMalloc((void**)&d, 1024 * sizeof(float));
    cudaMallocHost(&h, 1024 * sizeof(float));
    cudaMallocManaged(&m, 1024 * sizeof(float), cudaMemAttachGlobal);
    cudaMemset(d, 0, 1024 * sizeof(float));

    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMemcpyAsync(d, h, 1024 * sizeof(float), cudaMemcpyHostToDevice, s);
    int blocks = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 256, 0);
    scale<<<4, 256, 0, s>>>(d, 2.0f, 1024);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) printf("%s: %s\n", cudaGetErrorName(err), cudaGetErrorString(err));
    cudaMemcpyAsync(h, d, 1024 * sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);

    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, scale);
    int peer = 0;
    cudaDeviceCanAccessPeer(&peer, 0, 1);
    if (err == cudaErrorMemoryAllocation || err == cudaErrorInvalidValue) return 1;

    cudaStreamDestroy(s);
    cudaFree(d);
    cudaFree(m);
    cudaFreeHost(h);
    cudaDeviceReset();
    return 0;
}
