"""Block-level prefix sums: each block scans its own segment of blockDim elements, with a
double-buffered Hillis-Steele scan in shared memory or a warp-shuffle scan plus warp totals."""
from __future__ import annotations

import math
import random

from .common import MAIN_END, MAIN_START, SCALARS, device_array, fetch, finish_launch, pick_block, prelude, report_bad


def generate(rng: random.Random) -> str:
    etype = rng.choice(("float", "double", "int", "int", "int64"))
    ctype, init, exact, eps = SCALARS[etype]
    variant = rng.choice(("hillis_steele", "shfl"))
    inclusive = rng.random() < 0.5
    block = pick_block(rng, 32, 512 if ctype == "double" else 1024)
    n = rng.randint(1, 1 << rng.randint(8, 18))
    if variant == "hillis_steele":
        body = f"""    __shared__ {ctype} buf[2][{block}];
    int p = 0;
    buf[0][threadIdx.x] = i < n ? in[i] : ({ctype})0;
    __syncthreads();
    for (int off = 1; off < {block}; off <<= 1) {{
        {ctype} v = buf[p][threadIdx.x];
        if (threadIdx.x >= off) v += buf[p][threadIdx.x - off];
        buf[1 - p][threadIdx.x] = v;
        p = 1 - p;
        __syncthreads();
    }}
    {ctype} v = {"buf[p][threadIdx.x]" if inclusive else f"threadIdx.x > 0 ? buf[p][threadIdx.x - 1] : ({ctype})0"};"""
    else:
        body = f"""    __shared__ {ctype} warp_total[32];
    {ctype} x = i < n ? in[i] : ({ctype})0;
    {ctype} v = x;
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    for (int off = 1; off < 32; off <<= 1) {{
        {ctype} u = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off) v += u;
    }}
    if (lane == 31) warp_total[wid] = v;
    __syncthreads();
    if (wid == 0) {{
        {ctype} w = lane < {block // 32} ? warp_total[lane] : ({ctype})0;
        for (int off = 1; off < 32; off <<= 1) {{
            {ctype} u = __shfl_up_sync(0xffffffffu, w, off);
            if (lane >= off) w += u;
        }}
        warp_total[lane] = w;
    }}
    __syncthreads();
    if (wid > 0) v += warp_total[wid - 1];{"" if inclusive else chr(10) + "    v -= x;"}"""
    if exact:
        check = f"""        if (h_out[i] != ({ctype})run) {{
    {report_bad("i", "h_out[i]", "run").strip()}
        }}"""
        acc_t = ctype
    else:
        levels = int(math.log2(block)) + 2
        check = f"""        if (!close_enough((double)h_out[i], run, 4.0 * {levels} * {eps} * runabs + 1e-30)) {{
    {report_bad("i", "h_out[i]", "run").strip()}
        }}"""
        acc_t = "double"
    return f"""{prelude(rng)}
// scan: {"inclusive" if inclusive else "exclusive"} {etype} prefix sum per block of {block}, {variant}
__global__ void scan_blocks(const {ctype}* __restrict__ in, {ctype}* __restrict__ out, int n) {{
    int i = blockIdx.x * {block} + threadIdx.x;
{body}
    if (i < n) out[i] = v;
}}
{MAIN_START}    const int n = {n};
{device_array("in", ctype, "n", init)}{device_array("out", ctype, "n", None)}
    scan_blocks<<<(n + {block} - 1) / {block}, {block}>>>(d_in, d_out, n);
{finish_launch()}{fetch("out", ctype, "n")}
    int bad = 0;
    {acc_t} run = 0;
    double runabs = 0.0;
    for (int i = 0; i < n; ++i) {{
        if (i % {block} == 0) {{ run = 0; runabs = 0.0; }}
        {"run += h_in[i]; runabs += std::fabs((double)h_in[i]);" if inclusive else ""}
{check}
        {"" if inclusive else "run += h_in[i]; runabs += std::fabs((double)h_in[i]);"}
    }}
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); free(h_in); free(h_out);
{MAIN_END}"""
