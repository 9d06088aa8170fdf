"""Launch shapes: 3D grids of 3D blocks covering a volume (with or without grid-stride loops
in every dimension) and dynamic shared memory sized at launch. Each thread writes an integer
hash of its coordinates and input; the CPU recomputes it exactly."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, device_array, fetch, finish_launch, prelude, report_bad

BLOCKS_3D = ((32, 1, 1), (8, 8, 1), (4, 4, 4), (16, 8, 2), (32, 4, 8), (64, 2, 2), (8, 8, 8), (32, 32, 1), (1024, 1, 1),
             (2, 16, 16))


def generate(rng: random.Random) -> str:
    bx, by, bz = rng.choice(BLOCKS_3D)
    nx, ny, nz = rng.randint(1, 200), rng.randint(1, 60), rng.randint(1, 20)
    stride = rng.random() < 0.5
    if stride:
        grid = tuple(rng.randint(1, 4) for _ in range(3))
        loop = """    for (int z = blockIdx.z * blockDim.z + threadIdx.z; z < nz; z += blockDim.z * gridDim.z)
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < ny; y += blockDim.y * gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < nx; x += blockDim.x * gridDim.x) {"""
        grid_text = f"dim3 grid({grid[0]}, {grid[1]}, {grid[2]});"
    else:
        loop = """    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) {"""
        grid_text = f"dim3 grid((nx + {bx} - 1) / {bx}, (ny + {by} - 1) / {by}, (nz + {bz} - 1) / {bz});"
    mul = [rng.randrange(1, 1 << 31) | 1 for _ in range(3)]
    rev_block = rng.choice((32, 64, 128, 256, 512, 1024))
    return f"""{prelude(rng)}
// launch: block {bx}x{by}x{bz}, volume {nx}x{ny}x{nz}, {"grid-stride" if stride else "one thread an element"}; dynamic shared reverse, block {rev_block}
__host__ __device__ inline unsigned mix(int x, int y, int z, unsigned v) {{
    return ((unsigned)x * {mul[0]}u) ^ ((unsigned)y * {mul[1]}u) ^ ((unsigned)z * {mul[2]}u) ^ (v + (v << 7));
}}

__global__ void volume(const unsigned* __restrict__ in, unsigned* __restrict__ out, int nx, int ny, int nz) {{
{loop}
        int i = (z * ny + y) * nx + x;
        out[i] = mix(x, y, z, in[i]);
    }}
}}

// Reverses each block's slice through dynamic shared memory sized at launch.
__global__ void reverse_blocks(const unsigned* __restrict__ in, unsigned* __restrict__ out, int n) {{
    extern __shared__ unsigned s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0u;
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - threadIdx.x);
    if (j < n) out[j] = s[threadIdx.x];
}}
{MAIN_START}    const int nx = {nx}, ny = {ny}, nz = {nz}, n = nx * ny * nz;
{device_array("in", "unsigned", "n", "lcg_next()")}{device_array("out", "unsigned", "n", None)}{device_array("rev", "unsigned", "n", None)}
    dim3 block({bx}, {by}, {bz});
    {grid_text}
    volume<<<grid, block>>>(d_in, d_out, nx, ny, nz);
{finish_launch()}    reverse_blocks<<<(n + {rev_block} - 1) / {rev_block}, {rev_block}, {rev_block} * sizeof(unsigned)>>>(d_in, d_rev, n);
{finish_launch()}{fetch("out", "unsigned", "n")}{fetch("rev", "unsigned", "n")}
    int bad = 0;
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) {{
                int i = (z * ny + y) * nx + x;
                unsigned want = mix(x, y, z, h_in[i]);
                if (h_out[i] != want) {{
    {report_bad("i", "h_out[i]", "want").strip()}
                }}
            }}
    for (int j = 0; j < n; ++j) {{
        int b = j / {rev_block}, t = {rev_block} - 1 - j % {rev_block};
        int src = b * {rev_block} + t;
        unsigned want = src < n ? h_in[src] : 0u;
        if (h_rev[j] != want) {{
    {report_bad("j", "h_rev[j]", "want").strip()}
        }}
    }}
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); CHECK(cudaFree(d_rev)); free(h_in); free(h_out); free(h_rev);
{MAIN_END}"""
