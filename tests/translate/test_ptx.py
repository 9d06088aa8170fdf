"""Inline PTX rewrites (ptx.py): the text each idiom becomes, line preservation, the
helpers' exact PTX semantics (checked on the host against the PTX ISA's definitions), and
a HIP program using the rewrites compiled for gfx1100."""
from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.translate.base import Target
from cass_cc.translate.lexer import tokenize
from cass_cc.translate.prelude import prelude
from cass_cc.translate.ptx import PTX_HELPERS, AsmRewrite, _literal, lop3_expr, rewrite_asm

W32 = Target((5, 2), 32)


def rewrite(source: str, target: Target = W32) -> AsmRewrite:
    tokens = tokenize(source)
    i = next(k for k, t in enumerate(tokens) if t.text in ("asm", "__asm__", "__asm"))
    result = rewrite_asm(tokens, i, target)
    assert result is not None
    assert result.text.count("\n") == "".join(t.text for t in tokens[i:result.end]).count("\n")
    assert tokens[result.end - 1].text == ")"
    return result


CASES = [
    ('asm("mov.u32 %0, %%laneid;" : "=r"(lane));', "(lane) = __lane_id()"),
    ('asm volatile("mov.u32 %0, %%clock;" : "=r"(t));', "(t) = ((unsigned int)clock64())"),
    ('asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));', "(t) = ((unsigned long long)clock64())"),
    ('asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));', "(m) = ((1u << __lane_id()) - 1u)"),
    ('asm("mov.u32 %0, %%tid.x;" : "=r"(t));', "(t) = threadIdx.x"),
    ('asm("mov.b32 %0, %1;" : "=f"(f) : "r"(u));', "(f) = __builtin_bit_cast(float, ((unsigned int)(u)))"),
    ('asm("mov.b64 %0, {%1,%2};" : "=l"(v) : "r"(lo), "r"(hi));',
     "(v) = (((unsigned long long)((unsigned int)(hi)) << 32) | (unsigned long long)((unsigned int)(lo)))"),
    ('asm("mov.b64 {%0,%1}, %2;" : "=r"(lo), "=r"(hi) : "l"(v));',
     "do { unsigned int __cass_p0 = 0; unsigned int __cass_p1 = 0; unsigned long long __cass_p2 = (unsigned long long)(v);"
     " __cass_p0 = ((unsigned int)__cass_p2); __cass_p1 = ((unsigned int)(__cass_p2 >> 32));"
     " (lo) = __cass_p0; (hi) = __cass_p1; } while (0)"),
    ('asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(v), "r"(src), "r"(0x1f), "r"(0xffffffff));',
     "(r) = __shfl(((unsigned int)(v)), (int)(((unsigned int)(src)) & 31), 32)"),
    ('asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(v), "r"(16), "r"(0x1f), "r"(-1));',
     "(r) = __shfl_xor(((unsigned int)(v)), (int)16u, 32)"),
    ('asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x101f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(d));',
     "(r) = __shfl_down(((unsigned int)(v)), (((unsigned int)(d)) & 31u), 16)"),
    ('asm volatile("shfl.sync.up.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(v), "r"(1), "r"(0x1800), "r"(m));',
     "(r) = __shfl_up(((unsigned int)(v)), 1u, 8)"),
    ('asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0x5410));',
     "(r) = __cass_prmt(((unsigned int)(a)), ((unsigned int)(b)), ((unsigned int)(0x5410)))"),
    ('asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(p), "r"(n));',
     "(r) = __cass_bfe_s32(((unsigned int)(a)), ((unsigned int)(p)), ((unsigned int)(n)))"),
    ('asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(p), "r"(n));',
     "(r) = __cass_bfi_b32(((unsigned int)(a)), ((unsigned int)(b)), ((unsigned int)(p)), ((unsigned int)(n)))"),
    ('asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));',
     "(r) = (((unsigned int)(a)) ^ (((unsigned int)(b)) ^ ((unsigned int)(c))))"),
    ('asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "r"(lut));',
     "(r) = __cass_lop3(((unsigned int)(a)), ((unsigned int)(b)), ((unsigned int)(c)), ((unsigned int)(lut)))"),
    ('asm volatile("ld.global.nc.f32 %0, [%1+4];" : "=f"(x) : "l"(p));',
     "(x) = ((const float*)(((unsigned long long)(p)) + 4))[0]"),
    ('asm volatile("ld.global.cg.L2::128B.u32 %0, [%1];" : "=r"(x) : "l"(p));',
     "(x) = ((const unsigned int*)((unsigned long long)(p)))[0]"),
    ('asm volatile("st.global.cs.u32 [%0], %1;" :: "l"(p), "r"(v));',
     "((unsigned int*)((unsigned long long)(p)))[0] = ((unsigned int)(v))"),
    ('asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));',
     "(h) = __builtin_bit_cast(unsigned short, (_Float16)((float)(f)))"),
    ('asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));',
     "(f) = ((float)__builtin_bit_cast(_Float16, ((unsigned short)(h))))"),
    ('asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(i) : "f"(f));',
     "(i) = ((unsigned int)__cass_f2i_s32(__builtin_truncf(((float)(f)))))"),
    ('asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c));',
     "(d) = __builtin_fmaf(((float)(a)), ((float)(b)), ((float)(c)))"),
    ('asm("add.rn.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));', "(d) = __cass_add_rn(((float)(a)), ((float)(b)))"),
    ('asm("mul.wide.u32 %0, %1, %2;" : "=l"(d) : "r"(a), "r"(b));',
     "(d) = ((unsigned long long)((unsigned int)(a)) * (unsigned long long)((unsigned int)(b)))"),
    ('asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));',
     "(d) = (((unsigned int)(a)) * ((unsigned int)(b)) + ((unsigned int)(c)))"),
    ('asm("add.s16 %0, %1, %2;" : "=h"(d) : "h"(a), "h"(b));',
     "(d) = ((unsigned int)((unsigned short)(a)) + (unsigned int)((unsigned short)(b)))"),
    ('asm("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));',
     "(d) = __umulhi(((unsigned int)(a)), ((unsigned int)(b)))"),
    ('asm volatile("@%1 st.global.u32 [%0], %2;" :: "l"(p), "r"(c), "r"(v));',
     "do { unsigned long long __cass_p0 = (unsigned long long)(p); unsigned int __cass_p1 = (unsigned int)(c);"
     " unsigned int __cass_p2 = (unsigned int)(v); if (((bool)__cass_p1)) { ((unsigned int*)__cass_p0)[0] = __cass_p2; } } while (0)"),
    ('asm volatile("bar.sync 0;");', "__syncthreads()"),
    ('asm volatile("membar.gl;" ::: "memory");', "__threadfence()"),
    ('asm volatile("membar.cta;" ::: "memory");', "__threadfence_block()"),
    ('asm volatile("fence.acq_rel.gpu;" ::: "memory");', "__threadfence()"),
    ('asm volatile("activemask.b32 %0;" : "=r"(m));', "(m) = ((unsigned int)__ballot(1))"),
    ('asm("popc.b32 %0, %1;" : "=r"(n) : "r"(x));', "(n) = ((unsigned int)__popc(((unsigned int)(x))))"),
    ('asm("clz.b32 %0, %1;" : "=r"(n) : "r"(x));', "(n) = ((unsigned int)__clz((int)((unsigned int)(x))))"),
    ('asm("brev.b32 %0, %1;" : "=r"(n) : "r"(x));', "(n) = __brev(((unsigned int)(x)))"),
    ('asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }" : "=r"(b) : "r"(x));',
     "do { unsigned int __cass_p0 = 0; unsigned int __cass_p1 = (unsigned int)(x); bool __cass_t_p = 0;"
     " __cass_t_p = (__cass_p1 != ((unsigned int)0x0u)); __cass_p0 = ((unsigned int)__ballot(__cass_t_p));"
     " (b) = __cass_p0; } while (0)"),
]


