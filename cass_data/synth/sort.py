"""Bitonic sort of fixed-size segments, one segment per block in shared memory, ascending or
descending; each segment is checked against std::sort."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, device_array, fetch, finish_launch, prelude, report_bad

TYPES = {
    "float": ("float", "(float)lcg_real(-100.0, 100.0)", "3.0e38f", "-3.0e38f"),
    "double": ("double", "lcg_real(-100.0, 100.0)", "1.0e308", "-1.0e308"),
    "int": ("int", "lcg_int(-100000, 100000)", "2147483647", "(-2147483647 - 1)"),
    "unsigned": ("unsigned", "lcg_next()", "0xffffffffu", "0u"),
    "int64": ("long long", "(long long)lcg_int(-1000000, 1000000) * 1000003", "9223372036854775807LL",
              "(-9223372036854775807LL - 1)"),
}


def generate(rng: random.Random) -> str:
    etype = rng.choice(tuple(TYPES))
    ctype, init, top, bottom = TYPES[etype]
    wide = ctype in ("double", "long long")
    seg = rng.choice([s for s in (32, 64, 128, 256, 512, 1024, 2048) if s <= (1024 if wide else 2048)])
    threads = rng.choice([t for t in (32, 64, 128, 256, 512, 1024) if t <= seg])
    ascending = rng.random() < 0.6
    pad = top if ascending else bottom
    n = rng.randint(1, seg * rng.choice((1, 3, 17, 100)))
    cmp = "<" if ascending else ">"
    return f"""{prelude(rng)}
#include <algorithm>
#include <functional>
// sort: bitonic, {etype}, segments of {seg}, {threads} threads a block, {"ascending" if ascending else "descending"}
#define SEG {seg}
__global__ void bitonic(const {ctype}* __restrict__ in, {ctype}* __restrict__ out, int n) {{
    __shared__ {ctype} s[SEG];
    int base = blockIdx.x * SEG;
    for (int i = threadIdx.x; i < SEG; i += blockDim.x) s[i] = base + i < n ? in[base + i] : ({ctype}){pad};
    __syncthreads();
    for (int k = 2; k <= SEG; k <<= 1) {{
        for (int j = k >> 1; j > 0; j >>= 1) {{
            for (int i = threadIdx.x; i < SEG; i += blockDim.x) {{
                int p = i ^ j;
                if (p > i) {{
                    bool up = ((i & k) == 0) == {"true" if ascending else "false"};
                    {ctype} a = s[i], b = s[p];
                    if ((a > b) == up) {{ s[i] = b; s[p] = a; }}
                }}
            }}
            __syncthreads();
        }}
    }}
    for (int i = threadIdx.x; i < SEG; i += blockDim.x)
        if (base + i < n) out[base + i] = s[i];
}}
{MAIN_START}    const int n = {n};
{device_array("in", ctype, "n", init)}{device_array("out", ctype, "n", None)}
    bitonic<<<(n + SEG - 1) / SEG, {threads}>>>(d_in, d_out, n);
{finish_launch()}{fetch("out", ctype, "n")}
    {ctype}* want = ({ctype}*)malloc(n * sizeof({ctype}));
    for (int i = 0; i < n; ++i) want[i] = h_in[i];
    for (int b = 0; b < n; b += SEG)
        std::sort(want + b, want + std::min(n, b + SEG), [](const {ctype}& x, const {ctype}& y) {{ return x {cmp} y; }});
    int bad = 0;
    for (int i = 0; i < n; ++i)
        if (h_out[i] != want[i]) {{
    {report_bad("i", "h_out[i]", "want[i]").strip()}
        }}
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); free(h_in); free(h_out); free(want);
{MAIN_END}"""
