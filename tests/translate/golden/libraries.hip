#include <hip/hip_runtime.h>
#line 1 "libraries.cu"
#include <hipblas/hipblas.h>
#include <hiprand/hiprand.h>
#include <hiprand/hiprand_kernel.h>

__global__ void init(hiprandState* states, unsigned long long seed) {
    int i = threadIdx.x;
    hiprand_init(seed, i, 0, &states[i]);
    float u = hiprand_uniform(&states[i]);
    float g = hiprand_normal(&states[i]);
    (void)u; (void)g;
}

int gemm(const float* A, const float* B, float* C, int n) {
    hipblasHandle_t handle;
    if (hipblasCreate(&handle) != HIPBLAS_STATUS_SUCCESS) return 1;
    const float one = 1.0f, zero = 0.0f;
    hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_T, n, n, n, &one, A, n, B, n, &zero, C, n);
    hiprandGenerator_t gen;
    hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT);
    hiprandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
    hiprandGenerateUniform(gen, C, n);
    hiprandDestroyGenerator(gen);
    hipblasDestroy(handle);
    return 0;
}
