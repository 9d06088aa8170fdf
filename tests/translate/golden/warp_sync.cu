#include <cuda_runtime.h>
#define FULL_MASK 0xffffffffu
#define WARP_SUM(v) for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(FULL_MASK, v, o)

template <typename T, int W> __device__ T pick(T v, int lane) { return v + lane * W; }

__device__ float warp_reduce(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void kernel(float* out, const float* in) {
    float v = in[threadIdx.x];
    v = warp_reduce(v);
    WARP_SUM(v);
    float first = __shfl_sync(FULL_MASK, v, 0);
    float up = __shfl_up_sync(FULL_MASK, v, 1, 16);
    float x = __shfl_xor_sync(__activemask(), pick<float, 2>(v, (int)threadIdx.x), 1);
    float y = __shfl_sync(FULL_MASK,
                          (v > 0.0f ? v : -v),
                          min(3, (int)threadIdx.x));
    unsigned ballot = __ballot_sync(FULL_MASK, v > 0.0f);
    bool any = __any_sync(FULL_MASK, v > 1.0f), all = __all_sync(FULL_MASK, v < 2.0f);
    unsigned active = __activemask();
    __syncwarp();
    __syncwarp(FULL_MASK);
    out[threadIdx.x] = first + up + x + y + ballot + any + all + active;
}
