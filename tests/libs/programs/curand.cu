// cuRAND host API (uniform/normal generators) and device API (XORWOW and Philox states); statistical checks only. Links with -lcurand.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#define CHECK_CUDA(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: CUDA error %d (%s)\n", __FILE__, __LINE__, (int)e_, cudaGetErrorString(e_)); \
    exit(1); } } while (0)
#define CHECK_CURAND(call) do { curandStatus_t s_ = (call); if (s_ != CURAND_STATUS_SUCCESS) { \
    fprintf(stderr, "%s:%d: cuRAND error %d\n", __FILE__, __LINE__, (int)s_); exit(1); } } while (0)

static int g_failures = 0;
static void report(const char* name, bool ok) {
    if (ok) printf("%s: ok\n", name);
    else { printf("%s: FAILED (check failed)\n", name); ++g_failures; }
}

struct Stats { double mean, var, lo, hi; };
static Stats stats(const std::vector<float>& v) {
    double s = 0, s2 = 0, lo = v[0], hi = v[0];
    for (float x : v) { s += x; s2 += (double)x * x; lo = x < lo ? x : lo; hi = x > hi ? x : hi; }
    double m = s / v.size();
    return Stats{m, s2 / v.size() - m * m, lo, hi};
}

// Uniform samples: range (0, 1], mean 1/2, variance 1/12, and 10 equal-width bins each near 10%.
static void check_uniform(const char* name, const std::vector<float>& v) {
    Stats s = stats(v);
    bool ok = s.lo > 0.0 && s.hi <= 1.0 && std::fabs(s.mean - 0.5) < 0.01 && std::fabs(s.var - 1.0 / 12) < 0.005;
    long bins[10] = {0};
    for (float x : v) { int b = (int)(x * 10.0f); bins[b > 9 ? 9 : b]++; }
    for (int b = 0; b < 10; ++b) {
        double frac = (double)bins[b] / v.size();
        if (std::fabs(frac - 0.1) > 0.01) ok = false;
    }
    report(name, ok);
}

// Normal samples: mean and standard deviation near the requested ones, ~68% within one sigma.
static void check_normal(const char* name, const std::vector<float>& v, double mean, double sd) {
    Stats s = stats(v);
    long within = 0;
    for (float x : v) if (std::fabs(x - mean) < sd) ++within;
    double frac = (double)within / v.size();
    bool ok = std::fabs(s.mean - mean) < 0.02 * sd && std::fabs(std::sqrt(s.var) - sd) < 0.02 * sd &&
              std::fabs(frac - 0.6827) < 0.01;
    report(name, ok);
}

__global__ void xorwow_kernel(unsigned long long seed, int per_thread, float* uni, float* nrm) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState state;
    curand_init(seed, id, 0, &state);
    for (int k = 0; k < per_thread; ++k) {
        uni[(size_t)k * gridDim.x * blockDim.x + id] = curand_uniform(&state);
        nrm[(size_t)k * gridDim.x * blockDim.x + id] = curand_normal(&state);
    }
}

__global__ void philox_kernel(unsigned long long seed, int per_thread, float4* out) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t state;
    curand_init(seed, id, 0, &state);
    for (int k = 0; k < per_thread; ++k)
        out[(size_t)k * gridDim.x * blockDim.x + id] = curand_uniform4(&state);
}

int main() {
    const size_t n = 1 << 21;
    std::vector<float> h(n);
    float* d_buf;
    CHECK_CUDA(cudaMalloc(&d_buf, n * sizeof(float)));
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));

    // Host API
    curandGenerator_t gen;
    CHECK_CURAND(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CHECK_CURAND(curandSetStream(gen, stream));
    CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(gen, 20240607ULL));
    CHECK_CURAND(curandGenerateUniform(gen, d_buf, n));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(h.data(), d_buf, n * sizeof(float), cudaMemcpyDeviceToHost));
    check_uniform("host_uniform", h);

    CHECK_CURAND(curandGenerateNormal(gen, d_buf, n, 2.0f, 3.0f));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(h.data(), d_buf, n * sizeof(float), cudaMemcpyDeviceToHost));
    check_normal("host_normal", h, 2.0, 3.0);

    CHECK_CURAND(curandDestroyGenerator(gen));

    // Two fresh generators with the same seed must produce the same stream on one platform.
    std::vector<float> first(1024), again(1024);
    for (int round = 0; round < 2; ++round) {
        CHECK_CURAND(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
        CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(gen, 77ULL));
        CHECK_CURAND(curandGenerateUniform(gen, d_buf, 1024));
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy((round == 0 ? first : again).data(), d_buf, 1024 * sizeof(float),
                              cudaMemcpyDeviceToHost));
        CHECK_CURAND(curandDestroyGenerator(gen));
    }
    report("host_same_seed_reproducible", first == again);

    // Device API: XORWOW, one subsequence per thread
    const int threads = 256, blocks = 32, per_thread = 256;  // 8192 threads * 256 = 2^21 samples
    float* d_nrm;
    CHECK_CUDA(cudaMalloc(&d_nrm, n * sizeof(float)));
    xorwow_kernel<<<blocks, threads>>>(1234ULL, per_thread, d_buf, d_nrm);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(h.data(), d_buf, n * sizeof(float), cudaMemcpyDeviceToHost));
    check_uniform("xorwow_uniform", h);
    // Neighbouring threads must not produce identical streams.
    long same = 0;
    for (int k = 0; k < per_thread; ++k)
        for (int t = 0; t + 1 < threads * blocks; ++t)
            if (h[(size_t)k * threads * blocks + t] == h[(size_t)k * threads * blocks + t + 1]) ++same;
    report("xorwow_threads_distinct", same < 1000);
    CHECK_CUDA(cudaMemcpy(h.data(), d_nrm, n * sizeof(float), cudaMemcpyDeviceToHost));
    check_normal("xorwow_normal", h, 0.0, 1.0);

    // Device API: Philox4x32-10, four uniforms per call
    philox_kernel<<<blocks, threads>>>(99ULL, per_thread / 4, reinterpret_cast<float4*>(d_buf));
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(h.data(), d_buf, n * sizeof(float), cudaMemcpyDeviceToHost));
    check_uniform("philox_uniform4", h);

    CHECK_CUDA(cudaFree(d_buf));
    CHECK_CUDA(cudaFree(d_nrm));
    CHECK_CUDA(cudaStreamDestroy(stream));
    printf(g_failures == 0 ? "PASSED\n" : "FAILED\n");
    return g_failures == 0 ? 0 : 1;
}
