"""<cuda_fp16.h> on HIP 5.2, whose hip_fp16.h has __half operators for the device only and no
__hmax/__hmin: translations carry prelude_fp16.h. Host code using __half (a CPU reference, as
in HeCBench's fma) is built by cass-cc and run here; __hmax/__hmin and __half shuffles run on
the gfx1100 emulator. References come from numpy's float16."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from cass_cc.translate.base import Target
from cass_cc.translate.identity import rules_identity
from cass_cc.translate.rules import RulesTranslator
from cass_cc.util import sha256_hex
from tests.conftest import SHARED_CACHE, built_once
from tests.emu.conftest import needs_amd
from tests.translate.conftest import cass_cc_build, kernel_named

HOST = r"""
#include <cstdio>
#include <cuda_fp16.h>
template <class T> T combine(T a, T b) { T c = a * b; c += a; c -= b / a; return -c; }
int main() {
  const unsigned short bits[] = {BITS};
  for (unsigned short x : bits) for (unsigned short y : bits) {
    __half a = __ushort_as_half(x), b = __ushort_as_half(y);
    __half r[5] = {a + b, a - b, a * b, a / b, __hfma(a, b, a)};
    printf("%04x %04x %04x %04x %04x %d%d%d%d %04x\n", __half_as_ushort(r[0]), __half_as_ushort(r[1]),
           __half_as_ushort(r[2]), __half_as_ushort(r[3]), __half_as_ushort(r[4]), a < b, a == b, a >= b,
           __hgt(a, b), __half_as_ushort(combine(a, b)));
  }
  return 0;
}
"""

DEVICE = r"""
#include <cuda_fp16.h>
__global__ void minmax(const unsigned short* a, const unsigned short* b, unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]);
  out[6 * i + 0] = __half_as_ushort(__hmax(x, y));
  out[6 * i + 1] = __half_as_ushort(__hmin(x, y));
  out[6 * i + 2] = __half_as_ushort(__hmax_nan(x, y));
  out[6 * i + 3] = __half_as_ushort(__hmin_nan(x, y));
  __half2 p = __hmax2(__halves2half2(x, y), __halves2half2(y, x));
  __half2 q = __hmin2_nan(__halves2half2(x, y), __halves2half2(y, x));
  out[6 * i + 4] = __half_as_ushort(__high2half(p));
  out[6 * i + 5] = __half_as_ushort(__low2half(q));
}
__global__ void shuffle(const unsigned short* a, unsigned short* out) {
  int i = threadIdx.x;
  __half x = __ushort_as_half(a[i]);
  out[2 * i] = __half_as_ushort(__shfl_xor_sync(0xffffffffu, x, 1));
  __half2 s = __shfl_down_sync(0xffffffffu, __halves2half2(x, __hneg(x)), 2);
  out[2 * i + 1] = __half_as_ushort(__high2half(s));
}
"""

# ones, halves, the largest finite, the smallest subnormal, a normal near the subnormal edge,
# values whose products and quotients round
OPERANDS = [0x3C00, 0xC000, 0x3555, 0x7BFF, 0x0001, 0x8400, 0x4B00, 0x2E66, 0x3801, 0xB7FF, 0x5140]


def test_translation_serves_fp16_on_hip_52() -> None:
    out = RulesTranslator().translate(DEVICE, "fp16.cu", Target(hip_version=(5, 2)))
    assert not out.diagnostics, [d.message for d in out.diagnostics]
    assert "#define CASS_FP16_PRELUDE" in out.text and '#pragma clang diagnostic ignored "-Wunused-function"' in out.text
    assert "__hmax(x, y)" in out.text.split("#line 1")[-1]
    newer = RulesTranslator().translate(DEVICE, "fp16.cu", Target(hip_version=(7, 0)))
    assert "CASS_FP16_PRELUDE" not in newer.text
    assert [d.message for d in newer.diagnostics if d.severity != "note"] == ["'__hmin2_nan' is not supported by HIP 7.0"]


def test_half2_members_are_flagged() -> None:
    """HIP's __half2 .x/.y are raw bits: a read of them is a warning, naming the expression."""
    source = (
        "#include <cuda_fp16.h>\n"
        "__global__ void k(const half2* __restrict__ in, float* out, float2 f) {\n"
        "  __half2 sum = in[0];  // sum.x in a comment is not a use\n"
        "  out[0] = __half2float(sum.x) + __half2float(in[1].y) + f.x;\n"
        "}\n")
    out = RulesTranslator().translate(source, "h2.cu", Target(hip_version=(5, 2)))
    flagged = [(d.line, d.message.split(":")[0]) for d in out.diagnostics if d.severity == "warning"]
    assert flagged == [(4, "'sum.x'"), (4, "'in[1].y'")], out.diagnostics
    assert not RulesTranslator().translate(source.replace("sum.x", "__low2half(sum)").replace("in[1].y", "__high2half(in[1])"),
                                           "h2.cu", Target(hip_version=(5, 2))).diagnostics


def _f16(bits: int) -> np.float16:
    return np.array([bits], np.uint16).view(np.float16)[0]


def _bits(v: np.float16) -> int:
    return int(np.array([v], np.float16).view(np.uint16)[0])


