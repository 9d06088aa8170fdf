// CUDA's byte and half-word dot products (__dp4a, __dp2a_lo/_hi), every overload, over given inputs.
// out[k * n + i] is function k applied to (a[i], b[i], c[i]); k follows the order in the kernel.
// Functions 8-11 are __dp2a_lo/_hi's vector overloads on the same bits: the same answers as 4-7.
#include <cuda_runtime.h>

__global__ void dot_products(const int* a, const int* b, const int* c, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i], z = c[i];
    unsigned ux = x, uy = y, uz = z;
    char4 cx = *reinterpret_cast<const char4*>(&a[i]), cy = *reinterpret_cast<const char4*>(&b[i]);
    uchar4 ucx = *reinterpret_cast<const uchar4*>(&a[i]), ucy = *reinterpret_cast<const uchar4*>(&b[i]);
    out[0 * n + i] = __dp4a(x, y, z);
    out[1 * n + i] = (int)__dp4a(ux, uy, uz);
    out[2 * n + i] = __dp4a(cx, cy, z);
    out[3 * n + i] = (int)__dp4a(ucx, ucy, uz);
    out[4 * n + i] = __dp2a_lo(x, y, z);
    out[5 * n + i] = __dp2a_hi(x, y, z);
    out[6 * n + i] = (int)__dp2a_lo(ux, uy, uz);
    out[7 * n + i] = (int)__dp2a_hi(ux, uy, uz);
    short2 sx = *reinterpret_cast<const short2*>(&a[i]);
    ushort2 usx = *reinterpret_cast<const ushort2*>(&a[i]);
    out[8 * n + i] = __dp2a_lo(sx, cy, z);
    out[9 * n + i] = __dp2a_hi(sx, cy, z);
    out[10 * n + i] = (int)__dp2a_lo(usx, ucy, uz);
    out[11 * n + i] = (int)__dp2a_hi(usx, ucy, uz);
}

#ifdef DOT_PRODUCTS_MAIN
#include <cstdio>
#include <vector>
// The GPU's answers for inputs from a fixed generator: "i a b c f0 ... f7" per line.
int main() {
    const int n = 4096;
    std::vector<int> a(n), b(n), c(n), out(12 * n);
    unsigned s = 12345u;
    auto next = [&] { s = s * 1664525u + 1013904223u; return (int)(s ^ (s >> 13) * 2654435761u); };
    for (int i = 0; i < n; ++i) { a[i] = next(); b[i] = next(); c[i] = next(); }
    a[0] = b[0] = (int)0x80808080; c[0] = 0x7fffffff;  // extremes: the sum wraps
    a[1] = b[1] = (int)0xffffffff; c[1] = (int)0xffffffff;
    int *da, *db, *dc, *dout;
    cudaMalloc(&da, n * 4); cudaMalloc(&db, n * 4); cudaMalloc(&dc, n * 4); cudaMalloc(&dout, 12 * n * 4);
    cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, c.data(), n * 4, cudaMemcpyHostToDevice);
    dot_products<<<(n + 255) / 256, 256>>>(da, db, dc, dout, n);
    cudaMemcpy(out.data(), dout, 8 * n * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
        printf("%d %d %d %d", i, a[i], b[i], c[i]);
        for (int k = 0; k < 8; ++k) printf(" %d", out[k * n + i]);
        printf("\n");
    }
    return 0;
}
#endif
