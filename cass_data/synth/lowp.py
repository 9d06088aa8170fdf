"""Half and bfloat16 arithmetic: `__half` (cuda_fp16.h) scalar and `__half2` paired intrinsics, and
`__nv_bfloat16` (cuda_bf16.h), each rounding once to nearest even. Inputs are multiples of 1/16
in [-8, 8] (exact in both formats), so every exact sum, product and fused multiply-add fits a
double; the CPU rounds that to the format with bit operations of its own and compares the bits."""
from __future__ import annotations

import random

from .common import MAIN_END, MAIN_START, finish_launch, pick_block, prelude, report_bad

# name -> (element type, the device statement writing `o` from loaded a, b, c, and the exact value
# in double of the host check, from da, db, dc)
OPS = {
    "h_add": ("__half", "o = __hadd(a, b);", "da + db"),
    "h_sub": ("__half", "o = __hsub(a, b);", "da - db"),
    "h_mul": ("__half", "o = __hmul(a, b);", "da * db"),
    "h_fma": ("__half", "o = __hfma(a, b, c);", "da * db + dc"),
    "h_neg_mul": ("__half", "o = __hneg(__hmul(a, b));", "-(da * db)"),
    "h2_add": ("__half2", "o = __hadd2(a, b);", "da + db"),
    "h2_mul": ("__half2", "o = __hmul2(a, b);", "da * db"),
    "h2_fma": ("__half2", "o = __hfma2(a, b, c);", "da * db + dc"),
    "bf_add": ("__nv_bfloat16", "o = __float2bfloat16_rn(__bfloat162float(a) + __bfloat162float(b));", "da + db"),
    "bf_mul": ("__nv_bfloat16", "o = __float2bfloat16_rn(__bfloat162float(a) * __bfloat162float(b));", "da * db"),
    "bf_fma": ("__nv_bfloat16", "o = __float2bfloat16_rn(fmaf(__bfloat162float(a), __bfloat162float(b), "
                                "__bfloat162float(c)));", "da * db + dc"),
}
# element type -> (bits of the mantissa kept, exponent bias, how the device makes it from a float)
FORMATS = {"__half": (10, 15, "__float2half_rn"), "__nv_bfloat16": (7, 127, "__float2bfloat16_rn")}

# Round an exact double to the format's bits, to nearest even; finite, normal results only (the
# inputs keep every result in range: |x| <= 72, and no nonzero result under 2^-8).
HOST_ROUND = r"""static unsigned short round_bits(double x, int mant, int bias) {
    unsigned short sign = std::signbit(x) ? (unsigned short)(1u << 15) : 0;  // -0 too
    x = std::fabs(x);
    if (x == 0.0) return sign;
    int e;
    std::frexp(x, &e);  // x = f * 2^e, f in [0.5, 1)
    e -= 1;             // x = g * 2^e, g in [1, 2)
    double q = std::nearbyint(std::ldexp(x, mant - e));  // the kept bits, rounded to nearest even
    if (q >= std::ldexp(1.0, mant + 1)) { q /= 2; e += 1; }
    return (unsigned short)(sign | ((unsigned)(e + bias) << mant) | ((unsigned)q - (1u << mant)));
}
"""


def generate(rng: random.Random) -> str:
    ops = rng.sample(sorted(OPS), rng.randint(1, 3))
    block = pick_block(rng, 32, 512)
    n = rng.randint(1, 1 << rng.randint(6, 16))
    kernels, launches, checks, frees = [], [], [], []
    for k, op in enumerate(ops):
        etype, dev, exact = OPS[op]
        pair = etype == "__half2"
        scalar = "__half" if pair else etype
        mant, bias, from_float = FORMATS[scalar]
        count = "n * 2" if pair else "n"
        load = [f"{etype} {x} = __floats2half2_rn({x}_in[2 * i], {x}_in[2 * i + 1]);" if pair else
                f"{etype} {x} = {from_float}({x}_in[i]);" for x in "abc"]
        kernels.append(f"""__global__ void {op}(const float* __restrict__ a_in, const float* __restrict__ b_in,
                     const float* __restrict__ c_in, {etype}* __restrict__ out, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    {(chr(10) + "    ").join(load)}
    {etype} o;
    {dev}
    out[i] = o;
}}""")
        launches.append(f"""    {etype}* d_out{k};
    CHECK(cudaMalloc(&d_out{k}, n * sizeof({etype})));
    {op}<<<(n + {block} - 1) / {block}, {block}>>>(d_a, d_b, d_c, d_out{k}, n);
{finish_launch()}    unsigned short* h_out{k} = (unsigned short*)malloc(({count}) * sizeof(unsigned short));
    CHECK(cudaMemcpy(h_out{k}, d_out{k}, ({count}) * sizeof(unsigned short), cudaMemcpyDeviceToHost));
""")
        checks.append(f"""    for (int j = 0; j < {count}; ++j) {{
        double da = h_a[j], db = h_b[j], dc = h_c[j];
        unsigned short want = round_bits({exact}, {mant}, {bias});
        if (h_out{k}[j] != want) {{
    {report_bad("j", f"h_out{k}[j]", "want").strip()}
        }}
    }}""")
        frees.append(f"CHECK(cudaFree(d_out{k})); free(h_out{k});")
    arrays = "".join(f"""    float* h_{x} = (float*)malloc(2 * n * sizeof(float));
    for (int j = 0; j < 2 * n; ++j) h_{x}[j] = (float)lcg_int(-128, 128) / 16.0f;
    float* d_{x};
    CHECK(cudaMalloc(&d_{x}, 2 * n * sizeof(float)));
    CHECK(cudaMemcpy(d_{x}, h_{x}, 2 * n * sizeof(float), cudaMemcpyHostToDevice));
""" for x in "abc")
    kernel_text = "\n\n".join(kernels)
    return f"""{prelude(rng, ("cuda_fp16.h", "cuda_bf16.h"))}
// lowp: {", ".join(ops)}; block {block}
{HOST_ROUND}
{kernel_text}
{MAIN_START}    const int n = {n};
{arrays}{"".join(launches)}    int bad = 0;
{chr(10).join(checks)}
    CHECK(cudaFree(d_a)); CHECK(cudaFree(d_b)); CHECK(cudaFree(d_c)); free(h_a); free(h_b); free(h_c);
    {" ".join(frees)}
{MAIN_END}"""
