"""Matrix multiply C = A B (+ C) with shared-memory tiles of 8, 16 or 32, or the naive loop;
sizes that are not tile multiples exercise the bounds checks."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, SCALARS, device_array, fetch, finish_launch, prelude, report_bad


def generate(rng: random.Random) -> str:
    etype = rng.choice(("float", "float", "double", "int"))
    ctype, init, exact, eps = SCALARS[etype]
    tile = rng.choice((8, 16, 32))
    variant = rng.choice(("tiled", "tiled", "naive"))
    accumulate = rng.random() < 0.3
    m, n, k = (rng.randint(1, 260) for _ in range(3))
    if variant == "tiled":
        body = f"""    __shared__ {ctype} As[{tile}][{tile}];
    __shared__ {ctype} Bs[{tile}][{tile} + 1];
    {ctype} acc = 0;
    for (int t = 0; t < K; t += {tile}) {{
        As[threadIdx.y][threadIdx.x] = (row < M && t + threadIdx.x < K) ? A[row * K + t + threadIdx.x] : ({ctype})0;
        Bs[threadIdx.y][threadIdx.x] = (col < N && t + threadIdx.y < K) ? B[(t + threadIdx.y) * N + col] : ({ctype})0;
        __syncthreads();
        for (int kk = 0; kk < {tile}; ++kk) acc += As[threadIdx.y][kk] * Bs[kk][threadIdx.x];
        __syncthreads();
    }}"""
    else:
        body = f"""    {ctype} acc = 0;
    if (row < M && col < N)
        for (int kk = 0; kk < K; ++kk) acc += A[row * K + kk] * B[kk * N + col];"""
    store = f"C[row * N + col] {'+=' if accumulate else '='} acc;"
    if exact:
        cmp = f"""            if (h_C[i] != ({ctype})want) {{
    {report_bad("i", "h_C[i]", "want").strip()}
            }}"""
    else:
        cmp = f"""            if (!close_enough((double)h_C[i], want, 4.0 * (K + 2) * {eps} * wabs + 1e-30)) {{
    {report_bad("i", "h_C[i]", "want").strip()}
            }}"""
    return f"""{prelude(rng)}
// gemm: {etype} {m}x{k} * {k}x{n}, {variant} tile {tile}{", accumulate into C" if accumulate else ""}
__global__ void gemm(const {ctype}* __restrict__ A, const {ctype}* __restrict__ B, {ctype}* __restrict__ C, int M, int N, int K) {{
    int row = blockIdx.y * {tile} + threadIdx.y;
    int col = blockIdx.x * {tile} + threadIdx.x;
{body}
    if (row < M && col < N) {store}
}}
{MAIN_START}    const int M = {m}, N = {n}, K = {k};
{device_array("A", ctype, "M * K", init)}{device_array("B", ctype, "K * N", init)}{device_array("C", ctype, "M * N", init if accumulate else None)}
    dim3 block({tile}, {tile});
    dim3 grid((N + {tile} - 1) / {tile}, (M + {tile} - 1) / {tile});
    gemm<<<grid, block>>>(d_A, d_B, d_C, M, N, K);
{finish_launch()}    {ctype}* h_C0 = ({ctype}*)malloc(M * N * sizeof({ctype}));
    for (int i = 0; i < M * N; ++i) h_C0[i] = h_C[i];
{fetch("C", ctype, "M * N")}    int bad = 0;
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {{
            int i = r * N + c;
            double want = {"(double)h_C0[i]" if accumulate else "0.0"}, wabs = std::fabs(want);
            for (int kk = 0; kk < K; ++kk) {{
                double t = (double)h_A[r * K + kk] * (double)h_B[kk * N + c];
                want += t;
                wabs += std::fabs(t);
            }}
            (void)wabs;
{cmp}
        }}
    CHECK(cudaFree(d_A)); CHECK(cudaFree(d_B)); CHECK(cudaFree(d_C)); free(h_A); free(h_B); free(h_C); free(h_C0);
{MAIN_END}"""
