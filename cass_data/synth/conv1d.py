"""1D convolutions with the filter in __constant__ memory (cudaMemcpyToSymbol), zero padding,
straight from global memory or through a shared tile with halo."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, SCALARS, device_array, fetch, finish_launch, pick_block, prelude, report_bad


def generate(rng: random.Random) -> str:
    etype = rng.choice(("float", "float", "double", "int"))
    ctype, init, exact, eps = SCALARS[etype]
    taps = rng.choice((3, 5, 7, 9, 15, 17, 31, 33))
    variant = rng.choice(("global", "shared"))
    block = pick_block(rng, 64)
    n = rng.randint(1, 1 << rng.randint(8, 20))
    filt = "lcg_int(-8, 8)" if exact else f"({ctype})lcg_int(-64, 64) / 64"
    if variant == "shared":
        body = f"""    __shared__ {ctype} tile[{block} + TAPS - 1];
    for (int t = threadIdx.x; t < {block} + TAPS - 1; t += {block}) {{
        int j = blockIdx.x * {block} + t - HALF;
        tile[t] = (j >= 0 && j < n) ? in[j] : ({ctype})0;
    }}
    __syncthreads();
    if (i < n) {{
        {ctype} acc = 0;
        for (int k = 0; k < TAPS; ++k) acc += c_filter[k] * tile[threadIdx.x + k];
        out[i] = acc;
    }}"""
    else:
        body = f"""    if (i < n) {{
        {ctype} acc = 0;
        for (int k = 0; k < TAPS; ++k) {{
            int j = i + k - HALF;
            if (j >= 0 && j < n) acc += c_filter[k] * in[j];
        }}
        out[i] = acc;
    }}"""
    if exact:
        check = f"""        if (h_out[i] != ({ctype})want) {{
    {report_bad("i", "h_out[i]", "want").strip()}
        }}"""
    else:
        check = f"""        if (!close_enough((double)h_out[i], want, 4.0 * (TAPS + 2) * {eps} * wabs + 1e-30)) {{
    {report_bad("i", "h_out[i]", "want").strip()}
        }}"""
    return f"""{prelude(rng)}
// conv1d: {taps} taps, {etype}, filter in constant memory, {variant} input, block {block}
#define TAPS {taps}
#define HALF (TAPS / 2)
__constant__ {ctype} c_filter[TAPS];

__global__ void conv(const {ctype}* __restrict__ in, {ctype}* __restrict__ out, int n) {{
    int i = blockIdx.x * {block} + threadIdx.x;
{body}
}}
{MAIN_START}    const int n = {n};
    {ctype} h_filter[TAPS];
    for (int k = 0; k < TAPS; ++k) h_filter[k] = {filt};
    CHECK(cudaMemcpyToSymbol(c_filter, h_filter, sizeof(h_filter)));
{device_array("in", ctype, "n", init)}{device_array("out", ctype, "n", None)}
    conv<<<(n + {block} - 1) / {block}, {block}>>>(d_in, d_out, n);
{finish_launch()}{fetch("out", ctype, "n")}
    int bad = 0;
    for (int i = 0; i < n; ++i) {{
        double want = 0.0, wabs = 0.0;
        for (int k = 0; k < TAPS; ++k) {{
            int j = i + k - HALF;
            if (j < 0 || j >= n) continue;
            double t = (double)h_filter[k] * (double)h_in[j];
            want += t;
            wabs += std::fabs(t);
        }}
        (void)wabs;
{check}
    }}
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); free(h_in); free(h_out);
{MAIN_END}"""
