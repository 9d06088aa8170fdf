// CUB: DeviceReduce::Sum/Reduce, DeviceScan::ExclusiveSum, DeviceRadixSort::SortPairs, BlockReduce, BlockScan, WarpReduce. Header-only: no -l flag needed.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>
#include <cub/cub.cuh>

#define CHECK_CUDA(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: CUDA error %d (%s)\n", __FILE__, __LINE__, (int)e_, cudaGetErrorString(e_)); \
    exit(1); } } while (0)

static int g_failures = 0;
static void report(const char* name, bool ok) {
    if (ok) printf("%s: ok\n", name);
    else { printf("%s: FAILED (mismatch against CPU reference)\n", name); ++g_failures; }
}

static unsigned int g_lcg = 2024u;
static unsigned int lcg() { g_lcg = g_lcg * 1664525u + 1013904223u; return g_lcg >> 8; }

struct MaxOp {
    __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

constexpr int kBlock = 256;
constexpr int kWarp = 32;  // logical warp width, explicit so it does not depend on the hardware warp
constexpr int kWarpsPerBlock = kBlock / kWarp;

__global__ void block_kernel(const int* in, int* block_sums, int* scanned, int* warp_sums, int n) {
    typedef cub::BlockReduce<int, kBlock> BlockReduceT;
    typedef cub::BlockScan<int, kBlock> BlockScanT;
    typedef cub::WarpReduce<int, kWarp> WarpReduceT;
    __shared__ typename BlockReduceT::TempStorage reduce_storage;
    __shared__ typename BlockScanT::TempStorage scan_storage;
    __shared__ typename WarpReduceT::TempStorage warp_storage[kWarpsPerBlock];

    int gid = blockIdx.x * kBlock + threadIdx.x;
    int v = gid < n ? in[gid] : 0;

    int total = BlockReduceT(reduce_storage).Sum(v);
    if (threadIdx.x == 0) block_sums[blockIdx.x] = total;

    int prefix;
    BlockScanT(scan_storage).ExclusiveSum(v, prefix);
    if (gid < n) scanned[gid] = prefix;

    int warp_id = threadIdx.x / kWarp;
    int wsum = WarpReduceT(warp_storage[warp_id]).Sum(v);
    if (threadIdx.x % kWarp == 0) warp_sums[blockIdx.x * kWarpsPerBlock + warp_id] = wsum;
}

int main() {
    const int n = (1 << 20) + 37;
    std::vector<int> h_in(n);
    std::vector<unsigned int> h_keys(n);
    for (int i = 0; i < n; ++i) {
        h_in[i] = (int)(lcg() % 201) - 100;
        h_keys[i] = lcg() % 5000u;  // many duplicates: exercises the stability of radix sort
    }
    int *d_in, *d_out, *d_scan;
    CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_scan, n * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    // DeviceReduce::Sum
    void* d_temp = nullptr;
    size_t temp_bytes = 0;
    CHECK_CUDA(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, n));
    CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
    CHECK_CUDA(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, n));
    int gpu_sum = 0;
    CHECK_CUDA(cudaMemcpy(&gpu_sum, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(d_temp));
    long long cpu_sum = 0;
    for (int v : h_in) cpu_sum += v;
    report("device_reduce_sum", gpu_sum == cpu_sum);

    // DeviceReduce::Reduce with a user functor
    d_temp = nullptr;
    temp_bytes = 0;
    CHECK_CUDA(cub::DeviceReduce::Reduce(d_temp, temp_bytes, d_in, d_out, n, MaxOp(), INT_MIN));
    CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
    CHECK_CUDA(cub::DeviceReduce::Reduce(d_temp, temp_bytes, d_in, d_out, n, MaxOp(), INT_MIN));
    int gpu_max = 0;
    CHECK_CUDA(cudaMemcpy(&gpu_max, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(d_temp));
    report("device_reduce_max", gpu_max == *std::max_element(h_in.begin(), h_in.end()));

    // DeviceScan::ExclusiveSum
    d_temp = nullptr;
    temp_bytes = 0;
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_scan, n));
    CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_scan, n));
    CHECK_CUDA(cudaFree(d_temp));
    std::vector<int> h_scan(n);
    CHECK_CUDA(cudaMemcpy(h_scan.data(), d_scan, n * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = true;
    int run = 0;
    for (int i = 0; i < n; ++i) { if (h_scan[i] != run) ok = false; run += h_in[i]; }
    report("device_exclusive_sum", ok);

    // DeviceRadixSort::SortPairs (keys with duplicates, values = original index)
    unsigned int *d_k_in, *d_k_out;
    int *d_v_in, *d_v_out;
    std::vector<int> h_idx(n);
    for (int i = 0; i < n; ++i) h_idx[i] = i;
    CHECK_CUDA(cudaMalloc(&d_k_in, n * sizeof(unsigned int)));
    CHECK_CUDA(cudaMalloc(&d_k_out, n * sizeof(unsigned int)));
    CHECK_CUDA(cudaMalloc(&d_v_in, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_v_out, n * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_k_in, h_keys.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_v_in, h_idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    d_temp = nullptr;
    temp_bytes = 0;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_k_in, d_k_out, d_v_in, d_v_out, n));
    CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_k_in, d_k_out, d_v_in, d_v_out, n));
    CHECK_CUDA(cudaFree(d_temp));
    std::vector<unsigned int> k_out(n);
    std::vector<int> v_out(n);
    CHECK_CUDA(cudaMemcpy(k_out.data(), d_k_out, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(v_out.data(), d_v_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<std::pair<unsigned int, int>> ref(n);
    for (int i = 0; i < n; ++i) ref[i] = std::make_pair(h_keys[i], i);
    std::stable_sort(ref.begin(), ref.end(),
                     [](const std::pair<unsigned int, int>& a, const std::pair<unsigned int, int>& b) {
                         return a.first < b.first;
                     });
    ok = true;
    for (int i = 0; i < n; ++i) if (k_out[i] != ref[i].first || v_out[i] != ref[i].second) ok = false;
    report("radix_sort_pairs", ok);

    // Block-level and warp-level primitives
    int blocks = (n + kBlock - 1) / kBlock;
    int *d_block_sums, *d_warp_sums;
    CHECK_CUDA(cudaMalloc(&d_block_sums, blocks * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_warp_sums, blocks * kWarpsPerBlock * sizeof(int)));
    block_kernel<<<blocks, kBlock>>>(d_in, d_block_sums, d_scan, d_warp_sums, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> h_block(blocks), h_warp(blocks * kWarpsPerBlock);
    CHECK_CUDA(cudaMemcpy(h_block.data(), d_block_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_warp.data(), d_warp_sums, h_warp.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h_scan.data(), d_scan, n * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok_block = true, ok_scan = true, ok_warp = true;
    for (int b = 0; b < blocks; ++b) {
        int bsum = 0;
        for (int t = 0; t < kBlock; ++t) {
            int i = b * kBlock + t;
            int v = i < n ? h_in[i] : 0;
            if (i < n && h_scan[i] != bsum) ok_scan = false;
            bsum += v;
            if (t % kWarp == 0) {
                int wsum = 0;
                for (int u = 0; u < kWarp; ++u) wsum += (i + u < n) ? h_in[i + u] : 0;
                if (h_warp[b * kWarpsPerBlock + t / kWarp] != wsum) ok_warp = false;
            }
        }
        if (h_block[b] != bsum) ok_block = false;
    }
    report("block_reduce", ok_block);
    report("block_scan", ok_scan);
    report("warp_reduce", ok_warp);

    printf("sum=%d max=%d first_key=%u last_key=%u\n", gpu_sum, gpu_max, k_out[0], k_out[n - 1]);
    CHECK_CUDA(cudaFree(d_in)); CHECK_CUDA(cudaFree(d_out)); CHECK_CUDA(cudaFree(d_scan));
    CHECK_CUDA(cudaFree(d_k_in)); CHECK_CUDA(cudaFree(d_k_out));
    CHECK_CUDA(cudaFree(d_v_in)); CHECK_CUDA(cudaFree(d_v_out));
    CHECK_CUDA(cudaFree(d_block_sums)); CHECK_CUDA(cudaFree(d_warp_sums));
    printf(g_failures == 0 ? "PASSED\n" : "FAILED\n");
    return g_failures == 0 ? 0 : 1;
}
