"""Matrix transposes: a shared-memory tile (with or without the +1 padding against bank
conflicts) and TILE x ROWS thread blocks, or the naive kernel. Compared exactly."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, device_array, fetch, finish_launch, prelude, report_bad

TYPES = {
    "float": ("float", "(float)lcg_real(-4.0, 4.0)"),
    "double": ("double", "lcg_real(-4.0, 4.0)"),
    "int": ("int", "(int)lcg_next()"),
    "short": ("short", "(short)lcg_next()"),
    "int64": ("long long", "((long long)lcg_next() << 20) ^ lcg_next()"),
}


def generate(rng: random.Random) -> str:
    etype = rng.choice(tuple(TYPES))
    ctype, init = TYPES[etype]
    tile = rng.choice((16, 32))
    rows_per = rng.choice([r for r in (4, 8, 16, 32) if r <= tile])
    pad = rng.choice((0, 1))
    variant = rng.choice(("shared", "shared", "naive"))
    rows, cols = rng.randint(1, 1100), rng.randint(1, 1100)
    if variant == "shared":
        body = f"""    __shared__ {ctype} t[{tile}][{tile} + {pad}];
    int x = blockIdx.x * {tile} + threadIdx.x;
    int y = blockIdx.y * {tile} + threadIdx.y;
    for (int j = 0; j < {tile}; j += {rows_per})
        if (x < cols && y + j < rows) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * {tile} + threadIdx.x;
    y = blockIdx.x * {tile} + threadIdx.y;
    for (int j = 0; j < {tile}; j += {rows_per})
        if (x < rows && y + j < cols) out[(y + j) * rows + x] = t[threadIdx.x][threadIdx.y + j];"""
    else:
        body = f"""    int x = blockIdx.x * {tile} + threadIdx.x;
    for (int j = 0; j < {tile}; j += {rows_per}) {{
        int y = blockIdx.y * {tile} + threadIdx.y + j;
        if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
    }}"""
    return f"""{prelude(rng)}
// transpose: {etype} {rows}x{cols}, {variant} tile {tile}x{tile} (+{pad}), block {tile}x{rows_per}
__global__ void transpose(const {ctype}* __restrict__ in, {ctype}* __restrict__ out, int rows, int cols) {{
{body}
}}
{MAIN_START}    const int rows = {rows}, cols = {cols};
{device_array("in", ctype, "rows * cols", init)}{device_array("out", ctype, "rows * cols", None)}
    dim3 block({tile}, {rows_per});
    dim3 grid((cols + {tile} - 1) / {tile}, (rows + {tile} - 1) / {tile});
    transpose<<<grid, block>>>(d_in, d_out, rows, cols);
{finish_launch()}{fetch("out", ctype, "rows * cols")}
    int bad = 0;
    for (int c = 0; c < cols; ++c)
        for (int r = 0; r < rows; ++r)
            if (h_out[c * rows + r] != h_in[r * cols + c]) {{
    {report_bad("c * rows + r", "h_out[c * rows + r]", "h_in[r * cols + c]").strip()}
            }}
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); free(h_in); free(h_out);
{MAIN_END}"""
