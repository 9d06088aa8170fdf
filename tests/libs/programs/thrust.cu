// Thrust: device/host vectors, thrust::device policy, functors, transform/reduce/scans/sorts, fancy iterators, raw_pointer_cast. Header-only: no -l flag needed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>

#define CHECK_CUDA(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: CUDA error %d (%s)\n", __FILE__, __LINE__, (int)e_, cudaGetErrorString(e_)); \
    exit(1); } } while (0)

static int g_failures = 0;
static void report(const char* name, bool ok) {
    if (ok) printf("%s: ok\n", name);
    else { printf("%s: FAILED (mismatch against CPU reference)\n", name); ++g_failures; }
}

static unsigned int g_lcg = 12345u;
static unsigned int lcg() { g_lcg = g_lcg * 1664525u + 1013904223u; return g_lcg >> 8; }

struct Saxpy {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};
struct SquareLL {
    __host__ __device__ long long operator()(int i) const { return (long long)i * i; }
};
struct IsOdd {
    __host__ __device__ bool operator()(int v) const { return (v & 1) != 0; }
};
struct ZipProduct {
    __host__ __device__ long long operator()(const thrust::tuple<int, int>& t) const {
        return (long long)thrust::get<0>(t) * thrust::get<1>(t);
    }
};

__global__ void affine_kernel(int* data, int n, int mul, int add) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * mul + add;
}

