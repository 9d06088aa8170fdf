"""Warp-level primitives: __shfl_xor_sync butterflies, __shfl_sync with widths, __shfl_up/down,
__ballot_sync with __popc (counts and in-warp ranks), __any_sync/__all_sync. Launches cover
whole warps so every mask is full; results are integers (or float max) compared exactly
against a per-warp emulation on the CPU."""
from __future__ import annotations

import random

from .common import int_check, int_kernel, int_launch, int_main, pick_block, prelude

# name -> (device statement computing `r` from `v` and `lane`, host statement computing `r`
# from warp array `w` (32 values) and `lane`)
OPS = {
    "xor_sum": ("for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL, v, off); r = v;",
                "r = 0; for (int q = 0; q < 32; ++q) r += w[q];"),
    "xor_max": ("for (int off = 16; off > 0; off >>= 1) { int o = __shfl_xor_sync(FULL, v, off); v = o > v ? o : v; } r = v;",
                "r = w[0]; for (int q = 1; q < 32; ++q) r = w[q] > r ? w[q] : r;"),
    "ballot_count": ("r = __popc(__ballot_sync(FULL, v > THRESH));",
                     "r = 0; for (int q = 0; q < 32; ++q) r += w[q] > THRESH;"),
    "ballot_rank": ("r = __popc(__ballot_sync(FULL, v > THRESH) & ((1u << lane) - 1u));",
                    "r = 0; for (int q = 0; q < lane; ++q) r += w[q] > THRESH;"),
    "any_all": ("r = __any_sync(FULL, v > THRESH) * 2 + __all_sync(FULL, v > -THRESH);",
                "int a = 0, b = 1; for (int q = 0; q < 32; ++q) { a |= w[q] > THRESH; b &= w[q] > -THRESH; } r = a * 2 + b;"),
    "shfl_width": ("r = __shfl_sync(FULL, v, SRC, WIDTH);",
                   "r = w[(lane / WIDTH) * WIDTH + SRC % WIDTH];"),
    "shfl_rotate": ("r = __shfl_sync(FULL, v, (lane + SRC) & 31);",
                    "r = w[(lane + SRC) & 31];"),
    "shfl_up": ("r = __shfl_up_sync(FULL, v, SRC % 16 + 1); if (lane < SRC % 16 + 1) r = -1;",
                "r = lane < SRC % 16 + 1 ? -1 : w[lane - (SRC % 16 + 1)];"),
    "shfl_down": ("r = __shfl_down_sync(FULL, v, SRC % 16 + 1); if (lane + SRC % 16 + 1 > 31) r = -1;",
                  "r = lane + SRC % 16 + 1 > 31 ? -1 : w[lane + SRC % 16 + 1];"),
}


def generate(rng: random.Random) -> str:
    ops = rng.sample(sorted(OPS), rng.randint(1, 3))
    block = pick_block(rng, 32)
    n = rng.randint(1, 1 << rng.randint(8, 18))
    thresh = rng.randint(-900, 900)
    src = rng.randint(0, 31)
    width = rng.choice((2, 4, 8, 16, 32))
    kernels, launches, checks = [], [], []
    for k, op in enumerate(ops):
        dev, ref = OPS[op]
        kernels.append(int_kernel(op, dev, "warps", after="    int lane = threadIdx.x & 31;\n"))
        launches.append(int_launch(k, op, str(block)))
        checks.append(int_check(k, "int lane = i & 31, r;\n        const int* w = h_pad + (i - lane);", ref))
    kernel_text = "\n\n".join(kernels)
    return f"""{prelude(rng)}
// warp: {", ".join(ops)}; block {block}
#define FULL 0xffffffffu
#define THRESH {thresh}
#define SRC {src}
#define WIDTH {width}
{kernel_text}
{int_main(n, "(n + 31) / 32 * 32", "The CPU emulation sees the padded warp: lanes past n hold 0, as in the kernels.",
           launches, checks)}"""
