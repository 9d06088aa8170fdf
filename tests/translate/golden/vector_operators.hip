#include <hip/hip_runtime.h>
#line 1 "vector_operators.cu"
// helper_math.h style operators: HIP's vector types define these, so they go.
#include <hip/hip_runtime.h>

/* cass-cc: operator-(float4) removed: HIP defines it */



/* cass-cc: operator+=(float4, float4) removed: HIP defines it */


/* cass-cc: operator*(float, float2) removed: HIP defines it */

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
