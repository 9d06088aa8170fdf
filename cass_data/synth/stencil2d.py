"""2D stencils (5- or 9-point) on a 2D grid of 2D blocks, through a shared tile with a
one-cell halo or from global memory, run for 1-3 ping-pong steps."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, SCALARS, device_array, finish_launch, prelude, report_bad

BLOCKS_2D = ((8, 8), (16, 16), (32, 8), (32, 32), (16, 4), (64, 4), (32, 16), (128, 2))


def generate(rng: random.Random) -> str:
    etype = rng.choice(("float", "float", "double", "int"))
    ctype, init, exact, eps = SCALARS[etype]
    points = rng.choice((5, 9))
    offsets = [(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if points == 9 or dy == 0 or dx == 0]
    if exact:
        weights = [rng.randint(-2, 2) for _ in offsets]
        steps = 1
    else:
        weights = [rng.randint(-4, 4) / (4 * len(offsets)) for _ in offsets]
        steps = rng.randint(1, 3)
    lit = (lambda w: repr(w) + ("f" if ctype == "float" else "")) if not exact else str
    bx, by = rng.choice(BLOCKS_2D)
    rows, cols = rng.randint(2, 600), rng.randint(2, 600)
    variant = rng.choice(("shared", "global"))
    if variant == "shared":
        fetch_at = "tile[threadIdx.y + 1 + ({dy})][threadIdx.x + 1 + ({dx})]"
        load = f"""    __shared__ {ctype} tile[{by} + 2][{bx} + 2];
    int x0 = blockIdx.x * {bx} - 1, y0 = blockIdx.y * {by} - 1;
    for (int ty = threadIdx.y; ty < {by} + 2; ty += {by})
        for (int tx = threadIdx.x; tx < {bx} + 2; tx += {bx})
            tile[ty][tx] = at(in, y0 + ty, x0 + tx, rows, cols);
    __syncthreads();
"""
    else:
        fetch_at = "at(in, y + ({dy}), x + ({dx}), rows, cols)"
        load = ""
    terms = "\n".join(f"        acc += ({ctype}){lit(w)} * {fetch_at.format(dy=dy, dx=dx)};"
                      for (dy, dx), w in zip(offsets, weights))
    host_terms = "\n".join(
        f"                {{ double t = (double)({ctype}){lit(w)} * (double)at(cur, y + ({dy}), x + ({dx}), rows, cols); want += t; wabs += std::fabs(t); }}"
        for (dy, dx), w in zip(offsets, weights))
    if exact:
        cmp = f"""                if (h_out[i] != ({ctype})want) {{
    {report_bad("i", "h_out[i]", "want").strip()}
                }}"""
    else:
        cmp = f"""                if (!close_enough((double)h_out[i], want, 8.0 * {points + 1} * {steps} * {eps} * (wabs + 1.0))) {{
    {report_bad("i", "h_out[i]", "want").strip()}
                }}"""
    return f"""{prelude(rng)}
// stencil2d: {points}-point, {etype}, {variant} memory, block {bx}x{by}, {rows}x{cols}, {steps} step(s)
__host__ __device__ inline {ctype} at(const {ctype}* a, int y, int x, int rows, int cols) {{
    return (y < 0 || y >= rows || x < 0 || x >= cols) ? ({ctype})0 : a[y * cols + x];
}}

__global__ void step(const {ctype}* __restrict__ in, {ctype}* __restrict__ out, int rows, int cols) {{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
{load}    if (x < cols && y < rows) {{
        {ctype} acc = 0;
{terms}
        out[y * cols + x] = acc;
    }}
}}
{MAIN_START}    const int rows = {rows}, cols = {cols}, n = rows * cols;
{device_array("in", ctype, "n", init)}{device_array("out", ctype, "n", None)}
    dim3 block({bx}, {by});
    dim3 grid((cols + {bx} - 1) / {bx}, (rows + {by} - 1) / {by});
    for (int s = 0; s < {steps}; ++s) {{
        step<<<grid, block>>>(s % 2 ? d_out : d_in, s % 2 ? d_in : d_out, rows, cols);
        CHECK(cudaGetLastError());
    }}
{finish_launch()}    CHECK(cudaMemcpy(h_out, {"d_out" if steps % 2 else "d_in"}, n * sizeof({ctype}), cudaMemcpyDeviceToHost));
    {ctype}* cur = ({ctype}*)malloc(n * sizeof({ctype}));
    {ctype}* nxt = ({ctype}*)malloc(n * sizeof({ctype}));
    for (int i = 0; i < n; ++i) cur[i] = h_in[i];
    int bad = 0;
    for (int s = 0; s < {steps}; ++s) {{
        for (int y = 0; y < rows; ++y)
            for (int x = 0; x < cols; ++x) {{
                int i = y * cols + x;
                double want = 0.0, wabs = 0.0;
{host_terms}
                nxt[i] = ({ctype})want;
                (void)wabs;
                if (s == {steps - 1}) {{
{cmp}
                }}
            }}
        {ctype}* t = cur; cur = nxt; nxt = t;
    }}
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); free(h_in); free(h_out); free(cur); free(nxt);
{MAIN_END}"""
