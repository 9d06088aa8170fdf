"""The SIMD video intrinsic helpers (prelude.py), compiled by the host compiler and
checked lane by lane against CUDA's definitions, restated here in Python."""
from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.translate.prelude import SIMD_NAMES, _simd_helper


def reference(name: str, a: int, b: int) -> int:
    op, lanes, sign = SIMD_NAMES[name]
    bits = 8 if lanes == "4" else 16
    mask = (1 << bits) - 1
    out = 0
    for shift in range(0, 32, bits):
        x, y = (a >> shift) & mask, (b >> shift) & mask
        if sign == "s":
            x, y = (x - (1 << bits) if x >> (bits - 1) else x), (y - (1 << bits) if y >> (bits - 1) else y)
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if sign == "s" else (0, mask)
        value = {
            "add": x + y, "sub": x - y, "max": max(x, y), "min": min(x, y), "absdiff": abs(x - y),
            "cmpeq": -1 if x == y else 0, "cmpne": -1 if x != y else 0, "cmpgt": -1 if x > y else 0,
            "cmpge": -1 if x >= y else 0, "cmplt": -1 if x < y else 0, "cmple": -1 if x <= y else 0,
            "addss": min(hi, max(lo, x + y)), "subss": min(hi, max(lo, x - y)),
            "addus": min(hi, max(lo, x + y)), "subus": min(hi, max(lo, x - y)),
        }[op]
        out |= (value & mask) << shift
    return out


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_simd_helpers_match_cuda_semantics(tmp_path: Path) -> None:
    rng = random.Random(7)
    pairs = [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(200)]
    pairs += [(0x7F7F7F7F, 0x01010101), (0x80808080, 0xFFFFFFFF), (0, 0xFFFFFFFF), (0x7FFF8000, 0x00017FFF)]
    names = sorted(SIMD_NAMES)
    program = ["#include <cstdio>", "#define __host__", "#define __device__"]
    program += [_simd_helper(n) for n in names]
    program.append("int main() { unsigned a, b; while (scanf(\"%u %u\", &a, &b) == 2) {")
    program += [f'  printf("%u\\n", __cass{n}(a, b));' for n in names]
    program.append("} return 0; }")
    (tmp_path / "simd.cpp").write_text("\n".join(program))
    subprocess.run(["g++", "-O1", "-o", str(tmp_path / "simd"), str(tmp_path / "simd.cpp")], check=True)
    stdin = "".join(f"{a} {b}\n" for a, b in pairs)
    got = subprocess.run([str(tmp_path / "simd")], input=stdin, capture_output=True, text=True, check=True).stdout.split()
    expected = [str(reference(n, a, b)) for a, b in pairs for n in names]
    mismatches = [(names[k % len(names)], pairs[k // len(names)]) for k, (g, e) in enumerate(zip(got, expected)) if g != e]
    assert not mismatches, mismatches[:5]
    assert len(got) == len(expected)
