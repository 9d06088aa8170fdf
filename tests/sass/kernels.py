"""The CUDA kernels the lifter is tested on, each with a plain-C reference and its launch.

A reference is the body of `void ref_<name>(unsigned gx, gy, gz, bx, by, bz, dyn, void *params)`;
`params` holds the same bytes the kernel gets (CUDA's parameter layout is C's), with
pointers to the reference's own copies of the buffers. References that mirror a float
computation use fmaf where nvcc contracts, so most comparisons are exact.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scalar:
    ty: str  # i32 u32 i64 f32 f64
    value: int | float


@dataclass(frozen=True)
class Buf:
    ty: str
    n: int
    kind: str = "in"  # in, out, inout
    gen: str = "uniform"  # uniform (-1,1), pos (0.1,10), int (-1000,1000), small (0,16), special, bits, wide (f64: any exponent), bf16 / f16x2 (u32: two finite bf16 / fp16), bf16s / f16s (u32: two bf16 / fp16, half of them special)


@dataclass(frozen=True)
class Raw:
    """A by-value struct: its bytes come from `gen`, laid out by the reference's struct."""

    size: int
    align: int
    fill: str  # "bigstruct", "dims"


@dataclass(frozen=True)
class Case:
    name: str
    cuda: str
    ref: str
    args: tuple
    grid: tuple[int, int, int] = (4, 1, 1)
    block: tuple[int, int, int] = (128, 1, 1)
    dyn: int = 0
    rtol: float = 0.0
    static_shared: int = 0
    xfail: str = ""  # why the lifter cannot cover it yet


PRELUDE_CUDA = r"""
#include <cuda_fp8.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
struct Big { float a[32]; int k; double d; };
struct Dims { const int *data; long long size[25], stride[25]; int n; };
__constant__ float coeffs[8] = {0.5f, -1.25f, 2.0f, 3.5f, -0.75f, 1.0f, 0.125f, 4.0f};
"""

PRELUDE_C = r"""
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <limits.h>
#include <fenv.h>
struct Big { float a[32]; int k; double d; };
struct Dims { const int *data; long long size[25], stride[25]; int n; };
static const float coeffs[8] = {0.5f, -1.25f, 2.0f, 3.5f, -0.75f, 1.0f, 0.125f, 4.0f};
#define REF(n) void ref_##n(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned dyn, void *params)
#define FOR_THREADS for (unsigned bz_i = 0; bz_i < gz; bz_i++) for (unsigned by_i = 0; by_i < gy; by_i++) for (unsigned bx_i = 0; bx_i < gx; bx_i++) \
    for (unsigned tz = 0; tz < bz; tz++) for (unsigned ty = 0; ty < by; ty++) for (unsigned tx = 0; tx < bx; tx++)
static int clz32(uint32_t x) { return x ? __builtin_clz(x) : 32; }
static uint32_t brev32(uint32_t x) { uint32_t r = 0; for (int i = 0; i < 32; i++) if (x >> i & 1) r |= 1u << (31 - i); return r; }
/* x op y under a rounding mode: volatile keeps the arithmetic between the fesetround calls */
static double rounded(int mode, int op, double x, double y, double z) {
    volatile double a = x, b = y, c = z, r; fesetround(mode);
    r = op == 0 ? a + b : op == 1 ? a * b : fma(a, b, c); fesetround(FE_TONEAREST); return r; }
static int dp4a(uint32_t a, uint32_t b, int c, int sa, int sb) { for (int k = 0; k < 4; k++) { int x = (a >> 8 * k) & 255, y = (b >> 8 * k) & 255;
    if (sa && x > 127) x -= 256; if (sb && y > 127) y -= 256; c += x * y; } return c; }
static float bf16r(float x) { uint32_t u; memcpy(&u, &x, 4); u = (u + 0x7fff + ((u >> 16) & 1)) & 0xffff0000u; memcpy(&x, &u, 4); return x; }
/* bf16 a*b+c rounded once: fma toward zero in double, then to float toward zero, the
   inexact flag making it round-to-odd; float -> bf16 by nearest is then a single rounding. */
static uint32_t bf16_fma(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t ua = a << 16, ub = b << 16, uc = c << 16; float fa, fb, fc; memcpy(&fa, &ua, 4); memcpy(&fb, &ub, 4); memcpy(&fc, &uc, 4);
    volatile double da = fa, db = fb, dc = fc; feclearexcept(FE_ALL_EXCEPT); fesetround(FE_TOWARDZERO);
    volatile double r = fma(da, db, dc); volatile float t = (float)r; int inexact = fetestexcept(FE_INEXACT); fesetround(FE_TONEAREST);
    float tf = t; uint32_t u; memcpy(&u, &tf, 4); if (isnan(tf)) return 0x7fff; if (inexact) u |= 1;
    return (u + 0x7fff + ((u >> 16) & 1)) >> 16; }
static _Float16 hfma(_Float16 a, _Float16 b, _Float16 c) { return (_Float16)fma((double)a, (double)b, (double)c); }
/* fp8 by search: the nearest of all finite codes, ties to the even code; saturating, NaN 0x7F */
static float fp8_value(int c, int e4) { int e = e4 ? (c >> 3) & 15 : (c >> 2) & 31, m = e4 ? c & 7 : c & 3, mb = e4 ? 3 : 2, bias = e4 ? 7 : 15;
    return e ? ldexpf(1.0f + (float)m / (1 << mb), e - bias) : ldexpf((float)m / (1 << mb), 1 - bias); }
static unsigned fp8_nearest(float x, int e4) { if (isnan(x)) return 0x7f; unsigned s = signbit(x) ? 0x80 : 0; float a = fabsf(x);
    int top = e4 ? 0x7e : 0x7b, best = 0; double bd = INFINITY; if (a >= fp8_value(top, e4)) return s | top;
    for (int c = 0; c <= top; c++) { double dd = fabs((double)fp8_value(c, e4) - a); if (dd < bd || (dd == bd && !(c & 1))) { bd = dd; best = c; } }
    return s | best; }
/* a 16-bit lane of a bf16x2 / half2 word as a float; min/max as HMNMX2 computes them: a NaN loses
   to a number, -0 < +0, two NaNs (or with nanp any NaN) give 0x7FFF, otherwise an input's bits */
static float lane16(uint32_t w, int h, int bf) { uint32_t x = w >> 16 * h & 0xffff; float f;
    if (bf) { x <<= 16; memcpy(&f, &x, 4); return f; } _Float16 v; uint16_t u = x; memcpy(&v, &u, 2); return (float)v; }
static uint32_t mnmx16(uint32_t wa, int ha, uint32_t wb, int hb, int bf, int is_min, int nanp) {
    uint32_t a = wa >> 16 * ha & 0xffff, b = wb >> 16 * hb & 0xffff; float fa = lane16(wa, ha, bf), fb = lane16(wb, hb, bf);
    if ((isnan(fa) && isnan(fb)) || (nanp && (isnan(fa) || isnan(fb)))) return 0x7fff; if (isnan(fa)) return b; if (isnan(fb)) return a;
    if (fa == 0.0f && fb == 0.0f) return is_min ? (a | b) : (a & b); return (is_min ? fa < fb : fa > fb) ? a : b; }
/* float -> half (bf = 0) / bfloat16 bits toward zero (mode 0), -inf (1) or +inf (2): the value cut at
   its unit in the last place by trunc/floor/ceil in double, past the largest finite value by the mode */
static uint32_t dround16(float x, int bf, int mode) {
    if (isnan(x)) return 0x7fff; double maxv = bf ? 255.0 * ldexp(1.0, 120) : 65504.0, q; int e;
    if (isinf(x)) q = x; else { frexp(x, &e); e = e - 1 < (bf ? -126 : -14) ? (bf ? -126 : -14) : e - 1; double ulp = ldexp(1.0, e - (bf ? 7 : 10)), s = x / ulp;
      q = (mode == 0 ? trunc(s) : mode == 1 ? floor(s) : ceil(s)) * ulp;
      if (q > maxv) q = mode == 2 ? INFINITY : maxv; if (q < -maxv) q = mode == 1 ? -INFINITY : -maxv; }
    if (bf) { float f = (float)q; uint32_t u; memcpy(&u, &f, 4); return u >> 16; }
    _Float16 h = (_Float16)q; uint16_t u; memcpy(&u, &h, 2); return u; }
/* an integer (its sign, its magnitude) as half (bf = 0) / bfloat16 bits, rounded to nearest even (mode 0),
   toward zero (1), down (2) or up (3); past half's range: infinity or the largest finite value by the mode */
static uint32_t int16r(int neg, uint64_t m, int bf, int mode) {
    int p = bf ? 8 : 11, bias = bf ? 127 : 15, emax = bf ? 127 : 15; uint32_t s = neg ? 0x8000 : 0; uint64_t q;
    if (!m) return 0; int e = 63 - __builtin_clzll(m);
    if (e < p) q = m << (p - 1 - e);
    else { int sh = e - (p - 1); uint64_t rem = m & ((1ull << sh) - 1), half = 1ull << (sh - 1); q = m >> sh;
      q += mode == 0 ? (rem > half || (rem == half && (q & 1))) : mode == 1 ? 0 : mode == 2 ? (neg && rem) : (!neg && rem);
      if (q >> p) { q >>= 1; e++; } }
    if (e > emax) return s | ((mode == 0 || (mode == 2 && neg) || (mode == 3 && !neg)) ? (bf ? 0x7f80u : 0x7c00u) : (bf ? 0x7f7fu : 0x7bffu));
    return s | (uint32_t)(e + bias) << (p - 1) | (uint32_t)(q & ((1u << (p - 1)) - 1)); }
#define I16R(v, bf, mode) int16r((int64_t)(v) < 0, (int64_t)(v) < 0 ? 0 - (uint64_t)(int64_t)(v) : (uint64_t)(int64_t)(v), bf, mode)
#define U16R(v, bf, mode) int16r(0, (uint64_t)(v), bf, mode)
/* a float to an integer by trunc/rint/floor/ceil (mode 0-3), saturating to [lo, hi], NaN 0 */
static double fsat(double f, int mode, double lo, double hi) { if (isnan(f)) return 0;
    f = mode == 0 ? trunc(f) : mode == 1 ? rint(f) : mode == 2 ? floor(f) : ceil(f); return f < lo ? lo : f > hi ? hi : f; }
/* double -> bfloat16 bits by nearest even, rounded once: toward zero to float, the inexact flag making it round-to-odd */
static uint32_t d2bf(double d) { volatile double vd = d; feclearexcept(FE_ALL_EXCEPT); fesetround(FE_TOWARDZERO); volatile float t = (float)vd;
    int inexact = fetestexcept(FE_INEXACT); fesetround(FE_TONEAREST); float tf = t; uint32_t u; memcpy(&u, &tf, 4); if (inexact) u |= 1;
    return (u + 0x7fff + ((u >> 16) & 1)) >> 16; }
static uint32_t h16(float f) { _Float16 h = (_Float16)f; uint16_t u; memcpy(&u, &h, 2); return u; }
/* a half result of .SAT: clamped to [+0, 1] (NaN and -0 to +0), then to half bits */
static uint32_t hsat(double r) { return h16((float)(r > 0 ? (r < 1 ? r : 1) : 0)); }
static float f_min(float a, float b) { return fminf(a, b); }
static float f_max(float a, float b) { return fmaxf(a, b); }
"""

N = 512