int main() {
    const int n = 100003;  // not a multiple of any block size
    std::vector<float> hx(n), hy(n);
    std::vector<int> hi(n);
    for (int i = 0; i < n; ++i) {
        hx[i] = (float)(lcg() % 2000) / 100.0f - 10.0f;
        hy[i] = (float)(lcg() % 2000) / 100.0f - 10.0f;
        hi[i] = (int)(lcg() % 1000) - 300;
    }
    thrust::host_vector<float> h_x(hx.begin(), hx.end());
    thrust::device_vector<float> d_x = h_x;
    thrust::device_vector<float> d_y(hy.begin(), hy.end());
    thrust::device_vector<int> d_i(hi.begin(), hi.end());

    // transform with a user functor
    thrust::device_vector<float> d_z(n);
    thrust::transform(thrust::device, d_x.begin(), d_x.end(), d_y.begin(), d_z.begin(), Saxpy{2.5f});
    thrust::host_vector<float> h_z = d_z;
    bool ok = true;
    for (int i = 0; i < n; ++i)
        if (std::fabs(h_z[i] - (2.5f * hx[i] + hy[i])) > 1e-4f * (1.0f + std::fabs(h_z[i]))) ok = false;
    report("transform_functor", ok);

    // reduce (integers: exact)
    long long cpu_sum = 0;
    for (int v : hi) cpu_sum += v;
    long long gpu_sum = thrust::reduce(thrust::device, d_i.begin(), d_i.end(), 0LL, thrust::plus<long long>());
    report("reduce", gpu_sum == cpu_sum);
    int cpu_max = *std::max_element(hi.begin(), hi.end());
    int gpu_max = thrust::reduce(thrust::device, d_i.begin(), d_i.end(), -1000000, thrust::maximum<int>());
    report("reduce_max", gpu_max == cpu_max);
    int cpu_odd = (int)std::count_if(hi.begin(), hi.end(), [](int v) { return (v & 1) != 0; });
    report("count_if", (int)thrust::count_if(thrust::device, d_i.begin(), d_i.end(), IsOdd()) == cpu_odd);

    // inclusive / exclusive scans
    thrust::device_vector<int> d_scan(n);
    thrust::inclusive_scan(thrust::device, d_i.begin(), d_i.end(), d_scan.begin());
    thrust::host_vector<int> h_scan = d_scan;
    ok = true;
    int run = 0;
    for (int i = 0; i < n; ++i) { run += hi[i]; if (h_scan[i] != run) ok = false; }
    report("inclusive_scan", ok);
    thrust::exclusive_scan(thrust::device, d_i.begin(), d_i.end(), d_scan.begin(), 7);
    h_scan = d_scan;
    ok = true;
    run = 7;
    for (int i = 0; i < n; ++i) { if (h_scan[i] != run) ok = false; run += hi[i]; }
    report("exclusive_scan", ok);

    // sort
    thrust::device_vector<int> d_sorted = d_i;
    thrust::sort(thrust::device, d_sorted.begin(), d_sorted.end());
    std::vector<int> ref = hi;
    std::sort(ref.begin(), ref.end());
    thrust::host_vector<int> h_sorted = d_sorted;
    report("sort", std::equal(ref.begin(), ref.end(), h_sorted.begin()));
    thrust::sort(thrust::device, d_sorted.begin(), d_sorted.end(), thrust::greater<int>());
    h_sorted = d_sorted;
    report("sort_descending", std::equal(ref.rbegin(), ref.rend(), h_sorted.begin()));

    // sort_by_key: keys are a permutation of 0..n-1 (n prime), values are the original index
    thrust::host_vector<int> h_keys(n);
    for (int i = 0; i < n; ++i) h_keys[i] = (int)(((long long)i * 7919) % n);
    thrust::device_vector<int> d_keys = h_keys;
    thrust::device_vector<int> d_vals(n);
    thrust::sequence(thrust::device, d_vals.begin(), d_vals.end());
    thrust::sort_by_key(thrust::device, d_keys.begin(), d_keys.end(), d_vals.begin());
    thrust::host_vector<int> k2 = d_keys, v2 = d_vals;
    ok = true;
    for (int i = 0; i < n; ++i)
        if (k2[i] != i || h_keys[v2[i]] != i) ok = false;
    report("sort_by_key", ok);

    // counting_iterator + transform_iterator: sum of squares 0..n-1
    thrust::counting_iterator<int> first(0);
    long long sq = thrust::reduce(thrust::device,
                                  thrust::make_transform_iterator(first, SquareLL()),
                                  thrust::make_transform_iterator(first + n, SquareLL()), 0LL);
    long long nn = n;
    report("counting_transform_iterator", sq == (nn - 1) * nn * (2 * nn - 1) / 6);

    // zip_iterator: integer dot product of d_i with (index % 13)
    thrust::device_vector<int> d_m(n);
    thrust::transform(thrust::device, first, first + n, thrust::make_constant_iterator(13), d_m.begin(),
                      thrust::modulus<int>());
    long long dot = thrust::transform_reduce(
        thrust::device,
        thrust::make_zip_iterator(thrust::make_tuple(d_i.begin(), d_m.begin())),
        thrust::make_zip_iterator(thrust::make_tuple(d_i.end(), d_m.end())),
        ZipProduct(), 0LL, thrust::plus<long long>());
    long long cpu_dot = 0;
    for (int i = 0; i < n; ++i) cpu_dot += (long long)hi[i] * (i % 13);
    report("zip_iterator_dot", dot == cpu_dot);

    // constant_iterator as the second operand
    thrust::device_vector<int> d_plus(n);
    thrust::transform(thrust::device, d_i.begin(), d_i.end(), thrust::make_constant_iterator(5), d_plus.begin(),
                      thrust::plus<int>());
    thrust::host_vector<int> h_plus = d_plus;
    ok = true;
    for (int i = 0; i < n; ++i) if (h_plus[i] != hi[i] + 5) ok = false;
    report("constant_iterator", ok);

    // raw_pointer_cast into a hand-written kernel
    int* raw = thrust::raw_pointer_cast(d_plus.data());
    affine_kernel<<<(n + 255) / 256, 256>>>(raw, n, 3, -1);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    h_plus = d_plus;
    ok = true;
    for (int i = 0; i < n; ++i) if (h_plus[i] != (hi[i] + 5) * 3 - 1) ok = false;
    report("raw_pointer_cast_kernel", ok);

    printf("sum=%lld max=%d odd=%d\n", gpu_sum, gpu_max, cpu_odd);
    printf(g_failures == 0 ? "PASSED\n" : "FAILED\n");
    return g_failures == 0 ? 0 : 1;
}
