// cuBLAS (v2 API): Sgemm, Dgemm, Saxpy, Sdot, Snrm2, SgemmStridedBatched, SgemmBatched, Sgemv on a stream, column-major. Links with -lcublas.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define CHECK_CUDA(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: CUDA error %d (%s)\n", __FILE__, __LINE__, (int)e_, cudaGetErrorString(e_)); \
    exit(1); } } while (0)
#define CHECK_CUBLAS(call) do { cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) { \
    fprintf(stderr, "%s:%d: cuBLAS error %d\n", __FILE__, __LINE__, (int)s_); exit(1); } } while (0)

static int g_failures = 0;
// Relative check: |got - want| <= tol * (|want| + scale), scale ~ magnitude of the summed terms.
template <typename T>
static void check(const char* name, const T* got, const T* want, size_t n, double tol, double scale) {
    for (size_t i = 0; i < n; ++i) {
        double d = std::fabs((double)got[i] - (double)want[i]);
        if (!(d <= tol * (std::fabs((double)want[i]) + scale))) {
            printf("%s: FAILED (element %zu differs from CPU reference)\n", name, i);
            ++g_failures;
            return;
        }
    }
    printf("%s: ok\n", name);
}

static unsigned int g_lcg = 777u;
static float frand() { g_lcg = g_lcg * 1664525u + 1013904223u; return (float)((g_lcg >> 8) % 2001) / 1000.0f - 1.0f; }

// C(m x n) = alpha * op(A) * B + beta * C, column-major; transA: A stored k x m.
template <typename T>
static void ref_gemm(bool transA, int m, int n, int k, T alpha, const T* A, int lda, const T* B, int ldb,
                     T beta, T* C, int ldc) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double s = 0;
            for (int p = 0; p < k; ++p) s += (double)(transA ? A[p + i * lda] : A[i + p * lda]) * B[p + j * ldb];
            C[i + j * ldc] = (T)(alpha * s + beta * (double)C[i + j * ldc]);
        }
}

