"""Histograms with atomics: global atomicAdd, or a per-block histogram in shared memory merged
with atomics; integer keys or dyadic floats binned by scale. Counts compare exactly."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, device_array, fetch, finish_launch, pick_block, prelude, report_bad


def generate(rng: random.Random) -> str:
    bins = rng.choice((7, 16, 32, 64, 100, 128, 256, 1000))
    keys = rng.choice(("int", "float"))
    variant = rng.choice(("global", "shared"))
    counter = rng.choice(("unsigned int", "unsigned long long", "int"))
    block = pick_block(rng, 32)
    grid = rng.choice((1, 4, 30, 120, 0))  # 0: one thread per item
    n = rng.randint(1, 1 << rng.randint(10, 20))
    if keys == "int":
        ktype, init = "int", "(int)(lcg_next() & 0xffff)"
        bin_of = f"(int)((unsigned)v % {bins}u)"
    else:
        ktype, init = "float", "(float)lcg_int(-4096, 4096) / 1024.0f"
        bin_of = f"clamp_bin((int)((v + 4.0f) * {bins / 8.0!r}f))"
    if variant == "shared":
        body = f"""    __shared__ {counter} local[{bins}];
    for (int b = threadIdx.x; b < {bins}; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[bin_of(in[i])], ({counter})1);
    __syncthreads();
    for (int b = threadIdx.x; b < {bins}; b += blockDim.x)
        if (local[b]) atomicAdd(&hist[b], local[b]);"""
    else:
        body = f"""    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&hist[bin_of(in[i])], ({counter})1);"""
    launch_grid = str(grid) if grid else f"(n + {block} - 1) / {block}"
    return f"""{prelude(rng)}
// histogram: {bins} bins of {keys} keys, {variant} counters ({counter}), block {block}, grid {launch_grid}
__host__ __device__ inline int clamp_bin(int b) {{ return b < 0 ? 0 : (b >= {bins} ? {bins} - 1 : b); }}
__host__ __device__ inline int bin_of({ktype} v) {{ return {bin_of}; }}

__global__ void histogram(const {ktype}* __restrict__ in, {counter}* __restrict__ hist, int n) {{
{body}
}}
{MAIN_START}    const int n = {n};
{device_array("in", ktype, "n", init)}{device_array("hist", counter, str(bins), None)}
    histogram<<<{launch_grid}, {block}>>>(d_in, d_hist, n);
{finish_launch()}{fetch("hist", counter, str(bins))}
    {counter} want[{bins}] = {{0}};
    for (int i = 0; i < n; ++i) want[bin_of(h_in[i])] += 1;
    int bad = 0;
    for (int i = 0; i < {bins}; ++i)
        if (h_hist[i] != want[i]) {{
    {report_bad("i", "h_hist[i]", "want[i]").strip()}
        }}
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_hist)); free(h_in); free(h_hist);
{MAIN_END}"""
