#include <cublas_v2.h>
#include <curand.h>
#include <curand_kernel.h>

__global__ void init(curandState* states, unsigned long long seed) {
    int i = threadIdx.x;
    curand_init(seed, i, 0, &states[i]);
    float u = curand_uniform(&states[i]);
    float g = curand_normal(&states[i]);
    (void)u; (void)g;
}

int gemm(const float* A, const float* B, float* C, int n) {
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, A, n, B, n, &zero, C, n);
    curandGenerator_t gen;
    curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
    curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
    curandGenerateUniform(gen, C, n);
    curandDestroyGenerator(gen);
    cublasDestroy(handle);
    return 0;
}
