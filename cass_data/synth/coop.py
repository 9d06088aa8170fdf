"""Cooperative groups: `cg::this_thread_block()`, `cg::tiled_partition<T>` tiles of 4 to 32 lanes,
their shuffles (shfl, shfl_down, shfl_xor), thread_rank/size, meta_group_rank/size, and block
syncs through the group. Launches cover whole tiles (lanes past n hold 0); results are integers
compared exactly against a per-tile emulation on the CPU."""
from __future__ import annotations

import random

from .common import int_check, int_kernel, int_launch, int_main, pick_block, prelude

# name -> (device statements computing `r` from `v`, `tile`, `block`; host statement computing `r`
# from the tile's values `w` (TILE of them), the lane `lane` and the block's values `blk`)
OPS = {
    "tile_sum": ("for (int off = tile.size() / 2; off > 0; off /= 2) v += tile.shfl_down(v, off);\n"
                 "    r = tile.shfl(v, 0);",
                 "r = 0; for (int q = 0; q < TILE; ++q) r += w[q];"),
    "tile_xor_max": ("for (int off = 1; off < TILE; off *= 2) { int o = tile.shfl_xor(v, off); v = o > v ? o : v; }\n"
                     "    r = v;",
                     "r = w[0]; for (int q = 1; q < TILE; ++q) r = w[q] > r ? w[q] : r;"),
    "tile_bcast": ("r = tile.shfl(v, SRC % TILE) - (int)tile.thread_rank();",
                   "r = w[SRC % TILE] - lane;"),
    "tile_index": ("r = (int)(tile.meta_group_rank() * 1000 + tile.meta_group_size()) + v % 7;",
                   "r = (int)((local / TILE) * 1000 + BLOCK / TILE) + blk_v % 7;"),
    "block_sum": ("s[block.thread_rank()] = v;\n    block.sync();\n"
                  "    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {\n"
                  "        if ((int)block.thread_rank() < stride) s[block.thread_rank()] += s[block.thread_rank() + stride];\n"
                  "        block.sync();\n    }\n    r = s[0] - v;",
                  "r = -blk_v; for (int q = 0; q < BLOCK; ++q) r += blk[q];"),
}
# what a host statement may read besides `local`, `lane`: declared where it does
HOST_NAMES = (("w[", "const int* w = h_pad + (i - lane);"), ("blk[", "const int* blk = h_pad + (i - local);"),
              ("blk_v", "int blk_v = h_pad[i];"))


def generate(rng: random.Random) -> str:
    ops = rng.sample(sorted(OPS), rng.randint(1, 3))
    tile = rng.choice((4, 8, 16, 32))
    block = pick_block(rng, 32, 512)
    n = rng.randint(1, 1 << rng.randint(8, 17))
    src = rng.randint(0, 31)
    kernels, launches, checks = [], [], []
    for k, op in enumerate(ops):
        dev, ref = OPS[op]
        shared = "    __shared__ int s[BLOCK];\n" if op == "block_sum" else ""
        groups = ("    cg::thread_block block = cg::this_thread_block();\n"
                  "    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);\n")
        kernels.append(int_kernel(op, dev, "blocks", before=shared + groups))
        launches.append(int_launch(k, op, "BLOCK"))
        needs = "".join(f"\n        {decl}" for name, decl in HOST_NAMES if name in ref)
        checks.append(int_check(k, f"int local = i % BLOCK, lane = local % TILE, r;{needs}", ref))
    kernel_text = "\n\n".join(kernels)
    return f"""{prelude(rng, ("cooperative_groups.h",))}
namespace cg = cooperative_groups;
// coop: {", ".join(ops)}; tiles of {tile}, block {block}
#define TILE {tile}
#define BLOCK {block}
#define SRC {src}
{kernel_text}
{int_main(n, "(n + BLOCK - 1) / BLOCK * BLOCK",
           "The CPU emulation sees whole blocks: threads past n hold 0, as in the kernels.", launches, checks)}"""
