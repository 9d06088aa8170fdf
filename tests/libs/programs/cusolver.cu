// cuSOLVER dense (legacy cusolverDn<t> API): Sgetrf+Sgetrs, Spotrf+Spotrs, Sgesvd with CPU checks. Links with -lcusolver.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#define CHECK_CUDA(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: CUDA error %d (%s)\n", __FILE__, __LINE__, (int)e_, cudaGetErrorString(e_)); \
    exit(1); } } while (0)
#define CHECK_CUSOLVER(call) do { cusolverStatus_t s_ = (call); if (s_ != CUSOLVER_STATUS_SUCCESS) { \
    fprintf(stderr, "%s:%d: cuSOLVER error %d\n", __FILE__, __LINE__, (int)s_); exit(1); } } while (0)

static int g_failures = 0;
static void report(const char* name, bool ok, const char* what) {
    if (ok) printf("%s: ok\n", name);
    else { printf("%s: FAILED (%s)\n", name, what); ++g_failures; }
}
static bool close_all(const std::vector<float>& got, const std::vector<float>& want, double tol) {
    for (size_t i = 0; i < want.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= tol * (std::fabs(want[i]) + 1.0))) return false;
    return true;
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
static int read_info(const int* d_info) { return to_host(d_info, 1)[0]; }
// B = A * X (column-major, A n x n, X n x nrhs)
static std::vector<float> matmul(const std::vector<float>& A, const std::vector<float>& X, int n, int nrhs) {
    std::vector<float> B(n * nrhs);
    for (int j = 0; j < nrhs; ++j)
        for (int i = 0; i < n; ++i) {
            double s = 0;
            for (int p = 0; p < n; ++p) s += (double)A[i + p * n] * X[p + j * n];
            B[i + j * n] = (float)s;
        }
    return B;
}
// Householder reflector I - 2uu^T/(u^T u), k x k, column-major
static std::vector<double> householder(int k, int seed) {
    std::vector<double> u(k), H(k * k);
    double uu = 0;
    for (int i = 0; i < k; ++i) { u[i] = std::cos(0.7 * i + seed) + 0.3; uu += u[i] * u[i]; }
    for (int j = 0; j < k; ++j)
        for (int i = 0; i < k; ++i) H[i + j * k] = (i == j ? 1.0 : 0.0) - 2.0 * u[i] * u[j] / uu;
    return H;
}