template <typename T>
static T* to_device(const std::vector<T>& h) {
    T* d;
    CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <typename T>
static std::vector<T> to_host(const T* d, size_t n) {
    std::vector<T> h(n);
    CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

int main() {
    const int M = 64, N = 48, K = 32, BATCH = 4;
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    cublasHandle_t handle;
    CHECK_CUBLAS(cublasCreate(&handle));
    CHECK_CUBLAS(cublasSetStream(handle, stream));
    CHECK_CUBLAS(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
    CHECK_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));

    // Sgemm: C = 1.5*A*B + 0.5*C, A M x K, B K x N
    std::vector<float> A(M * K), B(K * N), C(M * N);
    for (auto& v : A) v = frand();
    for (auto& v : B) v = frand();
    for (auto& v : C) v = frand();
    float *dA = to_device(A), *dB = to_device(B), *dC = to_device(C);
    float alpha = 1.5f, beta = 0.5f;
    CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, dA, M, dB, K, &beta, dC, M));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<float> gotC = to_host(dC, M * N);
    ref_gemm<float>(false, M, N, K, alpha, A.data(), M, B.data(), K, beta, C.data(), M);
    check("sgemm", gotC.data(), C.data(), C.size(), 1e-3, 1.0);

    // Dgemm with op(A) = A^T (A stored K x M)
    std::vector<double> Ad(K * M), Bd(K * N), Cd(M * N, 0.0);
    for (auto& v : Ad) v = frand();
    for (auto& v : Bd) v = frand();
    double *dAd = to_device(Ad), *dBd = to_device(Bd), *dCd = to_device(Cd);
    double alphad = -0.75, betad = 0.0;
    CHECK_CUBLAS(cublasDgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &alphad, dAd, K, dBd, K, &betad, dCd, M));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<double> gotCd = to_host(dCd, M * N);
    ref_gemm<double>(true, M, N, K, alphad, Ad.data(), K, Bd.data(), K, betad, Cd.data(), M);
    check("dgemm_transA", gotCd.data(), Cd.data(), Cd.size(), 1e-10, 1.0);

    // Level 1: Saxpy, Sdot, Snrm2 (host pointer mode)
    const int L = 1000;
    std::vector<float> x(L), y(L);
    for (int i = 0; i < L; ++i) { x[i] = frand(); y[i] = frand(); }
    float *dx = to_device(x), *dy = to_device(y);
    float a = 0.25f, dot = 0.0f, nrm = 0.0f;
    CHECK_CUBLAS(cublasSaxpy(handle, L, &a, dx, 1, dy, 1));
    CHECK_CUBLAS(cublasSdot(handle, L, dx, 1, dy, 1, &dot));  // x . (a*x + y)
    CHECK_CUBLAS(cublasSnrm2(handle, L, dx, 1, &nrm));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<float> goty = to_host(dy, L);
    double rdot = 0, rnrm = 0;
    for (int i = 0; i < L; ++i) {
        y[i] = a * x[i] + y[i];
        rdot += (double)x[i] * y[i];
        rnrm += (double)x[i] * x[i];
    }
    float frdot = (float)rdot, frnrm = (float)std::sqrt(rnrm);
    check("saxpy", goty.data(), y.data(), L, 1e-5, 1.0);
    check("sdot", &dot, &frdot, 1, 1e-3, 1.0);
    check("snrm2", &nrm, &frnrm, 1, 1e-4, 0.0);

    // SgemmStridedBatched: BATCH independent M x N products, contiguous with padding between matrices
    const long long sA = M * K + 16, sB = K * N + 8, sC = M * N + 4;
    std::vector<float> bA(sA * BATCH), bB(sB * BATCH), bC(sC * BATCH, 0.0f);
    for (auto& v : bA) v = frand();
    for (auto& v : bB) v = frand();
    float *dbA = to_device(bA), *dbB = to_device(bB), *dbC = to_device(bC);
    float one = 1.0f, zero = 0.0f;
    CHECK_CUBLAS(cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, dbA, M, sA, dbB, K, sB,
                                           &zero, dbC, M, sC, BATCH));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<float> gotbC = to_host(dbC, bC.size());
    for (int b = 0; b < BATCH; ++b)
        ref_gemm<float>(false, M, N, K, 1.0f, &bA[b * sA], M, &bB[b * sB], K, 0.0f, &bC[b * sC], M);
    check("sgemm_strided_batched", gotbC.data(), bC.data(), bC.size(), 1e-3, 1.0);

    // SgemmBatched: reuse the same buffers through arrays of device pointers (reverse order of B)
    std::vector<float*> pA(BATCH), pB(BATCH), pC(BATCH);
    for (int b = 0; b < BATCH; ++b) {
        pA[b] = dbA + b * sA;
        pB[b] = dbB + (BATCH - 1 - b) * sB;
        pC[b] = dbC + b * sC;
    }
    float **dpA = to_device(pA), **dpB = to_device(pB), **dpC = to_device(pC);
    CHECK_CUBLAS(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, dpA, M, dpB, K, &zero, dpC, M,
                                    BATCH));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    gotbC = to_host(dbC, bC.size());
    for (int b = 0; b < BATCH; ++b)
        ref_gemm<float>(false, M, N, K, 1.0f, &bA[b * sA], M, &bB[(BATCH - 1 - b) * sB], K, 0.0f, &bC[b * sC], M);
    check("sgemm_batched", gotbC.data(), bC.data(), bC.size(), 1e-3, 1.0);

    // Sgemv: y2 = 2*A^T*x2 - y2, A is M x K (so A^T x2 has length K)
    std::vector<float> x2(M), y2(K);
    for (auto& v : x2) v = frand();
    for (auto& v : y2) v = frand();
    float *dx2 = to_device(x2), *dy2 = to_device(y2);
    float ga = 2.0f, gb = -1.0f;
    CHECK_CUBLAS(cublasSgemv(handle, CUBLAS_OP_T, M, K, &ga, dA, M, dx2, 1, &gb, dy2, 1));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<float> goty2 = to_host(dy2, K);
    for (int j = 0; j < K; ++j) {
        double s = 0;
        for (int i = 0; i < M; ++i) s += (double)A[i + j * M] * x2[i];
        y2[j] = (float)(ga * s + gb * y2[j]);
    }
    check("sgemv_trans", goty2.data(), y2.data(), K, 1e-3, 1.0);

    void* bufs[] = {dA, dB, dC, dAd, dBd, dCd, dx, dy, dbA, dbB, dbC, dpA, dpB, dpC, dx2, dy2};
    for (void* p : bufs) CHECK_CUDA(cudaFree(p));
    CHECK_CUBLAS(cublasDestroy(handle));
    CHECK_CUDA(cudaStreamDestroy(stream));
    printf(g_failures == 0 ? "PASSED\n" : "FAILED\n");
    return g_failures == 0 ? 0 : 1;
}