CASES: list[Case] = [
    Case(
        "saxpy",
        "__global__ void saxpy(int n, float a, const float* x, float* y) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }",
        "struct P { int n; float a; const float *x; float *y; } *p = params; for (int i = 0; i < p->n; i++) p->y[i] = fmaf(p->a, p->x[i], p->y[i]);",
        (Scalar("i32", 500), Scalar("f32", 2.5), Buf("f32", N), Buf("f32", N, "inout")),
    ),
    Case(
        "vadd_int",
        "__global__ void vadd_int(const int* a, const int* b, int* c, unsigned n) { unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + 3 * b[i] - (a[i] >> 2); }",
        "struct P { const int *a, *b; int *c; unsigned n; } *p = params; for (unsigned i = 0; i < p->n; i++) p->c[i] = p->a[i] + 3 * p->b[i] - (p->a[i] >> 2);",
        (Buf("i32", N, gen="int"), Buf("i32", N, gen="int"), Buf("i32", N, "out"), Scalar("u32", 511)),
    ),
    Case(
        "grid2d",
        """__global__ void grid2d(const float* a, float* out, int w, int h) {
            int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
            if (x < w && y < h) out[y * w + x] = a[y * w + x] * 2.0f + (float)(x - y); }""",
        """struct P { const float *a; float *out; int w, h; } *p = params;
           for (int y = 0; y < p->h; y++) for (int x = 0; x < p->w; x++) p->out[y * p->w + x] = fmaf(p->a[y * p->w + x], 2.0f, (float)(x - y));""",
        (Buf("f32", 40 * 20), Buf("f32", 40 * 20, "out"), Scalar("i32", 40), Scalar("i32", 20)),
        grid=(3, 3, 1), block=(16, 8, 1),
    ),
    Case(
        "block3d",
        """__global__ void block3d(int* out) {
            int b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
            int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
            out[b * blockDim.x * blockDim.y * blockDim.z + t] = threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z + 1000 * blockIdx.x + 10000 * blockIdx.y + 100000 * blockIdx.z; }""",
        """struct P { int *out; } *p = params; FOR_THREADS {
            int b = (bz_i * gy + by_i) * gx + bx_i; int t = (tz * by + ty) * bx + tx;
            p->out[b * bx * by * bz + t] = tx + 10 * ty + 100 * tz + 1000 * bx_i + 10000 * by_i + 100000 * bz_i; }""",
        (Buf("i32", 2 * 3 * 2 * 4 * 2 * 3, "out"),),
        grid=(2, 3, 2), block=(4, 2, 3),
    ),
    Case(
        "reduce_shared",
        """__global__ void reduce_shared(const float* in, float* out, int n) {
            __shared__ float s[256]; int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
            s[t] = i < n ? in[i] : 0.0f; __syncthreads();
            for (int k = blockDim.x / 2; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
            if (t == 0) out[blockIdx.x] = s[0]; }""",
        """struct P { const float *in; float *out; int n; } *p = params; float s[256];
           for (unsigned b = 0; b < gx; b++) { for (unsigned t = 0; t < bx; t++) { int i = b * bx + t; s[t] = i < p->n ? p->in[i] : 0.0f; }
             for (int k = bx / 2; k > 0; k >>= 1) for (int t = 0; t < k; t++) s[t] += s[t + k];
             p->out[b] = s[0]; }""",
        (Buf("f32", N), Buf("f32", 4, "out"), Scalar("i32", 500)),
        block=(128, 1, 1), static_shared=1024,
    ),
    Case(
        "reduce_atomic_int",
        """__global__ void reduce_atomic_int(const int* in, int* out, int n) {
            __shared__ int s; if (threadIdx.x == 0) s = 0; __syncthreads();
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(&s, in[i]); __syncthreads();
            if (threadIdx.x == 0) atomicAdd(out, s); }""",
        "struct P { const int *in; int *out; int n; } *p = params; int s = 0; for (int i = 0; i < p->n; i++) s += p->in[i]; p->out[0] += s;",
        (Buf("i32", N, gen="int"), Buf("i32", 1, "inout", gen="int"), Scalar("i32", 511)),
    ),
    Case(
        "atomic_vote_branch",  # nvcc aggregates each arm's atomic (VOTEU.ANY, POPC, UFLO, one leader's RED): the arms' identical ballots must not be hoisted above the branch (each counts its own lanes)
        """__global__ void atomic_vote_branch(const int* in, unsigned* out) {
            __shared__ unsigned s[2]; if (threadIdx.x < 2) s[threadIdx.x] = 0; __syncthreads();
            int i = blockIdx.x * blockDim.x + threadIdx.x; int v = in[i];
            if (v > 0) atomicAdd(&out[0], 5u); else atomicSub(&out[1], 3u);
            if (v & 4) atomicAdd(&s[0], 7u); else atomicAdd(&s[1], 1u);
            __syncthreads(); if (threadIdx.x < 2) atomicAdd(&out[2 + threadIdx.x], s[threadIdx.x]); }""",
        """struct P { const int *in; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { int v = p->in[i];
             if (v > 0) p->out[0] += 5u; else p->out[1] -= 3u; if (v & 4) p->out[2] += 7u; else p->out[3] += 1u; }""",
        (Buf("i32", N, gen="int"), Buf("u32", 4, "out")),
        xfail="simt.c settles the ballots that both arms reach as one (its fibers do not diverge): checked on gfx1100 in test_emu.py",
    ),
    Case(
        "warp_sum",
        """__global__ void warp_sum(const float* in, float* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; float v = in[i];
            for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
            if ((threadIdx.x & 31) == 0) out[i / 32] = v; }""",
        """struct P { const float *in; float *out; } *p = params; float v[32], nv[32];
           for (unsigned w = 0; w < gx * bx / 32; w++) { for (int l = 0; l < 32; l++) v[l] = p->in[w * 32 + l];
             for (int o = 16; o > 0; o >>= 1) { for (int l = 0; l < 32; l++) nv[l] = v[l] + (l + o < 32 ? v[l + o] : v[l]); memcpy(v, nv, sizeof v); }
             p->out[w] = v[0]; }""",
        (Buf("f32", N), Buf("f32", N // 32, "out")),
    ),
    Case(
        "warp_max_xor",
        """__global__ void warp_max_xor(const int* in, int* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; int v = in[i];
            for (int o = 1; o < 32; o <<= 1) v = max(v, __shfl_xor_sync(0xffffffff, v, o));
            out[i] = v; }""",
        """struct P { const int *in; int *out; } *p = params;
           for (unsigned w = 0; w < gx * bx / 32; w++) { int m = INT_MIN; for (int l = 0; l < 32; l++) if (p->in[w * 32 + l] > m) m = p->in[w * 32 + l];
             for (int l = 0; l < 32; l++) p->out[w * 32 + l] = m; }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, "out")),
    ),
    Case(
        "shfl_idx_width",
        """__global__ void shfl_idx_width(const int* in, int* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = __shfl_sync(0xffffffff, in[i], 3, 16) + __shfl_up_sync(0xffffffff, in[i], 2, 8); }""",
        """struct P { const int *in; int *out; } *p = params;
           for (unsigned i = 0; i < gx * bx; i++) { unsigned l = i % 32, base = i - l; int a = p->in[base + (l / 16) * 16 + 3];
             int b = (l % 8) >= 2 ? p->in[i - 2] : p->in[i]; p->out[i] = a + b; }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, "out")),
    ),
    Case(
        "warp_scan",
        """__global__ void warp_scan(const int* in, int* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; int lane = threadIdx.x & 31; int v = in[i];
            for (int o = 1; o < 32; o <<= 1) { int u = __shfl_up_sync(0xffffffff, v, o); if (lane >= o) v += u; }
            out[i] = v; }""",
        """struct P { const int *in; int *out; } *p = params;
           for (unsigned i = 0; i < gx * bx; i++) { unsigned l = i % 32; int s = 0; for (unsigned j = i - l; j <= i; j++) s += p->in[j]; p->out[i] = s; }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, "out")),
    ),
    Case(
        "vote_ops",
        """__global__ void vote_ops(const int* in, unsigned* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; int v = in[i];
            unsigned b = __ballot_sync(0xffffffff, v > 0);
            int any = __any_sync(0xffffffff, v > 900), all = __all_sync(0xffffffff, v > -990);
            out[i] = b ^ (any << 1) ^ (all << 2) ^ __popc(b) ^ (__activemask() == 0xffffffffu ? 8u : 0u); }""",
        """struct P { const int *in; unsigned *out; } *p = params;
           for (unsigned w = 0; w < gx * bx / 32; w++) { unsigned b = 0; int any = 0, all = 1;
             for (int l = 0; l < 32; l++) { int v = p->in[w * 32 + l]; if (v > 0) b |= 1u << l; any |= v > 900; all &= v > -990; }
             for (int l = 0; l < 32; l++) p->out[w * 32 + l] = b ^ (any << 1) ^ (all << 2) ^ __builtin_popcount(b) ^ 8u; }""",
        (Buf("i32", N, gen="int"), Buf("u32", N, "out")),
    ),
    Case(
        "block_scan",
        """__global__ void block_scan(const int* in, int* out) {
            __shared__ int s[2][128]; int t = threadIdx.x; int cur = 0; s[0][t] = in[blockIdx.x * blockDim.x + t]; __syncthreads();
            for (int o = 1; o < blockDim.x; o <<= 1) { int v = s[cur][t]; if (t >= o) v += s[cur][t - o]; s[cur ^ 1][t] = v; cur ^= 1; __syncthreads(); }
            out[blockIdx.x * blockDim.x + t] = s[cur][t]; }""",
        """struct P { const int *in; int *out; } *p = params;
           for (unsigned b = 0; b < gx; b++) { int s = 0; for (unsigned t = 0; t < bx; t++) { s += p->in[b * bx + t]; p->out[b * bx + t] = s; } }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, "out")),
        static_shared=1024,
    ),
    Case(
        "histogram",
        """__global__ void histogram(const int* in, unsigned* bins, int n) {
            __shared__ unsigned h[16]; if (threadIdx.x < 16) h[threadIdx.x] = 0; __syncthreads();
            for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&h[in[i] & 15], 1u);
            __syncthreads(); if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], h[threadIdx.x]); }""",
        "struct P { const int *in; unsigned *bins; int n; } *p = params; for (int i = 0; i < p->n; i++) p->bins[p->in[i] & 15]++;",
        (Buf("i32", 2000, gen="int"), Buf("u32", 16, "inout", gen="small"), Scalar("i32", 2000)),
        grid=(3, 1, 1), block=(64, 1, 1),
    ),
    Case(
        "matmul_tiled",
        """#define TS 16
        __global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
            __shared__ float As[TS][TS], Bs[TS][TS]; int tx = threadIdx.x, ty = threadIdx.y;
            int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx; float acc = 0.0f;
            for (int t = 0; t < n / TS; t++) { As[ty][tx] = A[row * n + t * TS + tx]; Bs[ty][tx] = B[(t * TS + ty) * n + col]; __syncthreads();
              for (int k = 0; k < TS; k++) acc += As[ty][k] * Bs[k][tx]; __syncthreads(); }
            C[row * n + col] = acc; }""",
        """struct P { const float *A, *B; float *C; int n; } *p = params; int n = p->n;
           for (int r = 0; r < n; r++) for (int c = 0; c < n; c++) { float acc = 0.0f; for (int k = 0; k < n; k++) acc = fmaf(p->A[r * n + k], p->B[k * n + c], acc); p->C[r * n + c] = acc; }""",
        (Buf("f32", 32 * 32), Buf("f32", 32 * 32), Buf("f32", 32 * 32, "out"), Scalar("i32", 32)),
        grid=(2, 2, 1), block=(16, 16, 1), static_shared=2048,
    ),
    Case(
        "stencil1d",
        """__global__ void stencil1d(const int* in, int* out, int n) {
            __shared__ int s[128 + 2]; int g = blockIdx.x * blockDim.x + threadIdx.x; int l = threadIdx.x + 1;
            s[l] = g < n ? in[g] : 0;
            if (threadIdx.x == 0) s[0] = g > 0 ? in[g - 1] : 0;
            if (threadIdx.x == blockDim.x - 1) s[l + 1] = g + 1 < n ? in[g + 1] : 0;
            __syncthreads(); if (g < n) out[g] = s[l - 1] - 2 * s[l] + 3 * s[l + 1]; }""",
        """struct P { const int *in; int *out; int n; } *p = params; for (int g = 0; g < p->n; g++) {
             int a = g > 0 ? p->in[g - 1] : 0, c = g + 1 < p->n ? p->in[g + 1] : 0; p->out[g] = a - 2 * p->in[g] + 3 * c; }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, "out"), Scalar("i32", 500)),
    ),
    Case(
        "stencil2d",
        """__global__ void stencil2d(const float* in, float* out, int w, int h) {
            int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
            if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
              out[y * w + x] = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]) - in[y * w + x]; }""",
        """struct P { const float *in; float *out; int w, h; } *p = params; int w = p->w;
           for (int y = 1; y < p->h - 1; y++) for (int x = 1; x < w - 1; x++)
             p->out[y * w + x] = fmaf(0.25f, p->in[y * w + x - 1] + p->in[y * w + x + 1] + p->in[(y - 1) * w + x] + p->in[(y + 1) * w + x], -p->in[y * w + x]);""",
        (Buf("f32", 32 * 24), Buf("f32", 32 * 24, "inout"), Scalar("i32", 32), Scalar("i32", 24)),
        grid=(2, 3, 1), block=(16, 8, 1), rtol=1e-6,
    ),
    Case(
        "transpose",
        """__global__ void transpose(const float* in, float* out, int w, int h) {
            __shared__ float t[32][33]; int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
            for (int j = 0; j < 32; j += 8) if (x < w && y + j < h) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
            __syncthreads(); x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
            for (int j = 0; j < 32; j += 8) if (x < h && y + j < w) out[(y + j) * h + x] = t[threadIdx.x][threadIdx.y + j]; }""",
        "struct P { const float *in; float *out; int w, h; } *p = params; for (int y = 0; y < p->h; y++) for (int x = 0; x < p->w; x++) p->out[x * p->h + y] = p->in[y * p->w + x];",
        (Buf("f32", 64 * 40), Buf("f32", 64 * 40, "out"), Scalar("i32", 64), Scalar("i32", 40)),
        grid=(2, 2, 1), block=(32, 8, 1), static_shared=32 * 33 * 4,
    ),
    Case(
        "math_funcs",
        """__global__ void math_funcs(const float* x, float* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; float v = x[i];
            out[5 * i] = expf(v); out[5 * i + 1] = logf(fabsf(v) + 0.5f); out[5 * i + 2] = sinf(3.0f * v);
            out[5 * i + 3] = cosf(v * 7.0f); out[5 * i + 4] = tanhf(v) + atanf(v); }""",
        """struct P { const float *x; float *out; int n; } *p = params; for (int i = 0; i < p->n; i++) { float v = p->x[i];
             p->out[5 * i] = expf(v); p->out[5 * i + 1] = logf(fabsf(v) + 0.5f); p->out[5 * i + 2] = sinf(3.0f * v);
             p->out[5 * i + 3] = cosf(v * 7.0f); p->out[5 * i + 4] = tanhf(v) + atanf(v); }""",
        (Buf("f32", N), Buf("f32", 5 * N, "out"), Scalar("i32", N)),
        rtol=2e-6,
    ),
    Case(
        "fast_math",
        """__global__ void fast_math(const float* x, float* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; float v = x[i];
            out[3 * i] = __expf(v); out[3 * i + 1] = __sinf(v) + __cosf(v); out[3 * i + 2] = __fdividef(v, 1.5f + v * v) + __logf(2.0f + v); }""",
        """struct P { const float *x; float *out; int n; } *p = params; for (int i = 0; i < p->n; i++) { float v = p->x[i];
             p->out[3 * i] = expf(v); p->out[3 * i + 1] = sinf(v) + cosf(v); p->out[3 * i + 2] = v / (1.5f + v * v) + logf(2.0f + v); }""",
        (Buf("f32", N), Buf("f32", 3 * N, "out"), Scalar("i32", N)),
        rtol=2e-5,
    ),
    Case(
        "fdiv_sqrt",
        """__global__ void fdiv_sqrt(const float* a, const float* b, float* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { out[2 * i] = a[i] / b[i]; out[2 * i + 1] = sqrtf(fabsf(a[i])) + 1.0f / b[i]; } }""",
        """struct P { const float *a, *b; float *out; int n; } *p = params; for (int i = 0; i < p->n; i++) {
             p->out[2 * i] = p->a[i] / p->b[i]; volatile float s = sqrtf(fabsf(p->a[i])); volatile float r = 1.0f / p->b[i]; p->out[2 * i + 1] = s + r; }""",
        (Buf("f32", N, gen="special"), Buf("f32", N, gen="special"), Buf("f32", 2 * N, "out"), Scalar("i32", N)),
    ),
    Case(
        "fdiv_const",
        """__global__ void fdiv_const(const float* a, float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 2.5f / a[i] + a[i] / 3.7f; }""",
        """struct P { const float *a; float *out; int n; } *p = params; for (int i = 0; i < p->n; i++) { volatile float x = 2.5f / p->a[i]; volatile float y = p->a[i] / 3.7f; p->out[i] = x + y; }""",
        (Buf("f32", N, gen="special"), Buf("f32", N, "out"), Scalar("i32", N)),
    ),
    Case(
        "fp64_ops",
        """__global__ void fp64_ops(const double* a, const double* b, double* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; double x = a[i], y = b[i];
            out[4 * i] = x * y + 1.5; out[4 * i + 1] = x * (y + 3.0) - (double)i; out[4 * i + 2] = (double)(float)x * 0.5; out[4 * i + 3] = fmax(x, y) - fmin(x, 0.25); }""",
        """struct P { const double *a, *b; double *out; int n; } *p = params; for (int i = 0; i < p->n; i++) { double x = p->a[i], y = p->b[i];
             p->out[4 * i] = fma(x, y, 1.5); p->out[4 * i + 1] = fma(x, y + 3.0, -(double)i); p->out[4 * i + 2] = (double)(float)x * 0.5; p->out[4 * i + 3] = fmax(x, y) - fmin(x, 0.25); }""",
        (Buf("f64", N), Buf("f64", N, gen="pos"), Buf("f64", 4 * N, "out"), Scalar("i32", N)),
    ),
    Case(
        "fp64_div",
        """__global__ void fp64_div(const double* a, const double* b, double* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { out[2 * i] = a[i] / (b[i] + 3.0); out[2 * i + 1] = sqrt(fabs(a[i])); } }""",
        """struct P { const double *a, *b; double *out; int n; } *p = params; for (int i = 0; i < p->n; i++) { p->out[2 * i] = p->a[i] / (p->b[i] + 3.0); p->out[2 * i + 1] = sqrt(fabs(p->a[i])); }""",
        (Buf("f64", N), Buf("f64", N, gen="pos"), Buf("f64", 2 * N, "out"), Scalar("i32", N)),
    ),
    Case(
        "fp64_div_edge",
        """__global__ void fp64_div_edge(const double* a, const double* b, double* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { out[3 * i] = a[i] / b[i]; out[3 * i + 1] = sqrt(a[i]); out[3 * i + 2] = 1.0 / b[i]; } }""",
        """struct P { const double *a, *b; double *out; int n; } *p = params; for (int i = 0; i < p->n; i++) {
             p->out[3 * i] = p->a[i] / p->b[i]; p->out[3 * i + 1] = sqrt(p->a[i]); p->out[3 * i + 2] = 1.0 / p->b[i]; }""",
        (Buf("f64", 2048, gen="wide"), Buf("f64", 2048, gen="wide"), Buf("f64", 3 * 2048, "out"), Scalar("i32", 2048)),
        grid=(16, 1, 1),
    ),
    Case(
        "fp64_directed",
        """__global__ void fp64_directed(const double* a, const double* b, const double* c, double* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; double x = a[i], y = b[i], z = c[i];
            out[9 * i] = __dadd_ru(x, y); out[9 * i + 1] = __dadd_rd(x, y); out[9 * i + 2] = __dadd_rz(x, y);
            out[9 * i + 3] = __dmul_ru(x, y); out[9 * i + 4] = __dmul_rd(x, y); out[9 * i + 5] = __dmul_rz(x, y);
            out[9 * i + 6] = __fma_ru(x, y, z); out[9 * i + 7] = __fma_rd(x, y, z); out[9 * i + 8] = __fma_rz(x, y, z); }""",
        """struct P { const double *a, *b, *c; double *out; int n; } *p = params; int modes[3] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
           for (int i = 0; i < p->n; i++) for (int op = 0; op < 3; op++) for (int m = 0; m < 3; m++)
             p->out[9 * i + 3 * op + m] = rounded(modes[m], op, p->a[i], p->b[i], p->c[i]);""",
        (Buf("f64", N, gen="wide"), Buf("f64", N, gen="wide"), Buf("f64", N, gen="wide"), Buf("f64", 9 * N, "out"), Scalar("i32", N)),
    ),
    Case(
        "int64_ops",
        """__global__ void int64_ops(const long long* a, const long long* b, long long* out, long long n) {
            long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i >= n) return; long long x = a[i], y = b[i] | 1;
            out[4 * i] = x * y + (x >> 7); out[4 * i + 1] = x / y; out[4 * i + 2] = x % 1000003; out[4 * i + 3] = (long long)((unsigned long long)x >> 3) ^ (y << 5); }""",
        """struct P { const long long *a, *b; long long *out; long long n; } *p = params; for (long long i = 0; i < p->n; i++) { long long x = p->a[i], y = p->b[i] | 1;
             p->out[4 * i] = (long long)((unsigned long long)x * (unsigned long long)y) + (x >> 7); p->out[4 * i + 1] = x / y; p->out[4 * i + 2] = x % 1000003;
             p->out[4 * i + 3] = (long long)((unsigned long long)x >> 3) ^ (long long)((unsigned long long)y << 5); }""",
        (Buf("i64", N, gen="bits"), Buf("i64", N, gen="bits"), Buf("i64", 4 * N, "out"), Scalar("i64", N)),
    ),
    Case(
        "int_divmod",
        """__global__ void int_divmod(const int* a, const int* b, int* out, unsigned n) {
            unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; int x = a[i], y = b[i] == 0 ? 7 : b[i];
            out[4 * i] = x / y; out[4 * i + 1] = x % y; out[4 * i + 2] = (unsigned)x / (unsigned)y; out[4 * i + 3] = x / 13 + x % 10; }""",
        """struct P { const int *a, *b; int *out; unsigned n; } *p = params; for (unsigned i = 0; i < p->n; i++) { int x = p->a[i], y = p->b[i] == 0 ? 7 : p->b[i];
             p->out[4 * i] = x / y; p->out[4 * i + 1] = x % y; p->out[4 * i + 2] = (unsigned)x / (unsigned)y; p->out[4 * i + 3] = x / 13 + x % 10; }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, gen="small"), Buf("i32", 4 * N, "out"), Scalar("u32", N)),
    ),
    Case(
        "loops_switch",
        """__global__ void loops_switch(const int* in, int* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; unsigned v = (unsigned)in[i] % 97 + 1; int steps = 0;
            while (v != 1 && steps < 200) { v = (v & 1) ? 3 * v + 1 : v / 2; steps++; }
            int r;
            switch (in[i] & 7) { case 0: r = steps; break; case 1: r = steps * 3; break; case 2: r = -steps; break; case 3: r = steps ^ 0x55; break;
              case 5: r = steps << 4; break; default: r = 42; }
            out[i] = r; }""",
        """struct P { const int *in; int *out; int n; } *p = params; for (int i = 0; i < p->n; i++) {
             unsigned v = (unsigned)p->in[i] % 97 + 1; int steps = 0; while (v != 1 && steps < 200) { v = (v & 1) ? 3 * v + 1 : v / 2; steps++; }
             int r; switch (p->in[i] & 7) { case 0: r = steps; break; case 1: r = steps * 3; break; case 2: r = -steps; break; case 3: r = steps ^ 0x55; break;
               case 5: r = steps << 4; break; default: r = 42; } p->out[i] = r; }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, "out"), Scalar("i32", N)),
    ),
    Case(
        "dyn_shared",
        """extern __shared__ float dyn_buf[];
        __global__ void dyn_shared(const float* in, float* out) {
            int t = threadIdx.x, g = blockIdx.x * blockDim.x + t; dyn_buf[t] = in[g]; dyn_buf[blockDim.x + t] = 2.0f * in[g]; __syncthreads();
            out[g] = dyn_buf[blockDim.x - 1 - t] + dyn_buf[2 * blockDim.x - 1 - ((t + 5) % blockDim.x)]; }""",
        """struct P { const float *in; float *out; } *p = params; for (unsigned b = 0; b < gx; b++) for (unsigned t = 0; t < bx; t++)
             p->out[b * bx + t] = p->in[b * bx + bx - 1 - t] + 2.0f * p->in[b * bx + bx - 1 - ((t + 5) % bx)];""",
        (Buf("f32", N), Buf("f32", N, "out")),
        dyn=2 * 128 * 4,
    ),
    Case(
        "static_and_dyn_shared",
        """extern __shared__ int dyn_ints[];
        __global__ void static_and_dyn_shared(int* out) {
            __shared__ int st[5]; int t = threadIdx.x; if (t < 5) st[t] = 100 * t; dyn_ints[t] = t * t; __syncthreads();
            out[blockIdx.x * blockDim.x + t] = st[t % 5] + dyn_ints[(t + 1) % blockDim.x]; }""",
        """struct P { int *out; } *p = params; for (unsigned b = 0; b < gx; b++) for (unsigned t = 0; t < bx; t++) { unsigned u = (t + 1) % bx;
             p->out[b * bx + t] = 100 * (int)(t % 5) + (int)(u * u); }""",
        (Buf("i32", N, "out"),),
        dyn=128 * 4, static_shared=20,
    ),
    Case(
        "big_param",
        """__global__ void big_param(Big s, float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = s.a[i % 32] * s.k + (float)s.d; }""",
        """struct P { struct Big s; float *out; int n; } *p = params; for (int i = 0; i < p->n; i++) p->out[i] = fmaf(p->s.a[i % 32], (float)p->s.k, (float)p->s.d);""",
        (Raw(144, 8, "bigstruct"), Buf("f32", N, "out"), Scalar("i32", N)),
    ),
    Case(
        "param_index",
        """__global__ void param_index(Dims d, int* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
            long long rem = i, off = 0; for (int k = d.n - 1; k > 0; --k) { off += (rem % d.size[k]) * d.stride[k]; rem /= d.size[k]; }
            out[i] = d.data[off + rem * d.stride[0]]; }""",
        """struct P { struct Dims d; int *out; int n; } *p = params; for (int i = 0; i < p->n; i++) { long long rem = i, off = 0;
             for (int k = p->d.n - 1; k > 0; --k) { off += (rem % p->d.size[k]) * p->d.stride[k]; rem /= p->d.size[k]; } p->out[i] = p->d.data[off + rem * p->d.stride[0]]; }""",
        (Raw(416, 8, "dims"), Buf("i32", 120, "out"), Scalar("i32", 120)),
        grid=(1, 1, 1),
    ),
    Case(
        "narrow_params",
        """__global__ void narrow_params(signed char c, unsigned char u, short s, bool flag, int* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            out[i] = c * i + u - s + (flag ? 7 : -7) + (i & 1 ? c : u); }""",
        """struct P { signed char c; unsigned char u; short s; _Bool flag; int *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++)
             p->out[i] = p->c * i + p->u - p->s + (p->flag ? 7 : -7) + (i & 1 ? p->c : p->u);""",
        (Scalar("i8", -93), Scalar("u8", 201), Scalar("i16", -12345), Scalar("u8", 1), Buf("i32", N, "out")),
    ),
    Case(
        "conversions",
        """__global__ void conversions(const float* x, int* out, double* dout, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; float v = x[i] * 3.0e9f;
            out[6 * i] = (int)v; out[6 * i + 1] = (int)(unsigned)fabsf(v); out[6 * i + 2] = __float2int_rn(x[i] * 100.5f);
            out[6 * i + 3] = (int)floorf(x[i] * 10.0f) + (int)ceilf(x[i] * 10.0f); out[6 * i + 4] = __float_as_int((float)(i * 1234567)) ;
            out[6 * i + 5] = __float_as_int((float)(double)x[i] + (float)(unsigned)i); dout[i] = (double)x[i] * (double)(i - 100); }""",
        """struct P { const float *x; int *out; double *dout; int n; } *p = params; for (int i = 0; i < p->n; i++) { float v = p->x[i] * 3.0e9f;
             p->out[6 * i] = v >= 2147483648.0f ? INT_MAX : v <= -2147483648.0f ? INT_MIN : (int)v;
             float a = fabsf(v); p->out[6 * i + 1] = (int)(a >= 4294967296.0f ? 4294967295u : (unsigned)a);
             p->out[6 * i + 2] = (int)rintf(p->x[i] * 100.5f); p->out[6 * i + 3] = (int)floorf(p->x[i] * 10.0f) + (int)ceilf(p->x[i] * 10.0f);
             float f = (float)(i * 1234567); memcpy(&p->out[6 * i + 4], &f, 4); float g = p->x[i] + (float)(unsigned)i; memcpy(&p->out[6 * i + 5], &g, 4);
             p->dout[i] = (double)p->x[i] * (double)(i - 100); }""",
        (Buf("f32", N), Buf("i32", 6 * N, "out"), Buf("f64", N, "out"), Scalar("i32", N)),
    ),
    Case(
        "bit_ops",
        """__global__ void bit_ops(const unsigned* x, unsigned* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; unsigned v = x[i];
            out[6 * i] = __popc(v) + __clz(v); out[6 * i + 1] = __brev(v); out[6 * i + 2] = __ffs(v);
            out[6 * i + 3] = __funnelshift_l(v, v * 7, i & 31); out[6 * i + 4] = __byte_perm(v, ~v, 0x7351); out[6 * i + 5] = (v << (i & 31)) | (v >> 3); }""",
        """struct P { const unsigned *x; unsigned *out; int n; } *p = params; for (int i = 0; i < p->n; i++) { uint32_t v = p->x[i];
             p->out[6 * i] = __builtin_popcount(v) + clz32(v); p->out[6 * i + 1] = brev32(v); p->out[6 * i + 2] = __builtin_ffs(v);
             uint64_t fw = ((uint64_t)(uint32_t)(v * 7) << 32) | v; int s = i & 31; p->out[6 * i + 3] = (uint32_t)((fw << s) >> 32);
             uint64_t bytes = (uint64_t)(~v) << 32 | v; uint32_t r = 0; unsigned sel = 0x7351;
             for (int k = 0; k < 4; k++) r |= (uint32_t)((bytes >> (8 * ((sel >> (4 * k)) & 7))) & 0xff) << (8 * k);
             p->out[6 * i + 4] = r; p->out[6 * i + 5] = (v << (i & 31)) | (v >> 3); }""",
        (Buf("u32", N, gen="bits"), Buf("u32", 6 * N, "out"), Scalar("i32", N)),
    ),
    Case(
        "minmax",
        """__global__ void minmax(const int* a, const float* f, int* out, float* fout, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; int x = a[i];
            out[4 * i] = min(x, 17) + max(x, -23); out[4 * i + 1] = (int)min((unsigned)x, 5000u); out[4 * i + 2] = abs(x); out[4 * i + 3] = x < 0 ? -1 : x > 100 ? 100 : x;
            fout[2 * i] = fminf(f[i], 0.25f) + fmaxf(f[i], -0.5f); fout[2 * i + 1] = fabsf(f[i]) * (f[i] > 0.1f ? 2.0f : -3.0f); }""",
        """struct P { const int *a; const float *f; int *out; float *fout; int n; } *p = params; for (int i = 0; i < p->n; i++) { int x = p->a[i];
             p->out[4 * i] = (x < 17 ? x : 17) + (x > -23 ? x : -23); p->out[4 * i + 1] = (int)((unsigned)x < 5000u ? (unsigned)x : 5000u);
             p->out[4 * i + 2] = abs(x); p->out[4 * i + 3] = x < 0 ? -1 : x > 100 ? 100 : x;
             p->fout[2 * i] = f_min(p->f[i], 0.25f) + f_max(p->f[i], -0.5f); p->fout[2 * i + 1] = fabsf(p->f[i]) * (p->f[i] > 0.1f ? 2.0f : -3.0f); }""",
        (Buf("i32", N, gen="int"), Buf("f32", N, gen="special"), Buf("i32", 4 * N, "out"), Buf("f32", 2 * N, "out"), Scalar("i32", N)),
    ),
    Case(
        "constant_mem",
        """__global__ void constant_mem(const float* x, float* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = x[i] * coeffs[i & 7] + coeffs[(i >> 3) & 7]; }""",
        "struct P { const float *x; float *out; int n; } *p = params; for (int i = 0; i < p->n; i++) p->out[i] = fmaf(p->x[i], coeffs[i & 7], coeffs[(i >> 3) & 7]);",
        (Buf("f32", N), Buf("f32", N, "out"), Scalar("i32", N)),
    ),
    Case(
        "local_array",
        """__global__ void local_array(const int* in, int* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; int a[24];
            for (int k = 0; k < 24; k++) a[k] = in[(i + k) % n] * (k + 1);
            int s = 0; for (int k = 0; k < 24; k++) s += a[(in[i] + k * 5) & 15 ? (k * 7) % 24 : k];
            out[i] = s + a[in[i] & 15]; }""",
        """struct P { const int *in; int *out; int n; } *p = params; for (int i = 0; i < p->n; i++) { int a[24];
             for (int k = 0; k < 24; k++) a[k] = p->in[(i + k) % p->n] * (k + 1);
             int s = 0; for (int k = 0; k < 24; k++) s += a[(p->in[i] + k * 5) & 15 ? (k * 7) % 24 : k]; p->out[i] = s + a[p->in[i] & 15]; }""",
        (Buf("i32", 256, gen="int"), Buf("i32", 256, "out"), Scalar("i32", 256)),
        grid=(2, 1, 1),
    ),
    Case(
        "atomics_mix",
        """__device__ float atomic_max_float(float* addr, float v) {
            int* a = (int*)addr; int old = *a, assumed;
            do { assumed = old; if (__int_as_float(assumed) >= v) break; old = atomicCAS(a, assumed, __float_as_int(v)); } while (assumed != old);
            return __int_as_float(old); }
        __global__ void atomics_mix(const int* in, int* ints, unsigned* u, float* f, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; int v = in[i];
            atomicMax(&ints[0], v); atomicMin(&ints[1], v); atomicAnd(&ints[2], v | 0x10); atomicOr(&ints[3], v & 0x0f0f); atomicXor(&ints[4], v);
            atomicInc(&u[0], 100u); atomicSub(&ints[5], v & 0xff); atomic_max_float(f, (float)v * 0.5f); }""",
        """struct P { const int *in; int *ints; unsigned *u; float *f; int n; } *p = params; for (int i = 0; i < p->n; i++) { int v = p->in[i];
             if (v > p->ints[0]) p->ints[0] = v; if (v < p->ints[1]) p->ints[1] = v; p->ints[2] &= v | 0x10; p->ints[3] |= v & 0x0f0f; p->ints[4] ^= v;
             p->u[0] = p->u[0] >= 100u ? 0 : p->u[0] + 1; p->ints[5] -= v & 0xff; if (p->f[0] < (float)v * 0.5f) p->f[0] = (float)v * 0.5f; }""",
        (Buf("i32", N, gen="int"), Buf("i32", 6, "inout", gen="int"), Buf("u32", 1, "inout", gen="small"), Buf("f32", 1, "inout"), Scalar("i32", N)),
    ),
    Case(
        "generic_ptrs",
        """__device__ __noinline__ void bump(int* p, int k) { p[k] += k; }
        __device__ __noinline__ void add_to(int* p, int v) { atomicAdd(p, v); }
        __global__ void generic_ptrs(const int* in, int* out) {
            __shared__ int s[128]; int local[8]; int t = threadIdx.x, g0 = blockIdx.x * blockDim.x;
            s[t] = in[g0 + t]; __syncthreads();
            if (t & 1) bump(s, t ^ 1);
            for (int j = 0; j < 8; j++) local[j] = in[g0 + j] + t;
            bump(local, in[g0 + t] & 7);
            add_to(&s[0], 1);
            __syncthreads();
            out[g0 + t] = s[t] + local[t & 7];
            bump(out, g0 + t); }""",
        """struct P { const int *in; int *out; } *p = params; for (unsigned b = 0; b < gx; b++) { int s[128];
             for (unsigned t = 0; t < bx; t++) s[t] = p->in[b * bx + t];
             for (unsigned t = 1; t < bx; t += 2) s[t ^ 1] += t ^ 1;
             s[0] += bx;
             for (unsigned t = 0; t < bx; t++) { int local[8]; for (int j = 0; j < 8; j++) local[j] = p->in[b * bx + j] + t;
               int k = p->in[b * bx + t] & 7; local[k] += k; p->out[b * bx + t] = s[t] + local[t & 7] + b * bx + t; } }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, "out")),
        static_shared=512,
    ),
    Case(
        "dev_globals",
        """__device__ float table_g[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
        __device__ float scale_g = 0.5f;
        __device__ int scratch_g[512];
        __global__ void dev_globals(const float* in, float* out, int* out2) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            out[i] = in[i] * table_g[i & 15] + scale_g;
            scratch_g[i] = i * 3; __syncthreads(); out2[i] = scratch_g[i ^ 1]; }""",
        """struct P { const float *in; float *out; int *out2; } *p = params;
           for (int i = 0; i < (int)(gx * bx); i++) { p->out[i] = fmaf(p->in[i], (float)((i & 15) + 1), 0.5f); p->out2[i] = (i ^ 1) * 3; }""",
        (Buf("f32", N), Buf("f32", N, "out"), Buf("i32", N, "out")),
    ),
    Case(
        "grid_stride",
        """__global__ void grid_stride(const float* x, float* y, int n) {
            for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = x[i] * x[i] - 0.5f; }""",
        "struct P { const float *x; float *y; int n; } *p = params; for (int i = 0; i < p->n; i++) p->y[i] = fmaf(p->x[i], p->x[i], -0.5f);",
        (Buf("f32", 3000), Buf("f32", 3000, "out"), Scalar("i32", 3000)),
        grid=(3, 1, 1), block=(64, 1, 1),
    ),
    Case(
        "half_convert",
        """__global__ void half_convert(const float* x, float* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
            __half h = __float2half(x[i] * 3.0f); out[i] = __half2float(h) + 1.0f; }""",
        """struct P { const float *x; float *out; int n; } *p = params; for (int i = 0; i < p->n; i++) { _Float16 h = (_Float16)(p->x[i] * 3.0f); p->out[i] = (float)h + 1.0f; }""",
        (Buf("f32", N), Buf("f32", N, "out"), Scalar("i32", N)),
    ),
    Case(
        "dp4a",
        """__global__ void dp4a(const int* a, const int* b, int* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            out[i] = __dp4a(a[i], b[i], i) + __dp4a((unsigned)a[i], (unsigned)b[i], 3u) + __dp4a(a[i], (int)((unsigned)b[i] & 0x7f7f7f7fu), 0); }""",
        """struct P { const int *a, *b; int *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { uint32_t x = p->a[i], y = p->b[i];
             p->out[i] = dp4a(x, y, i, 1, 1) + dp4a(x, y, 3, 0, 0) + dp4a(x, y & 0x7f7f7f7fu, 0, 1, 1); }""",
        (Buf("i32", N, gen="bits"), Buf("i32", N, gen="bits"), Buf("i32", N, "out")),
    ),
    Case(
        # issue 21: REDUX.SUM.S32 was lifted as a signed maximum (the .S32 code fell to smax)
        "redux_sync",
        """__global__ void redux_sync(const int* a, int* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; int v = a[i] % 100000;
            out[5 * i] = __reduce_add_sync(0xffffffff, v); out[5 * i + 1] = __reduce_max_sync(0xffffffff, v);
            out[5 * i + 2] = __reduce_min_sync(0xffffffff, v); out[5 * i + 3] = (int)__reduce_add_sync(0xffffffff, (unsigned)v);
            out[5 * i + 4] = (int)__reduce_max_sync(0xffffffff, (unsigned)v); }""",
        """struct P { const int *a; int *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { int base = i - i % 32;
             int sum = 0, mx = INT32_MIN, mn = INT32_MAX; uint32_t umx = 0; for (int l = 0; l < 32; l++) { int v = p->a[base + l] % 100000;
               sum += v; if (v > mx) mx = v; if (v < mn) mn = v; if ((uint32_t)v > umx) umx = (uint32_t)v; }
             p->out[5 * i] = sum; p->out[5 * i + 1] = mx; p->out[5 * i + 2] = mn; p->out[5 * i + 3] = sum; p->out[5 * i + 4] = (int)umx; }""",
        (Buf("i32", N, gen="bits"), Buf("i32", 5 * N, "out")),
    ),
    Case(
        "match_sync",
        """__global__ void match_sync(const int* a, const long long* w, unsigned* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; int pred, pred2;
            out[4 * i] = __match_any_sync(0xffffffff, a[i] & 3); out[4 * i + 1] = __match_all_sync(0xffffffff, a[i] & 1, &pred) ^ pred;
            out[4 * i + 2] = __match_all_sync(0xffffffff, blockIdx.x, &pred2) + pred2; out[4 * i + 3] = __match_any_sync(0xffffffff, w[i] & 0x100000003LL); }""",
        """struct P { const int *a; const long long *w; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { int base = i - i % 32;
             unsigned any = 0, any64 = 0, all = 1; for (int l = 0; l < 32; l++) { if ((p->a[base + l] & 3) == (p->a[i] & 3)) any |= 1u << l;
               if ((p->a[base + l] & 1) != (p->a[base] & 1)) all = 0; if ((p->w[base + l] & 0x100000003LL) == (p->w[i] & 0x100000003LL)) any64 |= 1u << l; }
             p->out[4 * i] = any; p->out[4 * i + 1] = all ? 0xffffffffu ^ 1u : 0u; p->out[4 * i + 2] = 0xffffffffu + 1u; p->out[4 * i + 3] = any64; }""",
        (Buf("i32", N, gen="bits"), Buf("i64", N, gen="bits"), Buf("u32", 4 * N, "out")),
    ),
    Case(
        "bf16_convert",
        """__global__ void bf16_convert(const float* a, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            __nv_bfloat16 h = __float2bfloat16(a[i] * 3.0f); __nv_bfloat162 h2 = __floats2bfloat162_rn(a[i], a[i] + 1.0f);
            out[2 * i] = __bfloat162float(h); out[2 * i + 1] = __low2float(h2) * __high2float(h2); }""",
        """struct P { const float *a; float *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { float x = p->a[i];
             p->out[2 * i] = bf16r(x * 3.0f); p->out[2 * i + 1] = bf16r(x) * bf16r(x + 1.0f); }""",
        (Buf("f32", N, gen="special"), Buf("f32", 2 * N, "out")),
    ),
    Case(
        "bf16_arith",
        """__global__ void bf16_arith(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            __nv_bfloat162 x, y, z, r[3]; memcpy(&x, &a[i], 4); memcpy(&y, &b[i], 4); memcpy(&z, &c[i], 4);
            r[0] = __hfma2(x, y, z); r[1] = __hadd2(x, y); r[2] = __hmul2(x, z);
            for (int k = 0; k < 3; k++) memcpy(&out[3 * i + k], &r[k], 4); }""",
        """struct P { const unsigned *a, *b, *c; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) for (int h = 0; h < 2; h++) {
             uint32_t x = p->a[i] >> 16 * h & 0xffff, y = p->b[i] >> 16 * h & 0xffff, z = p->c[i] >> 16 * h & 0xffff, m = 0xffffu << 16 * h;
             p->out[3 * i] = (p->out[3 * i] & ~m) | bf16_fma(x, y, z) << 16 * h; p->out[3 * i + 1] = (p->out[3 * i + 1] & ~m) | bf16_fma(x, 0x3f80, y) << 16 * h;
             p->out[3 * i + 2] = (p->out[3 * i + 2] & ~m) | bf16_fma(x, z, 0x8000) << 16 * h; }""",
        (Buf("u32", N, gen="bf16"), Buf("u32", N, gen="bf16"), Buf("u32", N, gen="bf16"), Buf("u32", 3 * N, "out")),
    ),
    Case(
        "half2_ops",
        """__global__ void half2_ops(const float* a, const float* b, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            __half2 x = __floats2half2_rn(a[2 * i], a[2 * i + 1]), y = __floats2half2_rn(b[2 * i], b[2 * i + 1]);
            __half2 r = __hfma2(x, y, __float2half2_rn(0.5f)) + __hmul2(x, __floats2half2_rn(1.5f, -2.0f));
            __half2 m = __hmax2(x, y), n = __hmin2(x, __lowhigh2highlow(y));
            out[6 * i] = __low2float(r); out[6 * i + 1] = __high2float(r); out[6 * i + 2] = __low2float(m) + __high2float(m);
            out[6 * i + 3] = __low2float(n); out[6 * i + 4] = __high2float(n);
            out[6 * i + 5] = __half2float(__hmax(__low2half(x), __high2half(y))) + __half2float(__hsub(__low2half(x), __high2half(x))); }""",
        """struct P { const float *a, *b; float *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             _Float16 x0 = (_Float16)p->a[2 * i], x1 = (_Float16)p->a[2 * i + 1], y0 = (_Float16)p->b[2 * i], y1 = (_Float16)p->b[2 * i + 1];
             p->out[6 * i] = (float)hfma(x0, (_Float16)1.5f, hfma(x0, y0, (_Float16)0.5f)); p->out[6 * i + 1] = (float)hfma(x1, (_Float16)-2.0f, hfma(x1, y1, (_Float16)0.5f));
             p->out[6 * i + 2] = fmaxf((float)x0, (float)y0) + fmaxf((float)x1, (float)y1);
             p->out[6 * i + 3] = fminf((float)x0, (float)y1); p->out[6 * i + 4] = fminf((float)x1, (float)y0);
             p->out[6 * i + 5] = fmaxf((float)x0, (float)y1) + (float)(_Float16)((float)x0 - (float)x1); }""",
        (Buf("f32", 2 * N), Buf("f32", 2 * N), Buf("f32", 6 * N, "out")),
    ),
    Case(
        "half2_compare",
        """__global__ void half2_compare(const float* a, const float* g, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            __half2 x = __floats2half2_rn(a[2 * i], a[2 * i + 1]), y = __floats2half2_rn(g[2 * i], g[2 * i + 1]);
            __half2 m = __hmul2(__hgt2(x, __float2half2_rn(0.f)), y); __half2 le = __hle2(x, y);
            float s = __hlt(__low2half(x), __high2half(y)) ? 1.0f : -1.0f; if (__hgeu(__high2half(x), __low2half(y))) s += 10.0f;
            out[5 * i] = __low2float(m); out[5 * i + 1] = __high2float(m); out[5 * i + 2] = __low2float(le); out[5 * i + 3] = __high2float(le); out[5 * i + 4] = s; }""",
        """struct P { const float *a, *g; float *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             float x0 = (float)(_Float16)p->a[2 * i], x1 = (float)(_Float16)p->a[2 * i + 1], y0 = (float)(_Float16)p->g[2 * i], y1 = (float)(_Float16)p->g[2 * i + 1];
             p->out[5 * i] = (x0 > 0.f ? 1.0f : 0.0f) * y0; p->out[5 * i + 1] = (x1 > 0.f ? 1.0f : 0.0f) * y1;
             p->out[5 * i + 2] = x0 <= y0 ? 1.0f : 0.0f; p->out[5 * i + 3] = x1 <= y1 ? 1.0f : 0.0f;
             float s = x0 < y1 ? 1.0f : -1.0f; if (!(x1 < y0)) s += 10.0f; p->out[5 * i + 4] = s; }""",
        (Buf("f32", 2 * N, gen="special"), Buf("f32", 2 * N, gen="special"), Buf("f32", 5 * N, "out")),
    ),
    Case(
        # HeCBench relu's ReluGrad_impl2: eight halves through float4 loads, half2 ops on the
        # loaded registers, one float4 store (differed on the H100 check: see bench/results).
        "half8_relu_grad",
        """__global__ void half8_relu_grad(const __half* g, const __half* f, __half* out, int count) {
            int index = blockIdx.x * blockDim.x + threadIdx.x;
            if (index < count / 8) {
              float4 g8 = reinterpret_cast<const float4*>(g)[index], f8 = reinterpret_cast<const float4*>(f)[index];
              half2 *g2 = reinterpret_cast<half2*>(&g8), *f2 = reinterpret_cast<half2*>(&f8); float4 o8;
              half2 *o2 = reinterpret_cast<half2*>(&o8); const half2 zero = __float2half2_rn(0.f);
              for (int i = 0; i < 4; i++) o2[i] = __hmul2(__hgt2(f2[i], zero), g2[i]);
              reinterpret_cast<float4*>(out)[index] = o8; } }""",
        """struct P { const uint16_t *g, *f; uint16_t *out; int count; } *p = params; for (int i = 0; i < p->count / 8 * 8; i++) {
             _Float16 g, f, r; memcpy(&g, &p->g[i], 2); memcpy(&f, &p->f[i], 2); r = (_Float16)((f > (_Float16)0 ? 1.0f : 0.0f) * (float)g);
             memcpy(&p->out[i], &r, 2); }""",
        (Buf("u32", 4 * N, gen="f16x2"), Buf("u32", 4 * N, gen="f16x2"), Buf("u32", 4 * N, "out"), Scalar("i32", 8 * N - 24)),
    ),
    Case(
        "exit_pred_or",  # `@!P1 EXIT P2`: EXIT's predicate operand is ANDed with its guard (HeCBench morphology)
        """__global__ void exit_pred_or(const int* a, int* out, int lo, int hi) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; int h = lo / 2;
            if (i + h < hi - h) out[i + h] = a[i] * 3;
            if (i < h || i >= hi - h) out[i] = -1; }""",
        """struct P { const int *a; int *out; int lo, hi; } *p = params; int h = p->lo / 2;
           FOR_THREADS { int i = bx_i * bx + tx; if (i + h < p->hi - h) p->out[i + h] = p->a[i] * 3;
             if (i < h || i >= p->hi - h) p->out[i] = -1; }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, "out"), Scalar("i32", 100), Scalar("i32", 500)),
    ),
    Case(
        "shfl_reduce_guarded",  # sm_90: the shuffles' divergent path is WARPSYNC.COLLECTIVE ... ENDCOLLECTIVE
        """__global__ void shfl_reduce_guarded(const float* x, float* out, int n) {
            __shared__ float part[4]; int i = blockIdx.x * blockDim.x + threadIdx.x; float v = 0.f;
            if (i < n) { v = x[i] * x[i];
              for (int o = 1; o < 32; o *= 2) v += __shfl_down_sync(0xffffffff, v, o);
              if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = v; }
            __syncthreads();
            if (i < n && (threadIdx.x & 31) == 0) out[i / 32] = v + part[0]; }""",
        """struct P { const float *x; float *out; int n; } *p = params;
           for (unsigned b = 0; b < gx; b++) { float part0 = 0.f;
             for (unsigned w = 0; w < bx / 32; w++) { int base = (int)(b * bx + w * 32); float v[32], nv[32];
               if (base >= p->n) continue;  /* n is a multiple of 32: whole warps in or out */
               for (int l = 0; l < 32; l++) v[l] = p->x[base + l] * p->x[base + l];
               for (int o = 1; o < 32; o *= 2) { for (int l = 0; l < 32; l++) nv[l] = v[l] + (l + o < 32 ? v[l + o] : v[l]);
                 memcpy(v, nv, sizeof v); }
               if (w == 0) part0 = v[0];
               p->out[base / 32] = v[0] + part0; } }""",
        (Buf("f32", N), Buf("f32", N // 32, "out"), Scalar("i32", 480)),
    ),
    Case(
        "minmax3",  # sm_90: VIMNMX3 / VIMNMX3.U32 (min or max of three)
        """__global__ void minmax3(const int* a, const int* b, const int* c, int* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; int x = a[i], y = b[i], z = c[i]; unsigned ux = x, uy = y, uz = z;
            out[4 * i] = min(min(x, y), z); out[4 * i + 1] = max(x, max(y, z));
            out[4 * i + 2] = (int)min(umin(ux, uy), uz); out[4 * i + 3] = (int)max(umax(ux, uy), uz); }""",
        """struct P { const int *a, *b, *c; int *out; } *p = params;
           for (int i = 0; i < (int)(gx * bx); i++) { int x = p->a[i], y = p->b[i], z = p->c[i]; unsigned ux = x, uy = y, uz = z;
             int mn = x < y ? x : y, mx = x > y ? x : y; unsigned umn = ux < uy ? ux : uy, umx = ux > uy ? ux : uy;
             p->out[4 * i] = mn < z ? mn : z; p->out[4 * i + 1] = mx > z ? mx : z;
             p->out[4 * i + 2] = (int)(umn < uz ? umn : uz); p->out[4 * i + 3] = (int)(umx > uz ? umx : uz); }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, gen="int"), Buf("i32", N, gen="int"), Buf("i32", 4 * N, "out")),
    ),
    Case(
        "fence_last_block",  # __threadfence(): MEMBAR.SC.GPU, ERRBAR, sm_90's CGAERRBAR, CCTL.IVALL; the last block sums
        """__global__ void fence_last_block(const float* x, float* partial, unsigned* count, float* total) {
            __shared__ bool last;
            if (threadIdx.x == 0) { float s = 0.f; for (int k = 0; k < blockDim.x; k++) s += x[blockIdx.x * blockDim.x + k];
              partial[blockIdx.x] = s; __threadfence(); unsigned t = atomicInc(count, gridDim.x); last = (t == gridDim.x - 1); }
            __syncthreads();
            if (last && threadIdx.x == 0) { float s = 0.f; for (int b = 0; b < gridDim.x; b++) s += partial[b]; *total = s; } }""",
        """struct P { const float *x; float *partial; unsigned *count; float *total; } *p = params; float t = 0.f;
           for (unsigned b = 0; b < gx; b++) { float s = 0.f; for (unsigned k = 0; k < bx; k++) s += p->x[b * bx + k]; p->partial[b] = s; }
           for (unsigned b = 0; b < gx; b++) t += p->partial[b];
           *p->count = gx; *p->total = t;""",
        (Buf("f32", N), Buf("f32", 4, "out"), Buf("u32", 1, "out"), Buf("f32", 1, "out")),
    ),
    Case(
        "fp8_convert",  # sm_89+: F2FP.SATFINITE.E4M3/E5M2.F32.PACK_AB_MERGE_C (sm_80/86: cuda_fp8.h's software path)
        """__global__ void fp8_convert(const float* x, unsigned* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; float v = x[i] * __int_as_float((127 + (i % 32) - 20) << 23);
            out[2 * i] = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3);
            out[2 * i + 1] = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E5M2); }""",
        """struct P { const float *x; unsigned *out; } *p = params;
           for (int i = 0; i < (int)(gx * bx); i++) { uint32_t sb = (uint32_t)(127 + (i % 32) - 20) << 23; float sc; memcpy(&sc, &sb, 4);
             float v = p->x[i] * sc; p->out[2 * i] = fp8_nearest(v, 1); p->out[2 * i + 1] = fp8_nearest(v, 0); }""",
        (Buf("f32", N), Buf("u32", 2 * N, "out")),
    ),
    Case(
        "ddiv_const",  # MUFU.RCP64H with an immediate (the divisor's upper word, printed as the double)
        """__global__ void ddiv_const(const double* x, double* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; out[2 * i] = x[i] / 1000.0; out[2 * i + 1] = 3.0 / sqrt(x[i] + 2.0); }""",
        """struct P { const double *x; double *out; } *p = params;
           for (int i = 0; i < (int)(gx * bx); i++) { p->out[2 * i] = p->x[i] / 1000.0; p->out[2 * i + 1] = 3.0 / sqrt(p->x[i] + 2.0); }""",
        (Buf("f64", N, gen="wide"), Buf("f64", 2 * N, "out")),
    ),
    Case(
        "barrier_reduce",
        """__global__ void barrier_reduce(const int* a, int* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            int c = __syncthreads_count(a[i] > 0); int o = __syncthreads_or(a[i] > 990); int n = __syncthreads_and(a[i] > -995);
            int c2 = __syncthreads_count(threadIdx.x < 37); out[i] = c + 1000 * o + 2000 * n + 5000 * c2; }""",
        """struct P { const int *a; int *out; } *p = params; for (unsigned b = 0; b < gx; b++) { int c = 0, o = 0, n = 1;
             for (unsigned t = 0; t < bx; t++) { int v = p->a[b * bx + t]; c += v > 0; o |= v > 990; n &= v > -995; }
             for (unsigned t = 0; t < bx; t++) p->out[b * bx + t] = c + 1000 * o + 2000 * n + 5000 * 37; }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, "out")),
    ),
    Case(
        "mix_iter",
        """__global__ void mix_iter(float* g, const int iters) {
            const unsigned bs = blockDim.x; const int stride = bs; int idx = blockIdx.x * bs * 8 + threadIdx.x; const int big = gridDim.x * bs * 8;
            float t[8];
            for (int k = 0; k < 4; k++) {
            #pragma unroll
              for (int j = 0; j < 8; j++) { t[j] = g[idx + j * stride + k * big]; for (int i = 0; i < iters; i++) t[j] = t[j] * t[j] + 0.1f; }
              float sum = 0.f;
            #pragma unroll
              for (int j = 0; j < 8; j += 2) sum += t[j] * t[j + 1];
            #pragma unroll
              for (int j = 0; j < 8; j++) g[idx + k * big] = sum; } }""",
        """struct P { float *g; int iters; } *p = params; int big = gx * bx * 8;
           for (unsigned b = 0; b < gx; b++) for (unsigned tx = 0; tx < bx; tx++) { int idx = b * bx * 8 + tx; float t[8];
             for (int k = 0; k < 4; k++) { for (int j = 0; j < 8; j++) { t[j] = p->g[idx + j * bx + k * big]; for (int i = 0; i < p->iters; i++) t[j] = fmaf(t[j], t[j], 0.1f); }
               float sum = 0.f; for (int j = 0; j < 8; j += 2) sum = fmaf(t[j], t[j + 1], sum); p->g[idx + k * big] = sum; } }""",
        (Buf("f32", 2 * 32 * 8 * 4, "inout"), Scalar("i32", 3)),
        grid=(2, 1, 1), block=(32, 1, 1),
    ),
    Case(
        "branchy_float",
        """__global__ void branchy_float(const float* x, float* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; float v = x[i], r = 0.0f;
            if (v > 0.5f) { for (int k = 0; k < 5; k++) r += v * (float)k; } else if (v < -0.5f) r = -v; else if (isnan(v) || v != v) r = 1.0f; else r = v * v * v;
            out[i] = r; }""",
        """struct P { const float *x; float *out; int n; } *p = params; for (int i = 0; i < p->n; i++) { float v = p->x[i], r = 0.0f;
             if (v > 0.5f) { for (int k = 0; k < 5; k++) r = fmaf(v, (float)k, r); } else if (v < -0.5f) r = -v; else if (v != v) r = 1.0f; else r = v * v * v; p->out[i] = r; }""",
        (Buf("f32", N, gen="special"), Buf("f32", N, "out"), Scalar("i32", N)),
    ),
    Case(
        "jump_table",  # BRX: ptxas turns the sparse switch (0, 32, 64, 96 -> rotate by 5) into a jump table in c[0x2]
        """__global__ void jump_table(const int* in, int* out, int n) {
            __shared__ int s[4]; int t = threadIdx.x;
            switch (t) { case 0: s[0] = in[blockIdx.x]; break; case 64: s[2] = in[blockIdx.x + 2] * 3; break;
              case 32: s[1] = -in[blockIdx.x + 1]; break; case 96: s[3] = in[blockIdx.x + 3] ^ 0x55; break; default: break; }
            __syncthreads(); int i = blockIdx.x * blockDim.x + t; if (i < n) out[i] = s[t & 3] + t; }""",
        """struct P { const int *in; int *out; int n; } *p = params; for (unsigned b = 0; b < gx; b++) for (unsigned t = 0; t < bx; t++) {
             int s[4] = {p->in[b], -p->in[b + 1], p->in[b + 2] * 3, p->in[b + 3] ^ 0x55}; int i = b * bx + t; if (i < p->n) p->out[i] = s[t & 3] + t; }""",
        (Buf("i32", N, gen="int"), Buf("i32", N, "out"), Scalar("i32", N - 5)),
    ),
    Case(
        "bf16_minmax",  # HMNMX2.BF16_V2 (and .NAN) on sm_80-90: bfloat16x2 min/max with NaNs, zeros, denormals
        """__global__ void bf16_minmax(const unsigned* a, const unsigned* b, unsigned* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            __nv_bfloat162 x, y, r[4]; memcpy(&x, &a[i], 4); memcpy(&y, &b[i], 4); r[0] = __hmax2(x, y); r[1] = __hmin2(x, y);
            r[2] = __halves2bfloat162(__hmax(__low2bfloat16(x), __high2bfloat16(y)), __hmin(__high2bfloat16(x), __low2bfloat16(y)));
            r[3] = __hmax2_nan(x, y); for (int k = 0; k < 4; k++) memcpy(&out[4 * i + k], &r[k], 4); }""",
        """struct P { const unsigned *a, *b; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { uint32_t x = p->a[i], y = p->b[i];
             p->out[4 * i] = mnmx16(x, 0, y, 0, 1, 0, 0) | mnmx16(x, 1, y, 1, 1, 0, 0) << 16;
             p->out[4 * i + 1] = mnmx16(x, 0, y, 0, 1, 1, 0) | mnmx16(x, 1, y, 1, 1, 1, 0) << 16;
             p->out[4 * i + 2] = mnmx16(x, 0, y, 1, 1, 0, 0) | mnmx16(x, 1, y, 0, 1, 1, 0) << 16;
             p->out[4 * i + 3] = mnmx16(x, 0, y, 0, 1, 0, 1) | mnmx16(x, 1, y, 1, 1, 0, 1) << 16; }""",
        (Buf("u32", N, gen="bf16s"), Buf("u32", N, gen="bf16s"), Buf("u32", 4 * N, "out")),
    ),
    Case(
        "half_compare_imm",  # HSETP2 / HSET2 against an immediate half pair (sm_80-90); HMNMX2 of halves with specials
        """__global__ void half_compare_imm(const unsigned* a, const unsigned* b, float* out, unsigned* mm) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            __half2 x, y; memcpy(&x, &a[i], 4); memcpy(&y, &b[i], 4); float s = 0.f;
            if (__hgt(__low2half(x), __float2half(0.75f))) s += 1.f; if (__hgeu(__habs(__high2half(x)), __float2half(8.5e-6f))) s += 2.f;
            if (__heq(__low2half(x), __float2half(-1.8125f))) s += 4.f; __half2 m = __hlt2(x, __floats2half2_rn(0.25f, -0.5f));
            out[2 * i] = s; out[2 * i + 1] = __low2float(m) + 2.f * __high2float(m); __half2 r = __hmin2(x, y); memcpy(&mm[i], &r, 4); }""",
        """struct P { const unsigned *a, *b; float *out; unsigned *mm; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             float x0 = lane16(p->a[i], 0, 0), x1 = lane16(p->a[i], 1, 0), s = 0.f;
             if (x0 > 0.75f) s += 1.f; if (!(fabsf(x1) < (float)(_Float16)8.5e-6f)) s += 2.f; if (x0 == -1.8125f) s += 4.f;
             p->out[2 * i] = s; p->out[2 * i + 1] = (x0 < 0.25f ? 1.f : 0.f) + 2.f * (x1 < -0.5f ? 1.f : 0.f);
             p->mm[i] = mnmx16(p->a[i], 0, p->b[i], 0, 0, 1, 0) | mnmx16(p->a[i], 1, p->b[i], 1, 0, 1, 0) << 16; }""",
        (Buf("u32", N, gen="f16s"), Buf("u32", N, gen="f16s"), Buf("f32", 2 * N, "out"), Buf("u32", N, "out")),
    ),
    Case(
        "lop3_pred",  # LOP3.LUT P, ..., P (sm_80-90): 64-bit bit tests chain the words' tests by OR; lop3.and's .PAND
        """__global__ void lop3_pred(const unsigned long long* a, const unsigned long long* b, const int* s, unsigned long long* out, int* flags) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; unsigned long long x = a[i], m = b[i], r = x; int k = s[i] & 63;
            if ((x >> k) & m) r ^= 0x7; if (x & (m << (k & 7))) r += 3; out[i] = r;
            unsigned u = (unsigned)x, v = (unsigned)(x >> 32), w = (unsigned)m, d1, d2; int r1, r2;
            asm("{ .reg .pred p, q; setp.ne.u32 q, %4, 5; lop3.or.b32 %0|p, %2, %3, %4, 0x80, q; selp.s32 %1, 1, 0, p; }" : "=r"(d1), "=r"(r1) : "r"(u), "r"(v), "r"(w & 7));
            asm("{ .reg .pred p, q; setp.ne.u32 q, %5, 5; lop3.and.b32 %0|p, %2, %3, %4, 0x96, q; selp.s32 %1, 1, 0, p; }" : "=r"(d2), "=r"(r2) : "r"(u & 3), "r"(v & 3), "r"(w >> 3 & 3), "r"(w & 7));
            flags[4 * i] = d1; flags[4 * i + 1] = r1; flags[4 * i + 2] = d2; flags[4 * i + 3] = r2; }""",
        """struct P { const uint64_t *a, *b; const int *s; uint64_t *out; int *flags; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             uint64_t x = p->a[i], m = p->b[i], r = x; int k = p->s[i] & 63; if ((x >> k) & m) r ^= 0x7; if (x & (m << (k & 7))) r += 3; p->out[i] = r;
             uint32_t u = (uint32_t)x, v = (uint32_t)(x >> 32), w = (uint32_t)m, d1 = u & v & (w & 7), d2 = (u & 3) ^ (v & 3) ^ (w >> 3 & 3);
             p->flags[4 * i] = d1; p->flags[4 * i + 1] = d1 != 0 || (w & 7) != 5; p->flags[4 * i + 2] = d2; p->flags[4 * i + 3] = d2 != 0 && (w & 7) != 5; }""",
        (Buf("i64", N, gen="bits"), Buf("i64", N, gen="bits"), Buf("i32", N, gen="int"), Buf("i64", N, "out"), Buf("i32", 4 * N, "out")),
    ),
    Case(
        "round16",  # F2F.F16/BF16.F32.RZ/RM/RP, F2FP.BF16.PACK_AB.RZ (sm_80-89), FRND.BF16.FLOOR/CEIL/TRUNC (sm_90)
        """__global__ void round16(const float* x, unsigned* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; float v = x[i];
            float w = isnan(v) ? 0.0f : v; out[6 * i] = __bfloat16_as_ushort(__float2bfloat16_rz(v)); out[6 * i + 1] = __half_as_ushort(__float2half_rz(w * 3.0f));
            out[6 * i + 2] = __bfloat16_as_ushort(__float2bfloat16_rd(v)) | __bfloat16_as_ushort(__float2bfloat16_ru(v)) << 16;
            out[6 * i + 3] = __half_as_ushort(__float2half_rd(w * 5.0f)) | __half_as_ushort(__float2half_ru(w * 5.0f)) << 16;
            out[6 * i + 4] = __bfloat16_as_ushort(hfloor(__float2bfloat16(v * 7.0f)));
            out[6 * i + 5] = __bfloat16_as_ushort(hceil(__float2bfloat16(v * 7.0f))) | __bfloat16_as_ushort(htrunc(__float2bfloat16(v * 9.0f))) << 16; }""",
        """struct P { const float *x; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { float v = p->x[i], w = isnan(v) ? 0.0f : v;
             p->out[6 * i] = dround16(v, 1, 0); p->out[6 * i + 1] = dround16(w * 3.0f, 0, 0);
             p->out[6 * i + 2] = dround16(v, 1, 1) | dround16(v, 1, 2) << 16; p->out[6 * i + 3] = dround16(w * 5.0f, 0, 1) | dround16(w * 5.0f, 0, 2) << 16;
             float s7 = bf16r(v * 7.0f), s9 = bf16r(v * 9.0f);
             p->out[6 * i + 4] = isnan(s7) ? 0x7fff : dround16(floorf(s7), 1, 0);
             p->out[6 * i + 5] = (isnan(s7) ? 0x7fff : dround16(ceilf(s7), 1, 0)) | (isnan(s9) ? 0x7fff : dround16(truncf(s9), 1, 0)) << 16; }""",
        (Buf("f32", N, gen="special"), Buf("u32", 6 * N, "out")),
    ),
    Case(
        "int_to_bf16",  # I2F.BF16[.U32/.S64/.U64][.RZ/RM/RP] (sm_90; sm_80-89 through float): one rounding to bfloat16, zero-extended
        """__global__ void int_to_bf16(const int* a, const long long* w, unsigned* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; int x = a[i] >> (i & 31); unsigned y = (unsigned)a[i] >> (i % 29); long long z = w[i] >> (i & 63);
            out[4 * i] = __bfloat16_as_ushort(__int2bfloat16_rn(x)) | __bfloat16_as_ushort(__uint2bfloat16_rn(y)) << 16;
            out[4 * i + 1] = __bfloat16_as_ushort(__int2bfloat16_rz(x)) | __bfloat16_as_ushort(__int2bfloat16_rd(x)) << 16;
            out[4 * i + 2] = __bfloat16_as_ushort(__int2bfloat16_ru(x)) | __bfloat16_as_ushort(__uint2bfloat16_rz(y)) << 16;
            out[4 * i + 3] = __bfloat16_as_ushort(__ll2bfloat16_rn(z)) | __bfloat16_as_ushort(__ull2bfloat16_rz((unsigned long long)z)) << 16; }""",
        """struct P { const int *a; const long long *w; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             int x = p->a[i] >> (i & 31); unsigned y = (unsigned)p->a[i] >> (i % 29); long long z = p->w[i] >> (i & 63); unsigned *o = p->out + 4 * i;
             o[0] = I16R(x, 1, 0) | U16R(y, 1, 0) << 16; o[1] = I16R(x, 1, 1) | I16R(x, 1, 2) << 16;
             o[2] = I16R(x, 1, 3) | U16R(y, 1, 1) << 16; o[3] = I16R(z, 1, 0) | U16R((uint64_t)z, 1, 1) << 16; }""",
        (Buf("i32", N, gen="bits"), Buf("i64", N, gen="bits"), Buf("u32", 4 * N, "out")),
    ),
    Case(
        "int_to_half",  # I2F.F16[.U32/.S16/.S64/.U64][.RZ/RM/RP] (sm_80-90): one rounding to half (past 65504: inf or the largest by the mode), zero-extended
        """__global__ void int_to_half(const int* a, const long long* w, unsigned* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; int x = a[i] >> (i & 31); unsigned y = (unsigned)a[i] >> (i % 29); long long z = w[i] >> (i & 63);
            out[4 * i] = __half_as_ushort(__int2half_rn(x)) | __half_as_ushort(__uint2half_rn(y)) << 16;
            out[4 * i + 1] = __half_as_ushort(__int2half_rz(x)) | __half_as_ushort(__int2half_rd(x)) << 16;
            out[4 * i + 2] = __half_as_ushort(__int2half_ru(x)) | __half_as_ushort(__short2half_rn((short)x)) << 16;
            out[4 * i + 3] = __half_as_ushort(__ll2half_rn(z)) | __half_as_ushort(__ull2half_rd((unsigned long long)z)) << 16; }""",
        """struct P { const int *a; const long long *w; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             int x = p->a[i] >> (i & 31); unsigned y = (unsigned)p->a[i] >> (i % 29); long long z = p->w[i] >> (i & 63); unsigned *o = p->out + 4 * i;
             o[0] = I16R(x, 0, 0) | U16R(y, 0, 0) << 16; o[1] = I16R(x, 0, 1) | I16R(x, 0, 2) << 16;
             o[2] = I16R(x, 0, 3) | I16R((short)x, 0, 0) << 16; o[3] = I16R(z, 0, 0) | U16R((uint64_t)z, 0, 2) << 16; }""",
        (Buf("i32", N, gen="bits"), Buf("i64", N, gen="bits"), Buf("u32", 4 * N, "out")),
    ),
    Case(
        "int64_imm_to_float",  # I2F[.F64/.F16/.BF16].S64/.U64 of an immediate (ptxas: a 64-bit constant with a zero low word): its 32 bits are the upper word; I2F.F64.S64/U64.RZ/RM/RP
        """__global__ void int64_imm_to_float(const long long* w, float* f, double* d, unsigned* h) { int i = blockIdx.x * blockDim.x + threadIdx.x; long long z = w[i] >> (i & 63);
            f[6 * i] = __ll2float_rn(0x1234567900000000ll); f[6 * i + 1] = __ll2float_rz(0x1234567900000000ll); f[6 * i + 2] = __ll2float_rd(-0x1234567900000000ll);
            f[6 * i + 3] = __ll2float_ru(0x1234567900000000ll); f[6 * i + 4] = __ll2float_rn(-0x2a00000000000000ll); f[6 * i + 5] = __ull2float_rd(0xfa00000500000000ull);
            d[5 * i] = __ll2double_rn(-0x7a00000300000000ll); d[5 * i + 1] = __ull2double_rz(0xfa00000500000000ull);
            d[5 * i + 2] = __ll2double_rd(z); d[5 * i + 3] = __ull2double_ru((unsigned long long)z); d[5 * i + 4] = __ll2double_rz(z);
            h[2 * i] = __half_as_ushort(__ll2half_rn(-0x100000000000ll)) | __half_as_ushort(__ull2half_rd(0x300000000ull)) << 16;
            h[2 * i + 1] = __bfloat16_as_ushort(__ll2bfloat16_rn(-0x7f12345600000000ll)) | __bfloat16_as_ushort(__ull2bfloat16_rz(0x7f12345600000000ull)) << 16; }""",
        """struct P { const long long *w; float *f; double *d; unsigned *h; } *p = params;
             #define CVTF(mode, ty, v) ({ volatile ty c_ = (v); fesetround(mode); volatile float r_ = (float)c_; fesetround(FE_TONEAREST); r_; })
             #define CVTD(mode, ty, v) ({ volatile ty c_ = (v); fesetround(mode); volatile double r_ = (double)c_; fesetround(FE_TONEAREST); r_; })
             for (int i = 0; i < (int)(gx * bx); i++) { float *f = p->f + 6 * i; long long z = p->w[i] >> (i & 63); double *d = p->d + 5 * i;
             f[0] = CVTF(FE_TONEAREST, int64_t, 0x1234567900000000ll); f[1] = CVTF(FE_TOWARDZERO, int64_t, 0x1234567900000000ll);
             f[2] = CVTF(FE_DOWNWARD, int64_t, -0x1234567900000000ll); f[3] = CVTF(FE_UPWARD, int64_t, 0x1234567900000000ll);
             f[4] = CVTF(FE_TONEAREST, int64_t, -0x2a00000000000000ll); f[5] = CVTF(FE_DOWNWARD, uint64_t, 0xfa00000500000000ull);
             d[0] = (double)-0x7a00000300000000ll; d[1] = (double)0xfa00000500000000ull; /* both exact */
             d[2] = CVTD(FE_DOWNWARD, int64_t, z); d[3] = CVTD(FE_UPWARD, uint64_t, (uint64_t)z); d[4] = CVTD(FE_TOWARDZERO, int64_t, z);
             p->h[2 * i] = I16R(-0x100000000000ll, 0, 0) | U16R(0x300000000ull, 0, 2) << 16;
             p->h[2 * i + 1] = I16R(-0x7f12345600000000ll, 1, 0) | U16R(0x7f12345600000000ull, 1, 1) << 16; }""",
        (Buf("i64", N, gen="bits"), Buf("f32", 6 * N, "out"), Buf("f64", 5 * N, "out"), Buf("u32", 2 * N, "out")),
    ),
    Case(
        "half_to_int",  # F2I[.U32/.S16/.U16/.S64].F16[.TRUNC/.FLOOR/.CEIL].NTZ of a half lane (H0 or .H1): saturating, NaN 0
        """__global__ void half_to_int(const unsigned* a, int* out, long long* wide) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; __half2 v; memcpy(&v, &a[i], 4); __half x = __low2half(v), y = __high2half(v);
            out[6 * i] = __half2int_rz(x); out[6 * i + 1] = __half2int_rn(y); out[6 * i + 2] = __half2int_rd(x) + 3 * __half2int_ru(y);
            out[6 * i + 3] = (int)__half2uint_rz(y); out[6 * i + 4] = __half2short_rz(x) | (int)__half2ushort_rn(y) << 16;
            out[6 * i + 5] = (__hisnan(x) || __hisinf(x)) ? 0 : __half2int_rz(x); wide[i] = __half2ll_rz(y); }""",
        """struct P { const unsigned *a; int *out; long long *wide; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             float x = lane16(p->a[i], 0, 0), y = lane16(p->a[i], 1, 0); int *o = p->out + 6 * i; double lo = INT_MIN, hi = INT_MAX;
             o[0] = (int)fsat(x, 0, lo, hi); o[1] = (int)fsat(y, 1, lo, hi); o[2] = (int)((unsigned)(int)fsat(x, 2, lo, hi) + 3u * (unsigned)(int)fsat(y, 3, lo, hi));
             o[3] = (int)(unsigned)fsat(y, 0, 0, UINT_MAX); o[4] = (int)((uint32_t)(int32_t)(short)fsat(x, 0, SHRT_MIN, SHRT_MAX) | (uint32_t)fsat(y, 1, 0, USHRT_MAX) << 16);
             o[5] = isinf(x) ? 0 : (int)fsat(x, 0, lo, hi); p->wide[i] = isinf(y) ? (y > 0 ? LLONG_MAX : LLONG_MIN) : (long long)fsat(y, 0, -1e30, 1e30); }""",
        (Buf("u32", N, gen="f16s"), Buf("i32", 6 * N, "out"), Buf("i64", N, "out")),
    ),
    Case(
        "vadd2",  # VIADD.16x2 (sm_90; sm_80-89 LOP3/IADD3): per-halfword add and subtract, no carry or borrow between the halves
        """__global__ void vadd2(const unsigned* a, const unsigned* b, unsigned* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; unsigned x = a[i], y = b[i];
            out[3 * i] = __vsub2(x, y); out[3 * i + 1] = __vadd2(x, y); out[3 * i + 2] = __vsub2(y, 0x12345u) ^ __vneg2(x); }""",
        """struct P { const unsigned *a, *b; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { uint32_t x = p->a[i], y = p->b[i];
             #define H2(lo, hi) ((uint32_t)((lo) & 0xffff) | (uint32_t)((hi) & 0xffff) << 16)
             p->out[3 * i] = H2(x - y, (x >> 16) - (y >> 16)); p->out[3 * i + 1] = H2(x + y, (x >> 16) + (y >> 16));
             p->out[3 * i + 2] = H2(y - 0x2345u, (y >> 16) - 1u) ^ H2(0u - x, 0u - (x >> 16)); }""",
        (Buf("u32", N, gen="bits"), Buf("u32", N, gen="bits"), Buf("u32", 3 * N, "out")),
    ),
    Case(
        "fdiv_zero",  # FCHK's fast path: a zero dividend keeps the sign of a ^ b (-0 / 3 is -0; the fast path's FFMA a, rcp, RZ makes +0)
        """__global__ void fdiv_zero(const float* a, const float* b, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            float x = a[i], y = b[i]; out[3 * i] = x / y; out[3 * i + 1] = __fdiv_rn(-x, y); out[3 * i + 2] = (x * 0.0f) / (y + 2.0f); }""",
        """struct P { const float *a, *b; float *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { volatile float x = p->a[i], y = p->b[i];
             p->out[3 * i] = x / y; p->out[3 * i + 1] = -x / y; p->out[3 * i + 2] = (x * 0.0f) / (y + 2.0f); }""",
        (Buf("f32", N, gen="special"), Buf("f32", N), Buf("f32", 3 * N, "out")),
    ),
    Case(
        "f64_special",  # FSEL/DFMA with a NaN-pattern immediate (`FSEL R7, R7, -QNAN, P2` is -inf's upper word 0xfff00000): log(0), exp2(big), fmod
        """__global__ void f64_special(const double* x, const double* y, double* out, unsigned long long* bits) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            double v = x[i], w = y[i]; out[4 * i] = log(v); out[4 * i + 1] = log2(v); out[4 * i + 2] = exp2(v); out[4 * i + 3] = expm1(v);
            double r = fmod(v, w); bits[i] = (isnan(v) || isnan(w)) ? 0ull : (unsigned long long)__double_as_longlong(r); }""",
        """struct P { const double *x, *y; double *out; uint64_t *bits; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { double v = p->x[i], w = p->y[i];
             p->out[4 * i] = log(v); p->out[4 * i + 1] = log2(v); p->out[4 * i + 2] = exp2(v); p->out[4 * i + 3] = expm1(v);
             double r = fmod(v, w); uint64_t u; memcpy(&u, &r, 8); p->bits[i] = (isnan(v) || isnan(w)) ? 0 : isnan(r) ? 0xfff8000000000000ull : u; }""",
        (Buf("f64", N, gen="wide"), Buf("f64", N, gen="wide"), Buf("f64", 4 * N, "out"), Buf("i64", N, "out")),
        rtol=1e-15,
    ),
    Case(
        "trig_huge",  # sinf/cosf/tanf past 105615: the Payne-Hanek reduction indexes a local array (gfx1100: see test_emu)
        """__global__ void trig_huge(const float* a, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; float v = ldexpf(a[i], i % 120);
            out[3 * i] = sinf(v); out[3 * i + 1] = cosf(v); out[3 * i + 2] = tanf(v); }""",
        """struct P { const float *a; float *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { float v = ldexpf(p->a[i], i % 120);
             p->out[3 * i] = (float)sin((double)v); p->out[3 * i + 1] = (float)cos((double)v); p->out[3 * i + 2] = (float)tan((double)v); }""",
        (Buf("f32", N), Buf("f32", 3 * N, "out")),
        rtol=2e-6,
    ),
    Case(
        "half_rint",  # FRND.F16[.FLOOR/.CEIL/.TRUNC] of a half lane (H0 or .H1) (sm_80-90): a half, not a float, zero-extended
        """__global__ void half_rint(const unsigned* h, unsigned* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            __half x = __ushort_as_half((unsigned short)h[i]), y = __ushort_as_half((unsigned short)(h[i] >> 16));
            out[2 * i] = __half_as_ushort(hrint(x)) | __half_as_ushort(hfloor(y)) << 16; out[2 * i + 1] = __half_as_ushort(hceil(x)) | __half_as_ushort(htrunc(y)) << 16; }""",
        """struct P { const unsigned *h; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { float x = lane16(p->h[i], 0, 0), y = lane16(p->h[i], 1, 0);
             p->out[2 * i] = h16(rintf(x)) | h16(floorf(y)) << 16; p->out[2 * i + 1] = h16(ceilf(x)) | h16(truncf(y)) << 16; }""",
        (Buf("u32", N, gen="f16x2"), Buf("u32", 2 * N, "out")),
    ),
    Case(
        "half_abs_convert",  # F2I.F16/F2I.BF16 and FRND.F16 of |R| and -R (sm_80-90): the modifier applies (fz r2:216 dropped it)
        """__global__ void half_abs_convert(const unsigned* h, int* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            __half x = __ushort_as_half((unsigned short)h[i]); __nv_bfloat16 y = __ushort_as_bfloat16((unsigned short)(h[i] >> 16));
            bool nan = __hisnan(x) || __hisnan(y); out[4 * i] = __half2int_rz(__habs(x)); out[4 * i + 1] = __half2int_rn(__hneg(x));
            out[4 * i + 2] = nan ? 0 : __float_as_int(__half2float(__habs(x)) + 1.0f);
            out[4 * i + 3] = nan ? 0 : __bfloat162int_rz(__habs(y)) + __half_as_short(htrunc(__hneg(x))); }""",
        """struct P { const unsigned *h; int *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             float x = lane16(p->h[i], 0, 0), y = lane16(p->h[i], 1, 1); int nan = isnan(x) || isnan(y), *o = p->out + 4 * i;
             o[0] = (int)fsat(fabsf(x), 0, -2147483648.0, 2147483647.0); o[1] = (int)fsat(-x, 1, -2147483648.0, 2147483647.0);
             float f = fabsf(x) + 1.0f; int fb; memcpy(&fb, &f, 4); o[2] = nan ? 0 : fb;
             o[3] = nan ? 0 : (int)fsat(fabsf(y), 0, -2147483648.0, 2147483647.0) + (int16_t)h16(truncf(-x)); }""",
        (Buf("u32", N, gen="f16x2"), Buf("i32", 4 * N, "out")),
    ),
    Case(
        "half_min3",  # VHMNMX[.BF16_V2] (sm_90: nvcc's __hmin(__hmin(a, b), c)) and HMNMX2 pairs: NaN, signed zeros per step
        """__global__ void half_min3(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            __half x = __ushort_as_half((unsigned short)a[i]), y = __ushort_as_half((unsigned short)b[i]), z = __ushort_as_half((unsigned short)c[i]);
            __nv_bfloat16 u = __ushort_as_bfloat16((unsigned short)(a[i] >> 16)), v = __ushort_as_bfloat16((unsigned short)(b[i] >> 16)), w = __ushort_as_bfloat16((unsigned short)(c[i] >> 16));
            out[2 * i] = __half_as_ushort(__hmin(__hmin(x, y), z)) | (unsigned)__half_as_ushort(__hmax(__hmax(x, __float2half(2.5f)), z)) << 16;
            out[2 * i + 1] = __bfloat16_as_ushort(__hmin(__hmin(u, v), w)) | (unsigned)__bfloat16_as_ushort(__hmax(__hmax(u, v), w)) << 16; }""",
        """struct P { const unsigned *a, *b, *c; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             uint32_t a = p->a[i], b = p->b[i], c = p->c[i], two = 0x4100;  /* 2.5 as a half */
             uint32_t m = mnmx16(a, 0, b, 0, 0, 1, 0), n = mnmx16(a, 0, two, 0, 0, 0, 0);
             uint32_t u = mnmx16(a, 1, b, 1, 1, 1, 0), v = mnmx16(a, 1, b, 1, 1, 0, 0);
             p->out[2 * i] = mnmx16(m, 0, c, 0, 0, 1, 0) | mnmx16(n, 0, c, 0, 0, 0, 0) << 16;
             p->out[2 * i + 1] = mnmx16(u, 0, c, 1, 1, 1, 0) | mnmx16(v, 0, c, 1, 1, 0, 0) << 16; }""",
        (Buf("u32", N, gen="f16x2"), Buf("u32", N, gen="f16x2"), Buf("u32", N, gen="f16x2"), Buf("u32", 2 * N, "out")),
    ),
    Case(
        "wide_mul_signbits",  # IMAD.WIDE/.HI.U32 of words LLVM 16's back end took for signed 24-bit (0xffffffff, a sign-extended short): its signed v_mul_hi_i32_i24 gave the high word of an unsigned product (the LLVM fixes plugin in opt)
        """__global__ void wide_mul_signbits(const unsigned* in, unsigned* out) { unsigned t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
            unsigned x = in[t] & 7u; unsigned long long y = (unsigned long long)(long long)(short)in[t + n]; unsigned s = (unsigned)(short)in[t + 2 * n];
            out[4 * t] = __umulhi(0xffffffffu, x); out[4 * t + 1] = (unsigned)(((unsigned long long)s * y) >> 32);
            unsigned long long h = __umul64hi(y, (unsigned long long)x); out[4 * t + 2] = (unsigned)h; out[4 * t + 3] = (unsigned)(h >> 32); }""",
        """struct P { const unsigned *in; unsigned *out; } *p = params; unsigned n = gx * bx; for (unsigned t = 0; t < n; t++) {
             unsigned x = p->in[t] & 7u; uint64_t y = (uint64_t)(int64_t)(int16_t)p->in[t + n]; uint32_t s = (uint32_t)(int16_t)p->in[t + 2 * n];
             p->out[4 * t] = (uint32_t)(((uint64_t)0xffffffffu * x) >> 32); p->out[4 * t + 1] = (uint32_t)(((uint64_t)s * y) >> 32);
             unsigned __int128 h = ((unsigned __int128)y * x) >> 64; p->out[4 * t + 2] = (uint32_t)h; p->out[4 * t + 3] = (uint32_t)(h >> 32); }""",
        (Buf("u32", 3 * N, gen="bits"), Buf("u32", 4 * N, "out")),
    ),
    Case(
        "double_to_16",  # F2F.F16.F64 and F2F.BF16.F64 (sm_90; sm_80-89 half and bf16 in software): a double rounded once
        """__global__ void double_to_16(const unsigned* a, unsigned* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            float v = __uint_as_float(a[i]); v = v != v ? 1.5f : v; double d = (double)v * 0x1.8000001p+1;
            out[i] = __half_as_ushort(__double2half(d)) | __bfloat16_as_ushort(__double2bfloat16(d)) << 16; }""",
        """struct P { const unsigned *a; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             float v; memcpy(&v, &p->a[i], 4); v = isnan(v) ? 1.5f : v; double d = (double)v * 0x1.8000001p+1;
             _Float16 hd = (_Float16)d; uint16_t u; memcpy(&u, &hd, 2); p->out[i] = u | d2bf(d) << 16; }""",
        (Buf("u32", N, gen="bits"), Buf("u32", N, "out")),
    ),
    Case(
        "sad_diff",  # VABSDIFF[.U32] (__sad/__usad: |a - b| exact, + c) and VABSDIFF4.U8 with RZ (__vabsdiffu4/s4) (sm_80-90)
        """__global__ void sad_diff(const int* a, const int* b, const int* c, unsigned* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; int x = a[i], y = b[i], z = c[i];
            out[4 * i] = __sad(x, y, (unsigned)z); out[4 * i + 1] = __usad((unsigned)x, (unsigned)y, (unsigned)z);
            out[4 * i + 2] = __vabsdiffu4((unsigned)x, (unsigned)y); out[4 * i + 3] = __vabsdiffs4((unsigned)x, (unsigned)z); }""",
        """struct P { const int *a, *b, *c; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) { int x = p->a[i], y = p->b[i], z = p->c[i];
             uint32_t ux = x, uy = y, uz = z, d4u = 0, d4s = 0; unsigned *o = p->out + 4 * i;
             o[0] = (uint32_t)llabs((long long)x - y) + uz; o[1] = (uint32_t)(ux > uy ? ux - uy : uy - ux) + uz;
             for (int k = 0; k < 4; k++) { int xb = ux >> 8 * k & 255, yb = uy >> 8 * k & 255, xs = (int8_t)xb, zs = (int8_t)(uz >> 8 * k & 255);
               d4u |= (uint32_t)abs(xb - yb) << 8 * k; d4s |= ((uint32_t)abs(xs - zs) & 255) << 8 * k; }
             o[2] = d4u; o[3] = d4s; }""",
        (Buf("i32", N, gen="bits"), Buf("i32", N, gen="bits"), Buf("i32", N, gen="bits"), Buf("u32", 4 * N, "out")),
    ),
    Case(
        "half_sat",  # HADD2/HMUL2/HFMA2[.MMA].SAT (sm_80-90): the half result clamped to [+0, 1], NaN to +0
        """__global__ void half_sat(const unsigned* a, const unsigned* b, unsigned* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; __half2 x, y; memcpy(&x, &a[i], 4); memcpy(&y, &b[i], 4);
            __half p = __low2half(x), q = __low2half(y), r = __high2half(x);
            out[3 * i] = __half_as_ushort(__hadd_sat(p, q)) | __half_as_ushort(__hmul_sat(p, r)) << 16;
            out[3 * i + 1] = __half_as_ushort(__hfma_sat(p, q, r)) | __half_as_ushort(__hsub_sat(r, q)) << 16;
            __half2 s = __hadd2_sat(x, y); memcpy(&out[3 * i + 2], &s, 4); }""",
        """struct P { const unsigned *a, *b; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             double x0 = lane16(p->a[i], 0, 0), x1 = lane16(p->a[i], 1, 0), y0 = lane16(p->b[i], 0, 0), y1 = lane16(p->b[i], 1, 0);
             p->out[3 * i] = hsat(x0 + y0) | hsat(x0 * x1) << 16; p->out[3 * i + 1] = hsat(fma(x0, y0, x1)) | hsat(x1 - y0) << 16;
             p->out[3 * i + 2] = hsat(x0 + y0) | hsat(x1 + y1) << 16; }""",
        (Buf("u32", N, gen="f16s"), Buf("u32", N, gen="f16s"), Buf("u32", 3 * N, "out")),
    ),
    Case(
        "bf16_compare",  # HSETP2.BF16_V2 / HSET2.BF16_V2.BF (sm_90): bfloat16 lanes compared (ordered, unordered), 1.0 as 0x3f80
        """__global__ void bf16_compare(const unsigned* a, const unsigned* b, int* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; __nv_bfloat162 x, y; memcpy(&x, &a[i], 4); memcpy(&y, &b[i], 4);
            __nv_bfloat16 p = __low2bfloat16(x), q = __low2bfloat16(y), r = __high2bfloat16(x), t = __high2bfloat16(y);
            out[2 * i] = __heq(p, q) | __hne(r, t) << 1 | __hgt(p, t) << 2 | __hltu(r, q) << 3 | __hge(p, r) << 4 | __hequ(q, t) << 5;
            __nv_bfloat162 m = __hle2(x, y); unsigned u; memcpy(&u, &m, 4); out[2 * i + 1] = (int)(u ^ __hbgt2(x, y) << 3); }""",
        """struct P { const unsigned *a, *b; int *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             float P_ = lane16(p->a[i], 0, 1), Q = lane16(p->b[i], 0, 1), R = lane16(p->a[i], 1, 1), T = lane16(p->b[i], 1, 1);
             p->out[2 * i] = (P_ == Q) | (R < T || R > T) << 1 | (P_ > T) << 2 | !(R >= Q) << 3 | (P_ >= R) << 4 | !(Q < T || Q > T) << 5;
             uint32_t u = (P_ <= Q ? 0x3f80u : 0) | (R <= T ? 0x3f80u : 0) << 16; p->out[2 * i + 1] = (int)(u ^ (uint32_t)(P_ > Q && R > T) << 3); }""",
        (Buf("u32", N, gen="bf16s"), Buf("u32", N, gen="bf16s"), Buf("i32", 2 * N, "out")),
    ),
    Case(
        "half_nan_vote",  # HSETP2.NAN into BAR.RED.OR / VOTE: gfx1100's llc-16 cannot select a ballot of `fcmp uno half` (opt's narrowing), so NaN tests are on bits
        """__global__ void half_nan_vote(const unsigned* a, unsigned* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;
            __half2 v; memcpy(&v, &a[i], 4); int any = __syncthreads_or(__hisnan(__low2half(v)));
            unsigned m = __ballot_sync(0xffffffffu, !__hisnan(__high2half(v))); out[2 * i] = any; out[2 * i + 1] = m; }""",
        """struct P { const unsigned *a; unsigned *out; } *p = params; for (unsigned blk = 0; blk < gx; blk++) { int any = 0;
             for (unsigned t = 0; t < bx; t++) any |= isnan(lane16(p->a[blk * bx + t], 0, 0));
             for (unsigned t = 0; t < bx; t++) { unsigned i = blk * bx + t, w = i & ~31u, m = 0;
               for (unsigned l = 0; l < 32; l++) m |= (unsigned)!isnan(lane16(p->a[w + l], 1, 0)) << l; p->out[2 * i] = any; p->out[2 * i + 1] = m; } }""",
        (Buf("u32", N, gen="f16s"), Buf("u32", 2 * N, "out")),
    ),
    Case(
        "lea_sub64",  # LEA / LEA.HI with a negated source and a carry out (64-bit b - (a << s)): -x is ~x + 1 in the adder, so x == 0 carries (small inputs: many zeros)
        """__global__ void lea_sub64(const long long* a, const unsigned* b, unsigned long long* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; long long v = a[i]; unsigned x = b[i];
            out[4 * i] = 65535ull - (unsigned long long)(v + v); out[4 * i + 1] = (unsigned long long)(x >> 4) - ((unsigned long long)x << 2);
            out[4 * i + 2] = (unsigned long long)x - ((unsigned long long)v << 5); out[4 * i + 3] = ((unsigned long long)v << 3) - x; }""",
        """struct P { const long long *a; const unsigned *b; uint64_t *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             uint64_t v = (uint64_t)p->a[i], x = p->b[i]; uint64_t *o = p->out + 4 * i;
             o[0] = 65535u - (v + v); o[1] = (x >> 4) - (x << 2); o[2] = x - (v << 5); o[3] = (v << 3) - x; }""",
        (Buf("i64", N, gen="small"), Buf("u32", N, gen="small"), Buf("i64", 4 * N, "out")),
    ),
    Case(
        "float_sat_zero",  # FMUL/FADD/FFMA.SAT: a -0 result saturates to +0 (__saturatef clamps to [+0, 1]); a's specials hold -0
        """__global__ void float_sat_zero(const float* a, const float* b, unsigned* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x; float x = a[i], y = b[i];
            out[3 * i] = __float_as_uint(__saturatef(__fmul_rn(x, y))); out[3 * i + 1] = __float_as_uint(__saturatef(__fadd_rn(x, x)));
            out[3 * i + 2] = __float_as_uint(__saturatef(__fmaf_rn(x, y, -0.0f))); }""",
        """struct P { const float *a, *b; unsigned *out; } *p = params; for (int i = 0; i < (int)(gx * bx); i++) {
             float x = p->a[i], y = p->b[i], r[3] = {x * y, x + x, fmaf(x, y, -0.0f)};
             for (int k = 0; k < 3; k++) { float s = r[k] > 0.0f ? fminf(r[k], 1.0f) : 0.0f; memcpy(&p->out[3 * i + k], &s, 4); } }""",
        (Buf("f32", N, gen="special"), Buf("f32", N), Buf("u32", 3 * N, "out")),
    ),
    Case(
        "loop_uniform_mask",  # a uniform test (blockDim) inside a divergent loop: llc-16's pre-RA exec-mask pass branched on the mask made before the loop without keeping it live around the back edge, and the division's slow path reused its SGPR (fuzz r3:1640). The dead funnel shift keeps nvcc's loop shape; the square root's slow path is a second subroutine
        """__global__ void loop_uniform_mask(const unsigned* in, unsigned* out) {
            unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
            double d = __longlong_as_double((long long)((unsigned long long)in[(i + 361u) & 1023u] << 32 | in[(i + 362u) & 1023u]));
            unsigned v = in[i], n = v & 7u;
            for (unsigned k = 0; k < n; ++k) {
              v = t * (in[(unsigned)(d >= -0x1p63 && d < 0x1p63 ? (long long)d : 0ll) & 1023u] << (blockDim.x & 31u));
              if (26u <= blockDim.x) {
                unsigned m = v & 7u, j = 0;
                do { unsigned dead = __funnelshift_l(v, j, t & 31u); v = in[k]; } while (++j < m);
                d = d / d;
              }
            }
            out[2 * i] = v; out[2 * i + 1] = __float_as_uint(sqrtf((float)(in[(i * 5u + 533u) & 1023u] >> 8))); }""",
        """struct P { const unsigned *in; unsigned *out; } *p = params; for (unsigned i = 0; i < gx * bx; i++) {
             unsigned v = p->in[i], n = v & 7u; float s = sqrtf((float)(p->in[(i * 5u + 533u) & 1023u] >> 8));
             p->out[2 * i] = n ? p->in[n - 1] : v; memcpy(&p->out[2 * i + 1], &s, 4); }""",
        (Buf("u32", 1024, gen="bits"), Buf("u32", 2 * N, "out")),
    ),
]
