#include <hip/hip_runtime.h>
#line 1 "warp_sync.cu"
#include <hip/hip_runtime.h>
#define FULL_MASK 0xffffffffu
#define WARP_SUM(v) for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o)

template <typename T, int W> __device__ T pick(T v, int lane) { return v + lane * W; }

__device__ float warp_reduce(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    return v;
}

__global__ void kernel(float* out, const float* in) {
    float v = in[threadIdx.x];
    v = warp_reduce(v);
    WARP_SUM(v);
    float first = __shfl(v, 0);
    float up = __shfl_up(v, 1, 16);
    float x = __shfl_xor(pick<float, 2>(v, (int)threadIdx.x), 1);
    float y = __shfl(
                          (v > 0.0f ? v : -v),
                          min(3, (int)threadIdx.x));
    unsigned ballot = ((unsigned int)__ballot(v > 0.0f));
    bool any = __any(v > 1.0f), all = __all(v < 2.0f);
    unsigned active = ((unsigned int)__ballot(1));
    (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
    (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
    out[threadIdx.x] = first + up + x + y + ballot + any + all + active;
}