@pytest.mark.parametrize(("source", "expected"), CASES, ids=[c[0][4:50] for c in CASES])
def test_rewrite(source: str, expected: str) -> None:
    result = rewrite(source)
    assert result.supported, result.diagnostics
    assert result.text == expected
    assert result.helpers == {h for h in PTX_HELPERS if h in expected}


UNSUPPORTED = [
    ('asm("mov.u32 %0, %%warpid;" : "=r"(w));', "mov.u32 %0, %warpid"),
    ('asm("mov.u32 %0, %%smid;" : "=r"(w));', "mov.u32 %0, %smid"),
    ('asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(a));', "ld.shared.u32 %0, [%1]"),
    ('asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(s), "l"(g));', "cp.async.ca.shared.global [%0], [%1], 16"),
    ('asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, {%1}, {%2}, {%3};" : "=f"(d) : "r"(a), "r"(b), "f"(c));',
     "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, {%1}, {%2}, {%3}"),
    ('asm("mov.u32 %0, %%laneid; tanh.approx.f32 %1, %1;" : "=r"(l), "+f"(x));', "tanh.approx.f32 %1, %1"),
    ('asm("shfl.sync.idx.b32 %0|%1, %2, %3, %4, %5;" : "=r"(r), "=r"(p) : "r"(v), "r"(s), "r"(31), "r"(m));',
     "shfl.sync.idx.b32 %0|%1, %2, %3, %4, %5"),
    ('asm("min.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));', "min.f32 %0, %1, %2"),
    ('asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));', "prmt.b32.f4e %0, %1, %2, %3"),
    ('asm("add.ftz.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));', "add.ftz.f32 %0, %1, %2"),
    ('asm(PTX_STRING : "=r"(x));', "PTX_STRING"),
]


