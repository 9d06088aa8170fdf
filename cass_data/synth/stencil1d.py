"""1D stencils of radius 1-4 with dyadic weights, through a shared-memory tile with halo or
straight from global memory; zero or clamped boundaries."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, SCALARS, device_array, fetch, finish_launch, pick_block, prelude, report_bad


def generate(rng: random.Random) -> str:
    etype = rng.choice(("float", "float", "double", "int", "int64"))
    ctype, init, exact, eps = SCALARS[etype]
    radius = rng.randint(1, 4)
    if exact:
        weights = [str(rng.randint(-4, 4)) for _ in range(2 * radius + 1)]
    else:
        weights = [repr(rng.randint(-16, 16) / 16) + ("f" if ctype == "float" else "") for _ in range(2 * radius + 1)]
    boundary = rng.choice(("zero", "clamp"))
    variant = rng.choice(("shared", "global"))
    block = pick_block(rng, 32)
    n = rng.randint(1, 1 << rng.randint(8, 20))
    at = "(j < 0 || j >= n) ? (%s)0 : in[j]" % ctype if boundary == "zero" else "in[j < 0 ? 0 : (j >= n ? n - 1 : j)]"
    if variant == "shared":
        kernel_body = f"""    __shared__ {ctype} tile[{block} + 2 * R];
    int l = threadIdx.x + R;
    tile[l] = at(in, g, n);
    if (threadIdx.x < R) {{
        tile[l - R] = at(in, g - R, n);
        tile[l + {block}] = at(in, g + {block}, n);
    }}
    __syncthreads();
    if (g < n) {{
        {ctype} acc = 0;
        for (int k = 0; k <= 2 * R; ++k) acc += c_w[k] * tile[l - R + k];
        out[g] = acc;
    }}"""
    else:
        kernel_body = f"""    if (g < n) {{
        {ctype} acc = 0;
        for (int k = 0; k <= 2 * R; ++k) acc += c_w[k] * at(in, g - R + k, n);
        out[g] = acc;
    }}"""
    if exact:
        check = f"""        if (h_out[i] != ({ctype})want) {{
    {report_bad("i", "h_out[i]", "want").strip()}
        }}"""
    else:
        check = f"""        if (!close_enough((double)h_out[i], want, 4.0 * (2 * R + 2) * {eps} * wabs + 1e-30)) {{
    {report_bad("i", "h_out[i]", "want").strip()}
        }}"""
    return f"""{prelude(rng)}
// stencil1d: radius {radius}, {etype}, {boundary} boundary, {variant} memory, block {block}
#define R {radius}
__device__ const {ctype} c_w[2 * R + 1] = {{{", ".join(weights)}}};
static const {ctype} w[2 * R + 1] = {{{", ".join(weights)}}};

__host__ __device__ inline {ctype} at(const {ctype}* in, int j, int n) {{ return {at}; }}

__global__ void stencil(const {ctype}* __restrict__ in, {ctype}* __restrict__ out, int n) {{
    int g = blockIdx.x * {block} + threadIdx.x;
{kernel_body}
}}
{MAIN_START}    const int n = {n};
{device_array("in", ctype, "n", init)}{device_array("out", ctype, "n", None)}
    stencil<<<(n + {block} - 1) / {block}, {block}>>>(d_in, d_out, n);
{finish_launch()}{fetch("out", ctype, "n")}
    int bad = 0;
    for (int i = 0; i < n; ++i) {{
        double want = 0.0, wabs = 0.0;
        for (int k = 0; k <= 2 * R; ++k) {{
            double t = (double)w[k] * (double)at(h_in, i - R + k, n);
            want += t;
            wabs += std::fabs(t);
        }}
        (void)wabs;
{check}
    }}
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); free(h_in); free(h_out);
{MAIN_END}"""