@needs_amd
def test_host_half_arithmetic_rounds_like_numpy(tmp_path: Path) -> None:
    source = HOST.replace("BITS", ", ".join(f"0x{b:04x}" for b in OPERANDS))
    key = sha256_hex(source, rules_identity())[:20]  # the identity covers prelude_fp16.h
    exe = built_once(SHARED_CACHE / "fp16", "host", key, lambda p: cass_cc_build(source, p, "-O2"))
    lines = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    got = [lines[k:k + 7] for k in range(0, len(lines), 7)]
    want = []
    with np.errstate(all="ignore"):
        for x in OPERANDS:
            for y in OPERANDS:
                a, b = _f16(x), _f16(y)
                fma = np.float16(np.float64(a) * np.float64(b) + np.float64(a))  # exact in double here
                c = a * b
                c = np.float16(c + a)
                c = np.float16(c - np.float16(b / a))
                relations = f"{int(a < b)}{int(a == b)}{int(a >= b)}{int(a > b)}"
                want.append([f"{_bits(v):04x}" for v in (a + b, a - b, a * b, a / b, fma)] + [relations, f"{_bits(-c):04x}"])
    bad = [(f"{x:04x}", f"{y:04x}", g, w) for (x, y), g, w in
           zip(((x, y) for x in OPERANDS for y in OPERANDS), got, want) if g != w]
    assert len(got) == len(OPERANDS) ** 2 and not bad, bad[:4]


@pytest.fixture(scope="module")
def code_object() -> Path:
    from cass_cc.emu import load

    key = sha256_hex(DEVICE, rules_identity())[:20]
    return load(built_once(SHARED_CACHE / "fp16", "fp16.co", key, lambda p: cass_cc_build(DEVICE, p, "-cubin", "-arch=sm_80")))


@needs_amd
def test_hmax_hmin_and_nan_forms(code_object) -> None:  # type: ignore[no-untyped-def]
    from cass_cc.emu import launch

    rng = np.random.default_rng(21)
    nan, one, neg = 0x7E00, 0x3C00, 0xC500
    a = np.concatenate([rng.integers(0, 0x7C00, 120) | (rng.integers(0, 2, 120) << 15), [nan, one, nan, neg]]).astype(np.uint16)
    b = np.concatenate([rng.integers(0, 0x7C00, 120) | (rng.integers(0, 2, 120) << 15), [one, nan, nan, neg]]).astype(np.uint16)
    n = a.size
    out = launch(code_object, kernel_named(code_object, "minmax"), (n + 63) // 64, 64, [a, b, np.zeros(6 * n, np.uint16), n])[2]
    x, y = a.view(np.float16), b.view(np.float16)
    got = out.view(np.float16).reshape(n, 6)
    want = np.stack([np.fmax(x, y), np.fmin(x, y), np.maximum(x, y), np.minimum(x, y), np.fmax(x, y), np.minimum(x, y)], 1)
    same = (got == want) | (np.isnan(got) & np.isnan(want))  # +0 and -0 count as equal
    assert same.all(), [(hex(a[i]), hex(b[i]), got[i], want[i]) for i in np.nonzero(~same.all(1))[0][:3]]


@needs_amd
def test_shuffles_move_half_and_pairs(code_object) -> None:  # type: ignore[no-untyped-def]
    from cass_cc.emu import launch

    a = np.random.default_rng(22).integers(0, 0x7C00, 32).astype(np.uint16)
    out = launch(code_object, kernel_named(code_object, "shuffle"), 1, 32, [a, np.zeros(64, np.uint16)])[1]
    assert [int(v) for v in out[0::2]] == [int(a[i ^ 1]) for i in range(32)]
    # lane i reads lane i + 2's pair (x, -x); the last two lanes keep their own
    assert [int(v) for v in out[1::2]] == [int(a[i + 2 if i < 30 else i]) ^ 0x8000 for i in range(32)]


RN = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
// __h*_rn: the plain operation, never contracted with the add after it into a fused multiply-add
__global__ void rn(const __half* h, const __nv_bfloat16* b, float* out) {
  out[0] = __half2float(__hadd(__hmul_rn(h[0], h[1]), h[2]));
  out[1] = __half2float(__hfma(h[0], h[1], h[2]));
  out[2] = __half2float(__hsub_rn(h[0], h[1])) + __half2float(__hadd_rn(h[0], h[1]));
  __half2 p = __hmul2_rn(__halves2half2(h[0], h[1]), __halves2half2(h[1], h[0]));
  out[3] = __half2float(__low2half(p)) - __half2float(__high2half(p));
  out[4] = __bfloat162float(__hadd(__hmul_rn(b[0], b[1]), b[2]));
}
"""


@needs_amd
def test_rn_functions_round_each_step(tmp_path: Path) -> None:
    from cass_cc.emu import launch, load

    key = sha256_hex(RN, rules_identity())[:20]
    co = load(built_once(SHARED_CACHE / "fp16", "rn.co", key, lambda p: cass_cc_build(RN, p, "-cubin", "-arch=sm_80")))
    one = 1 + 2.0 ** -10  # one * one = 1 + 2^-9 + 2^-20: the 2^-20 is lost when the product is rounded
    h = np.array([one, one, -(1 + 2.0 ** -9)], np.float16)
    bf = 1 + 2.0 ** -7
    b = (np.array([bf, bf, -(1 + 2.0 ** -6)], np.float32).view(np.uint32) >> 16).astype(np.uint16)
    out = launch(co, kernel_named(co, "rn"), 1, 1, [h, b, np.zeros(5, np.float32)])[2]
    assert out[0] == 0.0  # rounded product, then the add: no fma
    assert out[1] == 2.0 ** -20  # the fused one keeps it (the two differ on these inputs)
    assert out[2] == float(np.float16(one + one))
    assert out[3] == 0.0
    assert out[4] == 0.0