int main() {
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    cusolverDnHandle_t h;
    CHECK_CUSOLVER(cusolverDnCreate(&h));
    CHECK_CUSOLVER(cusolverDnSetStream(h, stream));
    int* d_info;
    CHECK_CUDA(cudaMalloc(&d_info, sizeof(int)));

    // 1) LU with partial pivoting: rows of a diagonally dominant matrix cyclically shifted so pivoting is needed
    const int n = 10, nrhs = 2;
    std::vector<float> A(n * n), X(n * nrhs);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            int src = (i + 3) % n;
            A[i + j * n] = (float)((src * 3 + j * 7) % 11 - 5) / 5.0f + (src == j ? 12.0f : 0.0f);
        }
    for (int i = 0; i < n * nrhs; ++i) X[i] = (float)(i % 7) - 2.5f;
    std::vector<float> Bv = matmul(A, X, n, nrhs);
    float *dA = to_device(A), *dB = to_device(Bv);
    int* d_ipiv;
    CHECK_CUDA(cudaMalloc(&d_ipiv, n * sizeof(int)));
    int lwork = 0;
    CHECK_CUSOLVER(cusolverDnSgetrf_bufferSize(h, n, n, dA, n, &lwork));
    float* d_work;
    CHECK_CUDA(cudaMalloc(&d_work, (lwork > 0 ? lwork : 1) * sizeof(float)));
    CHECK_CUSOLVER(cusolverDnSgetrf(h, n, n, dA, n, d_work, d_ipiv, d_info));
    int info_f = read_info(d_info);
    CHECK_CUSOLVER(cusolverDnSgetrs(h, CUBLAS_OP_N, n, nrhs, dA, n, d_ipiv, dB, n, d_info));
    int info_s = read_info(d_info);
    std::vector<int> ipiv = to_host(d_ipiv, n);
    bool piv_ok = true;
    for (int p : ipiv) if (p < 1 || p > n) piv_ok = false;
    report("sgetrf", info_f == 0 && piv_ok, "bad info or pivot");
    report("sgetrs", info_s == 0 && close_all(to_host(dB, n * nrhs), X, 1e-4), "solution differs");
    CHECK_CUDA(cudaFree(d_work));

    // 2) Cholesky of an SPD matrix S = M^T M + m*I
    const int m = 12, mrhs = 3;
    std::vector<float> S(m * m), Xs(m * mrhs);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
            double s = (i == j) ? m : 0.0;
            for (int p = 0; p < m; ++p) s += (double)((p * 5 + i * 3) % 9 - 4) * ((p * 5 + j * 3) % 9 - 4) / 16.0;
            S[i + j * m] = (float)s;
        }
    for (int i = 0; i < m * mrhs; ++i) Xs[i] = (float)((i * 5) % 9) / 3.0f - 1.0f;
    std::vector<float> Bs = matmul(S, Xs, m, mrhs);
    float *dS = to_device(S), *dBs = to_device(Bs);
    CHECK_CUSOLVER(cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, m, dS, m, &lwork));
    CHECK_CUDA(cudaMalloc(&d_work, (lwork > 0 ? lwork : 1) * sizeof(float)));
    CHECK_CUSOLVER(cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, m, dS, m, d_work, lwork, d_info));
    info_f = read_info(d_info);
    std::vector<float> Lf = to_host(dS, m * m);
    bool llt_ok = true;  // only the lower triangle of the factor is defined
    for (int i = 0; i < m; ++i)
        for (int j = 0; j <= i; ++j) {
            double s = 0;
            for (int p = 0; p <= j; ++p) s += (double)Lf[i + p * m] * Lf[j + p * m];
            if (std::fabs(s - S[i + j * m]) > 1e-4 * (std::fabs(S[i + j * m]) + 1.0)) llt_ok = false;
        }
    report("spotrf", info_f == 0 && llt_ok, "L*L^T differs from A");
    CHECK_CUSOLVER(cusolverDnSpotrs(h, CUBLAS_FILL_MODE_LOWER, m, mrhs, dS, m, dBs, m, d_info));
    info_s = read_info(d_info);
    report("spotrs", info_s == 0 && close_all(to_host(dBs, m * mrhs), Xs, 1e-4), "solution differs");
    CHECK_CUDA(cudaFree(d_work));

    // 3) SVD of G = H1 * D * H2 (8 x 6): singular values are exactly 6,5,4,3,2,1
    const int rows = 8, cols = 6;
    std::vector<double> H1 = householder(rows, 1), H2 = householder(cols, 2);
    std::vector<float> G(rows * cols);
    double frob = 0;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            double s = 0;
            for (int p = 0; p < cols; ++p) s += H1[i + p * rows] * (cols - p) * H2[p + j * cols];
            G[i + j * rows] = (float)s;
            frob += (double)G[i + j * rows] * G[i + j * rows];
        }
    float *dG = to_device(G), *dSig, *dU, *dVT;
    CHECK_CUDA(cudaMalloc(&dSig, cols * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dU, rows * rows * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dVT, cols * cols * sizeof(float)));
    CHECK_CUSOLVER(cusolverDnSgesvd_bufferSize(h, rows, cols, &lwork));
    CHECK_CUDA(cudaMalloc(&d_work, (lwork > 0 ? lwork : 1) * sizeof(float)));
    CHECK_CUSOLVER(cusolverDnSgesvd(h, 'A', 'A', rows, cols, dG, rows, dSig, dU, rows, dVT, cols, d_work, lwork,
                                    nullptr, d_info));
    info_f = read_info(d_info);
    std::vector<float> sig = to_host(dSig, cols), U = to_host(dU, rows * rows), VT = to_host(dVT, cols * cols);
    bool sv_ok = info_f == 0;
    double ss = 0;
    for (int i = 0; i < cols; ++i) {
        if (std::fabs(sig[i] - (cols - i)) > 1e-4 * cols) sv_ok = false;
        ss += (double)sig[i] * sig[i];
    }
    report("sgesvd_values", sv_ok, "singular values differ from 6..1");
    report("sgesvd_frobenius", std::fabs(ss - frob) <= 1e-4 * frob, "sum of s^2 differs from |A|_F^2");
    bool rec_ok = true, orth_ok = true;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            double s = 0;
            for (int p = 0; p < cols; ++p) s += (double)U[i + p * rows] * sig[p] * VT[p + j * cols];
            if (std::fabs(s - G[i + j * rows]) > 1e-4 * cols) rec_ok = false;
        }
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < rows; ++j) {
            double s = 0;
            for (int p = 0; p < rows; ++p) s += (double)U[p + i * rows] * U[p + j * rows];
            if (std::fabs(s - (i == j ? 1.0 : 0.0)) > 1e-4) orth_ok = false;
        }
    report("sgesvd_reconstruct", rec_ok, "U*S*VT differs from A");
    report("sgesvd_u_orthogonal", orth_ok, "U^T U differs from I");

    void* bufs[] = {d_info, dA, dB, d_ipiv, dS, dBs, d_work, dG, dSig, dU, dVT};
    for (void* p : bufs) CHECK_CUDA(cudaFree(p));
    CHECK_CUSOLVER(cusolverDnDestroy(h));
    CHECK_CUDA(cudaStreamDestroy(stream));
    printf(g_failures == 0 ? "PASSED\n" : "FAILED\n");
    return g_failures == 0 ? 0 : 1;
}
