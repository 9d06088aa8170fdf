"""Streams, events and pinned memory: an array in page-locked host memory (`cudaMallocHost` or
`cudaHostAlloc`) goes through the device in chunks, each on its own stream (`cudaMemcpyAsync`,
kernels launched on the stream); a second kernel on the next stream waits for the first through
an event (`cudaStreamWaitEvent`); timing events bracket the whole. Integer results are checked
exactly; the elapsed time only for being a number at least 0."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, prelude, report_bad

ALLOCS = {
    "cudaMallocHost": "CHECK(cudaMallocHost(&{name}, {bytes}));",
    "cudaHostAlloc": "CHECK(cudaHostAlloc(&{name}, {bytes}, cudaHostAllocDefault));",
}
STREAM_FLAGS = ("cudaStreamCreate(&streams[k])", "cudaStreamCreateWithFlags(&streams[k], cudaStreamNonBlocking)")
SYNCS = {"cudaDeviceSynchronize": "CHECK(cudaDeviceSynchronize());",
         "cudaStreamSynchronize": "for (int k = 0; k < NSTREAMS; ++k) CHECK(cudaStreamSynchronize(streams[k]));",
         "cudaEventSynchronize": "CHECK(cudaEventSynchronize(stop));"}


def generate(rng: random.Random) -> str:
    streams = rng.randint(2, 8)
    chunks = streams * rng.randint(1, 4)
    n = chunks * rng.randint(1, 1 << rng.randint(6, 14))
    block = rng.choice((64, 128, 256, 512))
    alloc = rng.choice(sorted(ALLOCS))
    create = rng.choice(STREAM_FLAGS)
    sync = rng.choice(sorted(SYNCS))
    mul, add = rng.randrange(1, 1 << 31) | 1, rng.randrange(1 << 31)
    shift = rng.randint(1, 15)
    allocs = "\n    ".join(ALLOCS[alloc].format(name=name, bytes="n * sizeof(unsigned)") for name in ("h_in", "h_out"))
    return f"""{prelude(rng)}
// streams: {streams} streams, {chunks} chunks, {alloc}, {create.split("(")[0]}; then {sync}
#define NSTREAMS {streams}
#define NCHUNKS {chunks}

__global__ void stage1(unsigned* x, int len) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len) x[i] = x[i] * {mul}u + {add}u;
}}

// Runs on another stream than stage1 of its chunk: ordered after it by an event only.
__global__ void stage2(unsigned* x, int len) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len) x[i] ^= x[i] >> {shift};
}}
{MAIN_START}    const int n = {n}, per = n / NCHUNKS;
    unsigned *h_in, *h_out, *d;
    {allocs}
    for (int i = 0; i < n; ++i) {{ h_in[i] = lcg_next(); h_out[i] = 0; }}
    CHECK(cudaMalloc(&d, n * sizeof(unsigned)));
    cudaStream_t streams[NSTREAMS];
    cudaEvent_t ready[NCHUNKS], start, stop;
    for (int k = 0; k < NSTREAMS; ++k) CHECK({create});
    for (int c = 0; c < NCHUNKS; ++c) CHECK(cudaEventCreateWithFlags(&ready[c], cudaEventDisableTiming));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    for (int c = 0; c < NCHUNKS; ++c) {{
        cudaStream_t s = streams[c % NSTREAMS], next = streams[(c + 1) % NSTREAMS];
        unsigned* chunk = d + c * per;
        CHECK(cudaMemcpyAsync(chunk, h_in + c * per, per * sizeof(unsigned), cudaMemcpyHostToDevice, s));
        stage1<<<(per + {block} - 1) / {block}, {block}, 0, s>>>(chunk, per);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(ready[c], s));
        CHECK(cudaStreamWaitEvent(next, ready[c], 0));
        stage2<<<(per + {block} - 1) / {block}, {block}, 0, next>>>(chunk, per);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(h_out + c * per, chunk, per * sizeof(unsigned), cudaMemcpyDeviceToHost, next));
    }}
    // the legacy default stream waits for the blocking streams; the non-blocking ones are joined here
    for (int k = 0; k < NSTREAMS; ++k) {{
        cudaEvent_t joined;
        CHECK(cudaEventCreateWithFlags(&joined, cudaEventDisableTiming));
        CHECK(cudaEventRecord(joined, streams[k]));
        CHECK(cudaStreamWaitEvent(0, joined, 0));
        CHECK(cudaEventDestroy(joined));
    }}
    CHECK(cudaEventRecord(stop, 0));
    {SYNCS[sync]}
    CHECK(cudaDeviceSynchronize());
    float ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    int bad = 0;
    if (!(ms >= 0.0f)) {{ bad = 1; fprintf(stderr, "elapsed time %g ms\\n", (double)ms); }}
    for (int i = 0; i < n; ++i) {{
        unsigned want = h_in[i] * {mul}u + {add}u;
        want ^= want >> {shift};
        if (h_out[i] != want) {{
    {report_bad("i", "h_out[i]", "want").strip()}
        }}
    }}
    for (int k = 0; k < NSTREAMS; ++k) CHECK(cudaStreamDestroy(streams[k]));
    for (int c = 0; c < NCHUNKS; ++c) CHECK(cudaEventDestroy(ready[c]));
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d)); CHECK(cudaFreeHost(h_in)); CHECK(cudaFreeHost(h_out));
{MAIN_END}"""