@pytest.mark.parametrize(("source", "shown"), UNSUPPORTED, ids=[u[1][:40] for u in UNSUPPORTED])
def test_unsupported_keeps_text_and_warns(source: str, shown: str) -> None:
    tokens = tokenize("\n  " + source)
    i = next(k for k, t in enumerate(tokens) if t.text == "asm")
    result = rewrite_asm(tokens, i, W32)
    assert result is not None and not result.supported
    assert result.text == source[: source.rindex(")") + 1]
    assert [(d.line, d.column, d.severity) for d in result.diagnostics] == [(2, 3, "warning")]
    assert result.diagnostics[0].message == (
        f"inline PTX '{shown}' has no HIP rewrite; needs the model translator (--model ID_OR_PATH)")


def test_not_an_asm_statement() -> None:
    tokens = tokenize("int asm_count; x = y;")
    assert rewrite_asm(tokens, 0, W32) is None
    tokens = tokenize("__asm__ x;")
    assert rewrite_asm(tokens, 0, W32) is None


def test_lines_kept_in_multiline_statement_and_macro() -> None:
    source = ('asm volatile(\n  "mov.u32 %0, %%laneid;"\n  : "=r"(lane)\n  :\n);')
    result = rewrite(source)
    assert result.text == "(lane) = __lane_id()\n\n\n\n"
    macro = '#define LANE(x) asm("mov.u32 %0, %%laneid;" \\\n  : "=r"(x))\nint y;'
    result = rewrite(macro)
    assert result.text == "(x) = __lane_id()\\\n"
    tokens = tokenize(macro)
    i = next(k for k, t in enumerate(tokens) if t.text == "asm")
    out = "".join(t.text for t in tokens[:i]) + result.text + "".join(t.text for t in tokens[result.end:])
    assert out == "#define LANE(x) (x) = __lane_id()\\\n\nint y;"


def test_concatenated_strings_and_blocks() -> None:
    source = ('asm("{\\n\\t.reg .u32 t;\\n\\t"\n    "mov.u32 t, %%laneid;\\n\\t"\n'
              '    "add.u32 %0, t, %1;\\n\\t}" : "=r"(r) : "r"(base));')
    result = rewrite(source)
    assert result.supported
    assert result.text == (
        "do { unsigned int __cass_p0 = 0; unsigned int __cass_p1 = (unsigned int)(base); unsigned int __cass_t_t = 0;"
        " __cass_t_t = __lane_id(); __cass_p0 = (__cass_t_t + __cass_p1); (r) = __cass_p0; } while (0)\n\n")


def test_wave64_keeps_32_lane_warps() -> None:
    result = rewrite('asm("mov.u32 %0, %%laneid;" : "=r"(l));', Target((5, 2), 64))
    assert result.text == "(l) = (__lane_id() & 31u)"
    result = rewrite('asm("activemask.b32 %0;" : "=r"(m));', Target((5, 2), 64))
    assert result.text == "(m) = ((unsigned int)(__ballot(1) >> (__lane_id() & 32u)))"


def test_globaltimer_is_rewritten_with_a_warning() -> None:
    result = rewrite('asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));')
    assert result.supported and result.text == "(t) = __cass_globaltimer()"
    assert [d.severity for d in result.diagnostics] == ["warning"]


def test_prelude_emits_the_helpers() -> None:
    result = rewrite('asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));')
    assert "__cass_prmt(unsigned int a" in prelude(set(result.helpers))


