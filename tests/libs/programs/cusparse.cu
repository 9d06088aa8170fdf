// cuSPARSE generic API: CSR matrix descriptor, dense vector/matrix descriptors, SpMV and SpMM with their buffer-size queries. Links with -lcusparse.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CHECK_CUDA(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: CUDA error %d (%s)\n", __FILE__, __LINE__, (int)e_, cudaGetErrorString(e_)); \
    exit(1); } } while (0)
#define CHECK_CUSPARSE(call) do { cusparseStatus_t s_ = (call); if (s_ != CUSPARSE_STATUS_SUCCESS) { \
    fprintf(stderr, "%s:%d: cuSPARSE error %d\n", __FILE__, __LINE__, (int)s_); exit(1); } } while (0)

static int g_failures = 0;
static void check(const char* name, const std::vector<float>& got, const std::vector<float>& want) {
    for (size_t i = 0; i < want.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= 1e-4f * (std::fabs(want[i]) + 1.0f))) {
            printf("%s: FAILED (element %zu differs from CPU reference)\n", name, i);
            ++g_failures;
            return;
        }
    printf("%s: ok\n", name);
}

template <typename T>
static T* to_device(const std::vector<T>& h) {
    T* d;
    CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

int main() {
    const int ROWS = 100, COLS = 80, NRHS = 16;

    // CSR matrix: row r has 0..4 nonzeros (every 10th row empty), sorted distinct columns.
    std::vector<int> rowptr(ROWS + 1, 0), colind;
    std::vector<float> vals;
    for (int r = 0; r < ROWS; ++r) {
        int k = (r % 10 == 9) ? 0 : 1 + r % 4;
        std::vector<int> cols;
        for (int j = 0; j < k; ++j) cols.push_back((r * 3 + 17 * j) % COLS);
        std::sort(cols.begin(), cols.end());
        for (int c : cols) {
            colind.push_back(c);
            vals.push_back((float)((r * 7 + c * 3) % 19 - 9) / 4.0f);
        }
        rowptr[r + 1] = (int)colind.size();
    }
    const int NNZ = (int)colind.size();
    std::vector<float> x(COLS), y0(ROWS), B(COLS * NRHS), C0(ROWS * NRHS);
    for (int i = 0; i < COLS; ++i) x[i] = (float)(i % 9) - 4.0f;
    for (int i = 0; i < ROWS; ++i) y0[i] = 0.5f * (float)(i % 5);
    for (int i = 0; i < COLS * NRHS; ++i) B[i] = (float)((i * 13) % 11) / 8.0f - 0.5f;
    for (int i = 0; i < ROWS * NRHS; ++i) C0[i] = (float)(i % 7) - 3.0f;

    int *d_rowptr = to_device(rowptr), *d_colind = to_device(colind);
    float *d_vals = to_device(vals), *d_x = to_device(x), *d_y = to_device(y0);
    float *d_B = to_device(B), *d_C = to_device(C0);

    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    cusparseHandle_t handle;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseSetStream(handle, stream));

    cusparseSpMatDescr_t matA;
    cusparseDnVecDescr_t vecX, vecY;
    cusparseDnMatDescr_t matB, matC;
    CHECK_CUSPARSE(cusparseCreateCsr(&matA, ROWS, COLS, NNZ, d_rowptr, d_colind, d_vals, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecX, COLS, d_x, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecY, ROWS, d_y, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matB, COLS, NRHS, COLS, d_B, CUDA_R_32F, CUSPARSE_ORDER_COL));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matC, ROWS, NRHS, ROWS, d_C, CUDA_R_32F, CUSPARSE_ORDER_COL));

    // SpMV: y = 2*A*x + 0.5*y
    float alpha = 2.0f, beta = 0.5f;
    size_t bytes = 0;
    CHECK_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                                           CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    void* d_buf = nullptr;
    CHECK_CUDA(cudaMalloc(&d_buf, bytes > 0 ? bytes : 1));
    CHECK_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                                CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, d_buf));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<float> y(ROWS), yref(ROWS);
    CHECK_CUDA(cudaMemcpy(y.data(), d_y, ROWS * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < ROWS; ++r) {
        double s = 0;
        for (int p = rowptr[r]; p < rowptr[r + 1]; ++p) s += (double)vals[p] * x[colind[p]];
        yref[r] = (float)(alpha * s + beta * y0[r]);
    }
    check("spmv", y, yref);
    CHECK_CUDA(cudaFree(d_buf));

    // SpMM: C = A*B - C (column-major dense operands)
    alpha = 1.0f;
    beta = -1.0f;
    bytes = 0;
    CHECK_CUSPARSE(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           &alpha, matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT,
                                           &bytes));
    CHECK_CUDA(cudaMalloc(&d_buf, bytes > 0 ? bytes : 1));
    CHECK_CUSPARSE(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, d_buf));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<float> C(ROWS * NRHS), Cref(ROWS * NRHS);
    CHECK_CUDA(cudaMemcpy(C.data(), d_C, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int j = 0; j < NRHS; ++j)
        for (int r = 0; r < ROWS; ++r) {
            double s = 0;
            for (int p = rowptr[r]; p < rowptr[r + 1]; ++p) s += (double)vals[p] * B[colind[p] + j * COLS];
            Cref[r + j * ROWS] = (float)(alpha * s + beta * C0[r + j * ROWS]);
        }
    check("spmm", C, Cref);
    CHECK_CUDA(cudaFree(d_buf));

    CHECK_CUSPARSE(cusparseDestroySpMat(matA));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecX));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecY));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matB));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matC));
    CHECK_CUSPARSE(cusparseDestroy(handle));
    CHECK_CUDA(cudaStreamDestroy(stream));
    void* bufs[] = {d_rowptr, d_colind, d_vals, d_x, d_y, d_B, d_C};
    for (void* p : bufs) CHECK_CUDA(cudaFree(p));
    printf("nnz=%d\n", NNZ);
    printf(g_failures == 0 ? "PASSED\n" : "FAILED\n");
    return g_failures == 0 ? 0 : 1;
}
