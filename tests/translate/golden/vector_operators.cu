// helper_math.h style operators: HIP's vector types define these, so they go.
#include <cuda_runtime.h>

inline __host__ __device__ float4 operator-(float4 &a)
{
    return make_float4(-a.x, -a.y, -a.z, -a.w);
}
inline __host__ __device__ void operator+=(float4 &a, const float4 b) {
    a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}
inline __host__ __device__ float2 operator*(float s, float2 a) { return make_float2(s * a.x, s * a.y); }

// Kept: not an operator HIP has (a dot product), a member, and pointer arithmetic.
inline __host__ __device__ float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
struct Particle {
    float4 p;
    __host__ __device__ Particle operator+(float4 d) const { return Particle{make_float4(p.x + d.x, p.y, p.z, p.w)}; }
};
struct Cursor { float4* at; };
inline Cursor operator+(Cursor c, int n) { return Cursor{c.at + n}; }

__global__ void step(float4* x, float4 v) {
    float4 a = x[threadIdx.x];
    a += v;
    x[threadIdx.x] = -a + 2.0f * a;
}
