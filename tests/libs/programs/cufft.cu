// cuFFT: 1-D C2C forward/inverse, R2C and C2R, a strided batched cufftPlanMany, and a double Z2Z plan, on a stream. Links with -lcufft.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cufft.h>

#define CHECK_CUDA(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: CUDA error %d (%s)\n", __FILE__, __LINE__, (int)e_, cudaGetErrorString(e_)); \
    exit(1); } } while (0)
#define CHECK_CUFFT(call) do { cufftResult r_ = (call); if (r_ != CUFFT_SUCCESS) { \
    fprintf(stderr, "%s:%d: cuFFT error %d\n", __FILE__, __LINE__, (int)r_); exit(1); } } while (0)

typedef std::complex<double> cd;
static int g_failures = 0;
// Pass when every |got - want| <= tol * max|want| (FFT errors scale with the largest coefficient).
static void check(const char* name, const std::vector<cd>& got, const std::vector<cd>& want, double tol) {
    double peak = 0, worst = 0;
    for (size_t i = 0; i < want.size(); ++i) peak = std::max(peak, std::abs(want[i]));
    for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(got[i] - want[i]));
    if (worst <= tol * peak) printf("%s: ok\n", name);
    else { printf("%s: FAILED (differs from CPU reference)\n", name); ++g_failures; }
}

// Naive O(n^2) DFT in double; sign -1 forward, +1 inverse (unnormalised like cuFFT).
static std::vector<cd> dft(const std::vector<cd>& x, int n, int sign) {
    std::vector<cd> out(n);
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < n; ++k) {
        cd s = 0;
        for (int j = 0; j < n; ++j) s += x[j] * std::polar(1.0, sign * 2.0 * pi * ((long long)j * k % n) / n);
        out[k] = s;
    }
    return out;
}
static double signal(int i, int which) {
    return std::sin(0.37 * i + which) + 0.5 * std::cos(1.3 * i * (which + 1)) + 0.01 * ((i * 7 + which) % 11);
}

