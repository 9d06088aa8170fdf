"""Kernel launches: clang's HIP mode lexes `<<<`/`>>>` whole only, nvcc also takes the chevrons
split by spaces, comments or line breaks (`k << < g, b >> > (x)`). The rules join split ones
and must never touch a valid expression that is not a launch."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.translate.conftest import GOLDEN, cass_cc_build
from tests.translate.test_rules import body
from tests.translate.test_windows import both


@pytest.mark.parametrize("src, expected", [
    ("k << < g, b >> > (x);", "k <<<  g, b >>>  (x);"),
    ("k<< <g, b>>>(x);", "k<<< g, b>>>(x);"),
    ("k<<<g, b>> >(x);", "k<<<g, b>>> (x);"),
    ("k< << g, b> >> (x);", "k<<<  g, b>>>  (x);"),
    ("k<<\n<g, b>>\n>(x);", "k<<<\ng, b>>>\n(x);"),
    ("k << /* a */ < g, b >> // b\n > (x);", "k <<< /* a */  g, b >>> // b\n  (x);"),
    ("k<T, U<V>> << < g, b, 0, s >> > (x);", "k<T, U<V>> <<<  g, b, 0, s >>>  (x);"),
    ("(*p)<< <g, b>> >(x); t[i]<< <g, b>> >(x);", "(*p)<<< g, b>>> (x); t[i]<<< g, b>>> (x);"),
    ("k<< <dim3(f<int>(1), 2), b>> >(x);", "k<<< dim3(f<int>(1), 2), b>>> (x);"),
    ("#define L(k) k << < 1, 2 >> >\n", "#define L(k) k <<<  1, 2 >>> \n"),
    ("#define OPEN << <\n#define CLOSE >> >\n", "#define OPEN <<< \n#define CLOSE >>> \n"),
    ("#define L(k) k << < \\\n  1, 2 >> >\n", "#define L(k) k <<<  \\\n  1, 2 >>> \n"),
])
def test_split_chevrons_joined(src: str, expected: str) -> None:
    assert body(src) == expected
    assert both(src) == expected


@pytest.mark.parametrize("src", [
    "k<<<g, b>>>(x);",  # clang's own spelling, as are macros and templates around it
    "#define LAUNCH(k) k<<<1, 1>>>\nLAUNCH(f)(x);\n",
    "k<T, U<V>><<<g, b>>>(x); k<T, U<V<W>>><<<g, b>>>(x);",
    "friend std::ostream& operator<< <>(std::ostream&, const P<T>&);",
    "os << operator<< <T>(os, v);",
    "std::cout << (a < b) << (a >> 1) << (b > a);",
    "int x = f<A<B<int>> >(3);",
    "A<B<C<int>> > y; A<B<C<D<int>>> > z;",
    "#define V std::pair<int, A<B<int>> >\n",
    "#define W(x) f<A<B<x>> >\n",
    "a << < b;",  # not C++, left for clang to report
    "x >> > y;",
    "k << < g, b;\n",  # no closer: not a launch
    "k << < g, b >> > y;",  # no argument list after the closer
    "k <<<< g, b >>>> (x);",
    "k < < < g, b > > > (x);",  # three tokens apart: not a spelling nvcc or an editor makes
    "s = \"k << < g >> > (x)\"; // k << < g >> > (x)\n",
])
def test_not_launches_left_alone(src: str) -> None:
    assert body(src) == src
    assert both(src) == src


FRAGMENTS = ["k", "<<", "<", ">>", ">", " ", "\n", "(x);", "g, b", "/* c */", "// c\n", "\\\n", "#define L ", "<<<", ">>>",
             "operator", "cudaFree(p);", "f<A<B<int>>", "(", ")", ";", "{", "}", "\n\n\n\n\n\n\n\n\n\n"]


def test_random_chevrons_same_with_and_without_windows() -> None:
    rng = random.Random(5)
    for _ in range(400):
        both("".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 50))))


@pytest.mark.e2e
def test_spellings_build_for_gfx1100(tmp_path: Path) -> None:
    source = (GOLDEN / "launch_spellings.cu").read_text()
    cass_cc_build(source, tmp_path / "launch_spellings.o", "-c", "-arch=sm_80")


def test_comment_banners_after_a_chevron_take_linear_time() -> None:
    """`#include <cstdio>` then a `////` banner (most cuda-samples): the chevron-run search once
    split the banner into `//` comments in exponentially many ways and never returned."""
    import time

    from cass_cc.translate.rules import _split_launch_runs

    for width in (40, 400, 4000):
        source = "#include <cstdio>\n" + "/" * width + "\n" + "x = a > b; // a // b ////\n" * 50 + "int main() { return 0; }\n"
        start = time.process_time()
        assert _split_launch_runs(source) == []
        assert body(source) == source
        assert time.process_time() - start < 0.5, width
