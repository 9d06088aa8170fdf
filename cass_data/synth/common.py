"""Pieces every synthesized program shares: the prelude (includes, error checks, an LCG for
input data, tolerance helpers), the host `main` frame, and small random choices.

A generator never reads global state: it gets a `random.Random` seeded from (seed, index)
and returns the program's text.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

BLOCK_SIZES = (32, 64, 128, 256, 512, 1024)

# C spellings per element type: (storage type, compute type, printf cast, epsilon of the compute type).
FLOAT_EPS = {"float": "1.1920929e-07", "double": "2.220446049250313e-16"}

PRELUDE = r"""#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
%(extra_includes)s#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %%s at line %%d: %%s\n", cudaGetErrorName(err_), __LINE__, cudaGetErrorString(err_)); \
    printf("FAIL\n"); exit(1); } } while (0)

static uint32_t lcg_state = %(lcg_seed)du;
static inline uint32_t lcg_next() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state >> 8; }
// Uniform in [lo, hi), 24 random bits: exactly representable in float.
static inline double lcg_real(double lo, double hi) { return lo + (hi - lo) * (double)lcg_next() / 16777216.0; }
static inline int lcg_int(int lo, int hi) { return lo + (int)(lcg_next() %% (uint32_t)(hi - lo + 1)); }
static inline bool close_enough(double got, double want, double tol) {
    if (got == want) return true;
    if (std::isnan(got) || std::isnan(want)) return false;
    return std::fabs(got - want) <= tol;
}
"""

MAIN_START = r"""
int main() {
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) { printf("SKIP: no CUDA device\n"); return 2; }
"""

MAIN_END = r"""    if (bad) { printf("FAIL\n"); return 1; }
    printf("PASS\n");
    return 0;
}
"""

REPORT_BAD = r"""            if (bad++ < 5) fprintf(stderr, "mismatch at %%d: got %%.17g want %%.17g\n", (int)(%(i)s), (double)(%(got)s), (double)(%(want)s));"""


@dataclass(frozen=True)
class Program:
    domain: str
    seed: str
    index: int
    source: str


def prelude(rng: random.Random, extra_includes: tuple[str, ...] = ()) -> str:
    inc = "".join(f"#include <{h}>\n" for h in extra_includes)
    return PRELUDE % {"extra_includes": inc, "lcg_seed": rng.randrange(1, 2**31)}


def report_bad(i: str, got: str, want: str) -> str:
    return REPORT_BAD % {"i": i, "got": got, "want": want}


def pick_block(rng: random.Random, lo: int = 32, hi: int = 1024) -> int:
    return rng.choice([b for b in BLOCK_SIZES if lo <= b <= hi])


def pow2_at_most(n: int) -> int:
    p = 1
    while p * 2 <= n:
        p *= 2
    return p


def ctype_literal(value: float, ctype: str) -> str:
    """A literal of `ctype` with a value that is exact in float (value has few significant bits)."""
    if ctype == "double":
        return repr(float(value))
    return repr(float(value)) + "f"


def indent(text: str, n: int) -> str:
    pad = " " * n
    return "".join(pad + line if line.strip() else line for line in text.splitlines(True))


# Element types of the non-expression domains: storage type, LCG expression for one input,
# whether results compare exactly, and the type's epsilon (floats).
SCALARS = {
    "float": ("float", "(float)lcg_real(-4.0, 4.0)", False, "1.1920929e-07"),
    "double": ("double", "lcg_real(-4.0, 4.0)", False, "2.220446049250313e-16"),
    "int": ("int", "lcg_int(-1000, 1000)", True, ""),
    "int64": ("long long", "(long long)lcg_int(-1000000, 1000000) * 4096", True, ""),
}


def device_array(name: str, ctype: str, count: str, init: str | None) -> str:
    """Host array h_<name> (filled by `init` per i, or zeroed) and device copy d_<name>."""
    fill = f"    for (int i = 0; i < {count}; ++i) h_{name}[i] = {init};\n" if init else \
        f"    for (int i = 0; i < {count}; ++i) h_{name}[i] = 0;\n"
    return (f"    {ctype}* h_{name} = ({ctype}*)malloc(({count}) * sizeof({ctype}));\n{fill}"
            f"    {ctype}* d_{name};\n"
            f"    CHECK(cudaMalloc(&d_{name}, ({count}) * sizeof({ctype})));\n"
            f"    CHECK(cudaMemcpy(d_{name}, h_{name}, ({count}) * sizeof({ctype}), cudaMemcpyHostToDevice));\n")


def fetch(name: str, ctype: str, count: str) -> str:
    return f"    CHECK(cudaMemcpy(h_{name}, d_{name}, ({count}) * sizeof({ctype}), cudaMemcpyDeviceToHost));\n"


def finish_launch() -> str:
    return "    CHECK(cudaGetLastError());\n    CHECK(cudaDeviceSynchronize());\n"


# ---- per-element integer ops over whole groups (warp.py, coop.py) ------------------------------
# One int in and one int out an element, a kernel per op; the grid covers n rounded up to whole
# groups (warps, blocks), threads past n read 0, and the CPU emulates each group from the input
# padded with zeros (h_pad).

def int_kernel(name: str, body: str, covers: str, before: str = "", after: str = "") -> str:
    """Kernel `name(in, out, n)`: `before` and `after` the index line, then `body` computes r from v."""
    return f"""__global__ void {name}(const int* __restrict__ in, int* __restrict__ out, int n) {{
{before}    int i = blockIdx.x * blockDim.x + threadIdx.x;  // whole {covers} run: the grid covers n rounded up
{after}    int v = i < n ? in[i] : 0;
    int r;
    {body}
    if (i < n) out[i] = r;
}}"""


def int_check(k: int, decls: str, ref: str) -> str:
    """The host loop comparing h_out<k> with `ref`, which computes r for element i after `decls`."""
    return f"""    for (int i = 0; i < n; ++i) {{
        {decls}
        {ref}
        if (h_out{k}[i] != r) {{
    {report_bad("i", f"h_out{k}[i]", "r").strip()}
        }}
    }}"""


def int_launch(k: int, op: str, block: str) -> str:
    return f"""    {op}<<<(n + {block} - 1) / {block}, {block}>>>(d_in, d_out{k}, n);
{finish_launch()}{fetch(f"out{k}", "int", "n")}"""


def int_main(n: int, padded: str, why: str, launches: list[str], checks: list[str]) -> str:
    """main(): the input, an output per launch, h_pad (`padded` elements; `why`: its comment), the checks."""
    arrays = "".join(device_array(f"out{k}", "int", "n", None) for k in range(len(launches)))
    frees = " ".join(f"CHECK(cudaFree(d_out{k})); free(h_out{k});" for k in range(len(launches)))
    return f"""{MAIN_START}    const int n = {n};
{device_array("in", "int", "n", "lcg_int(-1000, 1000)")}{arrays}
    // {why}
    const int padded = {padded};
    int* h_pad = (int*)calloc(padded, sizeof(int));
    for (int i = 0; i < n; ++i) h_pad[i] = h_in[i];
{"".join(launches)}    int bad = 0;
{chr(10).join(checks)}
    CHECK(cudaFree(d_in)); free(h_in); free(h_pad); {frees}
{MAIN_END}"""