# -- exact semantics, from the PTX ISA's pseudo-code ------------------------------------------
def ref_prmt(a: int, b: int, c: int) -> int:
    x = (b << 32) | a
    r = 0
    for i in range(4):
        s = (c >> (4 * i)) & 0xF
        v = (x >> (8 * (s & 7))) & 0xFF
        if s & 8:
            v = 0xFF if v & 0x80 else 0
        r |= v << (8 * i)
    return r


def ref_bfe(a: int, b: int, c: int, bits: int, signed: bool) -> int:
    msb = bits - 1
    pos, length = b & 0xFF, c & 0xFF
    sbit = 0 if not signed or length == 0 else (a >> min(pos + length - 1, msb)) & 1
    d = 0
    for i in range(bits):
        bit = (a >> (pos + i)) & 1 if i < length and pos + i <= msb else sbit
        d |= bit << i
    return d


def ref_bfi(a: int, b: int, c: int, d: int, bits: int) -> int:
    pos, length = c & 0xFF, d & 0xFF
    f = b
    i = 0
    while i < length and pos + i <= bits - 1:
        f = (f & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
        i += 1
    return f


def ref_lop3(a: int, b: int, c: int, lut: int) -> int:
    r = 0
    for i in range(32):
        idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1)
        r |= ((lut >> idx) & 1) << i
    return r


def test_lop3_expressions_for_every_lut() -> None:
    rng = random.Random(3)
    for lut in range(256):
        expr = lop3_expr(lut)
        for _ in range(8):
            a, b, c = rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)
            got = eval(expr, {}, {"a": a, "b": b, "c": c}) & 0xFFFFFFFF  # C and Python share &|^~
            assert got == ref_lop3(a, b, c, lut), (hex(lut), expr)


def _interesting(rng: random.Random, bits: int) -> int:
    return rng.choice([rng.getrandbits(bits), rng.getrandbits(8), bits - rng.getrandbits(3), rng.getrandbits(6)])


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def ref_vabsdiff4_add(a: int, b: int, c: int, signed: bool) -> int:
    """PTX ISA vabsdiff4 with .add: c + sum over the byte lanes of |a_i - b_i|."""
    def lane(v: int, i: int) -> int:
        x = (v >> (8 * i)) & 0xFF
        return x - 256 if signed and x & 0x80 else x
    return (c + sum(abs(lane(a, i) - lane(b, i)) for i in range(4))) & 0xFFFFFFFF


def test_helpers_match_ptx_semantics(tmp_path: Path) -> None:
    rng = random.Random(11)
    calls: list[tuple[str, list[int], int]] = []
    for _ in range(300):
        a, b = rng.getrandbits(32), rng.getrandbits(32)
        c = rng.choice([rng.getrandbits(16), rng.getrandbits(32)])
        calls.append(("__cass_prmt", [a, b, c], ref_prmt(a, b, c)))
        calls.append(("__cass_lop3", [a, b, c, c & 0xFF], ref_lop3(a, b, c, c & 0xFF)))
        for t in "us":
            calls.append((f"__cass_vabsdiff4_add_{t}", [a, b, c], ref_vabsdiff4_add(a, b, c, t == "s")))
        for bits in (32, 64):
            x, y = rng.getrandbits(bits), rng.getrandbits(bits)
            p, n = _interesting(rng, bits), _interesting(rng, bits)
            mask = (1 << bits) - 1
            calls.append((f"__cass_bfe_u{bits}", [x, p, n], ref_bfe(x, p, n, bits, False)))
            calls.append((f"__cass_bfe_s{bits}", [x, p, n], ref_bfe(x, p, n, bits, True) & mask))
            calls.append((f"__cass_bfi_b{bits}", [x, y, p, n], ref_bfi(x, y, p, n, bits) & mask))
    names = ["__cass_prmt", "__cass_lop3", "__cass_vabsdiff4_add_u", "__cass_vabsdiff4_add_s"]
    names += [f"__cass_{k}{bits}" for k in ("bfe_u", "bfe_s", "bfi_b") for bits in (32, 64)]
    program = ["#include <cstdio>", "#include <cstring>", "#define __host__", "#define __device__"]
    program += [PTX_HELPERS[n] for n in names]
    program += [PTX_HELPERS[f"__cass_f2i_{t}"] for t in ("s32", "u32", "s64", "u64")]
    program.append("int main() { char name[32]; unsigned long long v[4]; int k;")
    program.append(" while (scanf(\"%31s %d %llu %llu %llu %llu\", name, &k, v, v + 1, v + 2, v + 3) == 6) {")
    for n in names:
        args = ", ".join(f"v[{j}]" for j in range(4 if n.startswith(("__cass_bfi", "__cass_lop3")) else 3))
        program.append(f'  if (!strcmp(name, "{n}")) printf("%llu\\n", (unsigned long long)({n}({args})));')
    program.append(" }")
    # float -> integer: NaN gives 0, out of range saturates (PTX cvt)
    program.append(' printf("%d %d %d %u %u %lld %llu\\n", __cass_f2i_s32(0.0 / 0.0), __cass_f2i_s32(3e9),'
                   " __cass_f2i_s32(-3e9), __cass_f2i_u32(-1.0), __cass_f2i_u32(5e9), __cass_f2i_s64(-1e30),"
                   " __cass_f2i_u64(1e30));")
    program.append(" return 0; }")
    (tmp_path / "ptx.cpp").write_text("\n".join(program))
    subprocess.run(["g++", "-O1", "-w", "-o", str(tmp_path / "ptx"), str(tmp_path / "ptx.cpp")], check=True)
    stdin = "".join(f"{n} 0 {' '.join(map(str, (args + [0, 0])[:4]))}\n" for n, args, _ in calls)
    out = subprocess.run([str(tmp_path / "ptx")], input=stdin, capture_output=True, text=True, check=True).stdout.split("\n")
    got = out[: len(calls)]
    mismatches = [(n, [hex(a) for a in args], hex(e), hex(int(g))) for (n, args, e), g in zip(calls, got) if int(g) != e]
    assert not mismatches, mismatches[:5]
    assert out[len(calls)].split() == ["0", "2147483647", "-2147483648", "0", "4294967295",
                                       str(-(1 << 63)), str((1 << 64) - 1)]


