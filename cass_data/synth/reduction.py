"""Reductions (sum, max, min) in two passes: a grid-stride accumulate, then a block tree in
shared memory or warp shuffles; the second pass reduces the per-block partials in one block.
Float sums are checked against a double reference with a tolerance scaled by the chain length."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, SCALARS, device_array, fetch, finish_launch, pick_block, prelude

IDENTITY = {
    ("sum", "float"): "0.0f", ("sum", "double"): "0.0", ("sum", "int"): "0", ("sum", "int64"): "0LL",
    ("max", "float"): "-3.0e38f", ("max", "double"): "-1.0e308", ("max", "int"): "(-2147483647 - 1)",
    ("max", "int64"): "(-9223372036854775807LL - 1)",
    ("min", "float"): "3.0e38f", ("min", "double"): "1.0e308", ("min", "int"): "2147483647",
    ("min", "int64"): "9223372036854775807LL",
}
COMBINE = {"sum": "a + b", "max": "(a > b ? a : b)", "min": "(a < b ? a : b)"}


def generate(rng: random.Random) -> str:
    etype = rng.choice(tuple(SCALARS))
    ctype, init, exact, eps = SCALARS[etype]
    op = rng.choice(("sum", "sum", "max", "min"))
    ident = IDENTITY[(op, etype)]
    variant = rng.choice(("smem", "shfl"))
    block = pick_block(rng, 64 if variant == "shfl" else 32)
    grid = rng.choice((1, 7, 32, 96, 256))
    n = rng.randint(1, 1 << rng.randint(10, 20))
    if variant == "smem":
        tree = f"""    __shared__ {ctype} s[{block}];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = {block} / 2; stride > 0; stride >>= 1) {{
        if (threadIdx.x < stride) s[threadIdx.x] = combine(s[threadIdx.x], s[threadIdx.x + stride]);
        __syncthreads();
    }}
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];"""
    else:
        tree = f"""    __shared__ {ctype} warp_part[32];
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    for (int off = 16; off > 0; off >>= 1) acc = combine(acc, __shfl_down_sync(0xffffffffu, acc, off));
    if (lane == 0) warp_part[wid] = acc;
    __syncthreads();
    if (wid == 0) {{
        acc = lane < {block // 32} ? warp_part[lane] : ({ctype}){ident};
        for (int off = 16; off > 0; off >>= 1) acc = combine(acc, __shfl_down_sync(0xffffffffu, acc, off));
        if (lane == 0) out[blockIdx.x] = acc;
    }}"""
    if op == "sum" and not exact:
        ref_t = "double"
        check = f"""    double tol = 4.0 * {eps} * ((double)n / ({grid} * {block}) + 64.0) * sumabs + 1e-30;
    if (!close_enough((double)h_out[0], want, tol)) {{ bad = 1; fprintf(stderr, "got %.17g want %.17g tol %g\\n", (double)h_out[0], want, tol); }}"""
    else:
        ref_t = ctype
        check = """    if (h_out[0] != want) { bad = 1; fprintf(stderr, "got %.17g want %.17g\\n", (double)h_out[0], (double)want); }"""
    ref_combine = COMBINE[op].replace("a", "want").replace("b", f"({ref_t})h_in[i]") if op == "sum" else \
        COMBINE[op].replace("a", "want").replace("b", "h_in[i]")
    return f"""{prelude(rng)}
// reduction: {op} of {etype}, {variant} tree, block {block}, grid {grid}
__device__ inline {ctype} combine({ctype} a, {ctype} b) {{ return {COMBINE[op]}; }}

__global__ void reduce_pass(const {ctype}* __restrict__ in, {ctype}* __restrict__ out, int n) {{
    {ctype} acc = {ident};
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc = combine(acc, in[i]);
{tree}
}}
{MAIN_START}    const int n = {n};
{device_array("in", ctype, "n", init)}{device_array("part", ctype, str(grid), None)}{device_array("out", ctype, "1", None)}
    reduce_pass<<<{grid}, {block}>>>(d_in, d_part, n);
{finish_launch()}    reduce_pass<<<1, {block}>>>(d_part, d_out, {grid});
{finish_launch()}{fetch("out", ctype, "1")}
    {ref_t} want = ({ref_t}){ident};
    double sumabs = 0.0;
    for (int i = 0; i < n; ++i) {{ want = {ref_combine}; sumabs += std::fabs((double)h_in[i]); }}
    (void)sumabs;
    int bad = 0;
{check}
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_part)); CHECK(cudaFree(d_out)); free(h_in); free(h_part); free(h_out);
{MAIN_END}"""