int main() {
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));

    // 1) C2C forward and inverse, in place
    const int N = 256;
    std::vector<cufftComplex> h(N);
    std::vector<cd> x(N);
    for (int i = 0; i < N; ++i) { x[i] = cd(signal(i, 0), signal(i, 1)); h[i].x = (float)x[i].real(); h[i].y = (float)x[i].imag(); }
    cufftComplex* d;
    CHECK_CUDA(cudaMalloc(&d, N * sizeof(cufftComplex)));
    CHECK_CUDA(cudaMemcpy(d, h.data(), N * sizeof(cufftComplex), cudaMemcpyHostToDevice));
    cufftHandle plan;
    CHECK_CUFFT(cufftPlan1d(&plan, N, CUFFT_C2C, 1));
    CHECK_CUFFT(cufftSetStream(plan, stream));
    CHECK_CUFFT(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(h.data(), d, N * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    std::vector<cd> got(N);
    for (int i = 0; i < N; ++i) got[i] = cd(h[i].x, h[i].y);
    check("c2c_forward", got, dft(x, N, -1), 1e-4);
    CHECK_CUFFT(cufftExecC2C(plan, d, d, CUFFT_INVERSE));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(h.data(), d, N * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) got[i] = cd(h[i].x, h[i].y) / (double)N;
    check("c2c_roundtrip", got, x, 1e-5);
    CHECK_CUFFT(cufftDestroy(plan));
    CHECK_CUDA(cudaFree(d));

    // 2) R2C then C2R, out of place
    const int R = 128, RC = R / 2 + 1;
    std::vector<float> hr(R);
    std::vector<cd> xr(R);
    for (int i = 0; i < R; ++i) { hr[i] = (float)signal(i, 2); xr[i] = hr[i]; }
    float* dr;
    cufftComplex* dc;
    CHECK_CUDA(cudaMalloc(&dr, R * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dc, RC * sizeof(cufftComplex)));
    CHECK_CUDA(cudaMemcpy(dr, hr.data(), R * sizeof(float), cudaMemcpyHostToDevice));
    cufftHandle pr2c, pc2r;
    CHECK_CUFFT(cufftPlan1d(&pr2c, R, CUFFT_R2C, 1));
    CHECK_CUFFT(cufftPlan1d(&pc2r, R, CUFFT_C2R, 1));
    CHECK_CUFFT(cufftSetStream(pr2c, stream));
    CHECK_CUFFT(cufftSetStream(pc2r, stream));
    CHECK_CUFFT(cufftExecR2C(pr2c, dr, dc));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<cufftComplex> hc(RC);
    CHECK_CUDA(cudaMemcpy(hc.data(), dc, RC * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    std::vector<cd> full = dft(xr, R, -1), gotc(RC), wantc(full.begin(), full.begin() + RC);
    for (int i = 0; i < RC; ++i) gotc[i] = cd(hc[i].x, hc[i].y);
    check("r2c", gotc, wantc, 1e-4);
    CHECK_CUDA(cudaMemset(dr, 0, R * sizeof(float)));
    CHECK_CUFFT(cufftExecC2R(pc2r, dc, dr));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(hr.data(), dr, R * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<cd> gotr(R);
    for (int i = 0; i < R; ++i) gotr[i] = hr[i] / (double)R;
    check("c2r_roundtrip", gotr, xr, 1e-5);
    CHECK_CUFFT(cufftDestroy(pr2c));
    CHECK_CUFFT(cufftDestroy(pc2r));
    CHECK_CUDA(cudaFree(dr));
    CHECK_CUDA(cudaFree(dc));

    // 3) cufftPlanMany: BATCH transforms of length L; input element i of batch b at b*idist + i*istride,
    //    output packed contiguously.
    const int L = 64, BATCH = 5, istride = 2, idist = L * istride + 3;
    int n[1] = {L}, inembed[1] = {L * istride}, onembed[1] = {L};
    std::vector<cufftComplex> hin(BATCH * idist);
    std::vector<std::vector<cd>> xs(BATCH, std::vector<cd>(L));
    for (size_t i = 0; i < hin.size(); ++i) { hin[i].x = -99.0f; hin[i].y = 99.0f; }  // padding garbage
    for (int b = 0; b < BATCH; ++b)
        for (int i = 0; i < L; ++i) {
            xs[b][i] = cd(signal(i, 3 + b), signal(i + 5, b));
            hin[b * idist + i * istride].x = (float)xs[b][i].real();
            hin[b * idist + i * istride].y = (float)xs[b][i].imag();
        }
    cufftComplex *din, *dout;
    CHECK_CUDA(cudaMalloc(&din, hin.size() * sizeof(cufftComplex)));
    CHECK_CUDA(cudaMalloc(&dout, BATCH * L * sizeof(cufftComplex)));
    CHECK_CUDA(cudaMemcpy(din, hin.data(), hin.size() * sizeof(cufftComplex), cudaMemcpyHostToDevice));
    cufftHandle pmany;
    CHECK_CUFFT(cufftPlanMany(&pmany, 1, n, inembed, istride, idist, onembed, 1, L, CUFFT_C2C, BATCH));
    CHECK_CUFFT(cufftSetStream(pmany, stream));
    CHECK_CUFFT(cufftExecC2C(pmany, din, dout, CUFFT_FORWARD));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<cufftComplex> hout(BATCH * L);
    CHECK_CUDA(cudaMemcpy(hout.data(), dout, hout.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    std::vector<cd> gotm, wantm;
    for (int b = 0; b < BATCH; ++b) {
        std::vector<cd> ref = dft(xs[b], L, -1);
        for (int i = 0; i < L; ++i) { gotm.push_back(cd(hout[b * L + i].x, hout[b * L + i].y)); wantm.push_back(ref[i]); }
    }
    check("plan_many_strided_batch", gotm, wantm, 1e-4);
    CHECK_CUFFT(cufftDestroy(pmany));
    CHECK_CUDA(cudaFree(din));
    CHECK_CUDA(cudaFree(dout));

    // 4) Double precision Z2Z, odd non-power-of-two length
    const int Z = 150;
    std::vector<cufftDoubleComplex> hz(Z);
    std::vector<cd> xz(Z);
    for (int i = 0; i < Z; ++i) { xz[i] = cd(signal(i, 9), signal(i, 10)); hz[i].x = xz[i].real(); hz[i].y = xz[i].imag(); }
    cufftDoubleComplex* dz;
    CHECK_CUDA(cudaMalloc(&dz, Z * sizeof(cufftDoubleComplex)));
    CHECK_CUDA(cudaMemcpy(dz, hz.data(), Z * sizeof(cufftDoubleComplex), cudaMemcpyHostToDevice));
    cufftHandle pz;
    CHECK_CUFFT(cufftPlan1d(&pz, Z, CUFFT_Z2Z, 1));
    CHECK_CUFFT(cufftSetStream(pz, stream));
    CHECK_CUFFT(cufftExecZ2Z(pz, dz, dz, CUFFT_FORWARD));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(hz.data(), dz, Z * sizeof(cufftDoubleComplex), cudaMemcpyDeviceToHost));
    std::vector<cd> gotz(Z);
    for (int i = 0; i < Z; ++i) gotz[i] = cd(hz[i].x, hz[i].y);
    check("z2z_forward", gotz, dft(xz, Z, -1), 1e-10);
    CHECK_CUFFT(cufftDestroy(pz));
    CHECK_CUDA(cudaFree(dz));

    CHECK_CUDA(cudaStreamDestroy(stream));
    printf(g_failures == 0 ? "PASSED\n" : "FAILED\n");
    return g_failures == 0 ? 0 : 1;
}