# -- the rewrites compile for gfx1100 ---------------------------------------------------------
PROGRAM = r'''#include <hip/hip_runtime.h>
__global__ void k(const float* in, unsigned int* out, float* fout, unsigned long long* lout) {
  unsigned int lane, r, lo, hi, b, m, t32;
  unsigned long long t64, v = lout[0];
  unsigned short h;
  float x, y, z, w, f;
  int i;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t32));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t64));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t64));
  asm("mov.b64 {%0,%1}, %2;" : "=r"(lo), "=r"(hi) : "l"(v));
  asm("mov.b64 %0, {%1,%2};" : "=l"(v) : "r"(lo), "r"(hi));
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(lane), "r"(16), "r"(0x1f), "r"(0xffffffff));
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(r), "r"(lane), "r"(0x101f), "r"(0xffffffff));
  asm volatile("shfl.sync.up.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(r), "r"(lo), "r"(0), "r"(0xffffffff));
  asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(r), "r"(1), "r"(hi), "r"(0xffffffff));
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(r), "r"(lo), "r"(0x5410));
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(r), "r"(4), "r"(8));
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(i) : "r"(r), "r"(4), "r"(8));
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(r), "r"(lo), "r"(4), "r"(8));
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(r), "r"(lo), "r"(hi));
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(r), "r"(lo), "r"(hi), "r"(b));
  asm volatile("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "l"(in));
  asm volatile("ld.global.nc.f32 %0, [%1+16];" : "=f"(f) : "l"(in));
  asm volatile("st.global.cs.u32 [%0], %1;" :: "l"(out), "r"(r));
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
  asm("cvt.f32.f16 %0, %1;" : "=f"(y) : "h"(h));
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(i) : "f"(y));
  asm("cvt.rn.f32.s32 %0, %1;" : "=f"(z) : "r"(i));
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(f) : "f"(x), "f"(y), "f"(z));
  asm("add.rn.f32 %0, %1, %2;" : "=f"(f) : "f"(f), "f"(w));
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(v) : "r"(lo), "r"(hi));
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(r), "r"(lo), "r"(hi));
  asm("min.s32 %0, %1, %2;" : "=r"(i) : "r"(i), "r"(r));
  asm("shr.s32 %0, %1, %2;" : "=r"(i) : "r"(i), "r"(lo));
  asm volatile("bar.sync 0;");
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("membar.cta;" ::: "memory");
  asm volatile("bar.warp.sync %0;" :: "r"(0xffffffff));
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }" : "=r"(b) : "r"(r));
  asm volatile("activemask.b32 %0;" : "=r"(m));
  asm("popc.b32 %0, %1;" : "=r"(r) : "r"(b));
  asm("clz.b32 %0, %1;" : "=r"(lo) : "r"(m));
  asm("brev.b32 %0, %1;" : "=r"(hi) : "r"(lo));
  out[lane] = r + lo + hi + b + m + t32 + (unsigned int)i;
  fout[lane] = f + x + y + z + w;
  lout[lane] = v + t64;
}
'''


def _translate_asm(source: str) -> tuple[str, set[str]]:
    tokens = tokenize(source)
    out = []
    helpers: set[str] = set()
    i = 0
    while i < len(tokens):
        result = rewrite_asm(tokens, i, W32) if tokens[i].kind == "ident" else None
        if result is None:
            out.append(tokens[i].text)
            i += 1
            continue
        assert result.supported, result.diagnostics
        out.append(result.text)
        helpers |= result.helpers
        i = result.end
    return "".join(out), helpers


@pytest.mark.e2e
def test_rewritten_program_compiles_for_gfx1100(tmp_path: Path) -> None:
    from cass_cc.toolchain import Toolchain, ToolchainError

    tc = Toolchain(os.environ, cache_dir=tmp_path / "cache")
    try:
        clang, rocm = tc.clang, tc.rocm
    except ToolchainError:
        pytest.skip("needs clang and ROCm")
    body, helpers = _translate_asm(PROGRAM)
    assert body.count("\n") == PROGRAM.count("\n") and "asm" not in body
    hip = tmp_path / "ptx.hip"
    hip.write_text(prelude(helpers) + '#line 1 "ptx.cu"\n' + body)
    cmd = [clang.path, "-x", "hip", "--offload-arch=gfx1100", f"--rocm-path={rocm.root}",
           f"--rocm-device-lib-path={tc.device_lib_dir(['gfx1100'])}", "-Werror=implicit-function-declaration",
           "-c", "-o", str(tmp_path / "ptx.o"), str(hip)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


VABSDIFF4 = r"""
__device__ unsigned int sad(unsigned int A, unsigned int B, unsigned int C) {
  unsigned int result;
  asm("vabsdiff4.u32.u32.u32.add"
      " %0, %1, %2, %3;"
      : "=r"(result)
      : "r"(A), "r"(B), "r"(C));
  return result;
}
__global__ void sads(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* o) {
  int i = threadIdx.x;
  o[i] = sad(a[i], b[i], c[i]);
}
"""


def test_vabsdiff4_add_is_rewritten_and_builds(tmp_path: Path) -> None:
    """cuda-samples' stereoDisparity (its semantics: ref_vabsdiff4_add in the helper test)."""
    from tests.translate.conftest import cass_cc_build

    tokens = tokenize(VABSDIFF4)
    out = rewrite_asm(tokens, [t.text for t in tokens].index("asm"), Target())
    assert out is not None and out.supported and out.helpers == {"__cass_vabsdiff4_add_u"}
    if shutil.which("clang-15"):
        cass_cc_build(VABSDIFF4, tmp_path / "v.o", "-c", "-arch=sm_80")


@pytest.mark.parametrize("expr, value", [
    ("0x1f", 31), ("017", 15), ("0", 0), ("42u", 42), ("0xFFULL", 255), ("1 << 4 | 3", 19), ("-(2 + 3) * 4", -20),
    ("~0 & 0xff", 255), ("6 ^ 3", 5), ("0x100 >> 4", 16), (" \t7", 7), ("+1", 1),
    ("1 < 2", True), ("3 > 2 > 1", True),  # Python's values and chains (C's would be 1 and 0), as the eval it replaced gave
    ("1 > 2 < (1 << -1)", False),  # a false comparison ends the chain before the bad shift
    ("1 2", None), ("()", None), ("(1)(2)", None), ("1 << -1", None), ("x", None), ("%r1", None), ("2**3", None),
    ("1 << 65537", None), ("0 << 65537 << 65537", 0),  # past _SHIFT_MAX: refused rather than built, but for 0
    pytest.param("1" + "+1" * 200, None, id="past _CONST_EXPR_MAX"),
])
def test_constant_expressions(expr: str, value: int | None) -> None:
    """PTX immediates' integer constant expressions, evaluated over Python's ast (no eval)."""
    got = _literal(expr)
    assert got == value and type(got) is type(value)
