from __future__ import annotations

import random
from pathlib import Path

import pytest

from cass_cc.translate.lexer import Token, tokenize

GOLDEN = Path(__file__).with_name("golden")

SNIPPETS = [
    "",
    "\n",
    "int x;",
    "a\r\nb\rc\n",
    "#define X(a, b) cudaMalloc(a, \\\n   b) // tail\nint y;\n",
    "#  if defined(cudaFoo) && X > 2 /* c */\n#endif",
    'const char* s = "a \\" b"; char c = \'\\\'\'; auto w = L"x" u8"y" U\'z\';',
    'auto r = R"xy(a )" b)xy"; auto r2 = u8R"(raw\nlines)";',
    "/* unterminated comment",
    '"unterminated string\nnext',
    "k<<<grid, block, 0, s>>>(a, b);",
    "x = 1'000'000 + 0x1.8p+3 + 1e-5f + .5 + 07;",
    "std::vector<std::vector<int>> v; a->b; a->*c; x <<= 2; y >>= 1; ...",
    "#include <cuda_runtime.h>\n#include \"my.h\"\n#  include   <a b.h>  // c\n",
    "@ $ ` \\ \u00e9t\u00e9 = 1;",
    "// comment with \\\ncontinuation\nint z;",
    "#\n# 12 \"file.cu\"\n#pragma unroll\n",
]


def roundtrip(text: str) -> list[Token]:
    tokens = tokenize(text)
    assert "".join(t.text for t in tokens) == text
    return tokens


@pytest.mark.parametrize("text", SNIPPETS)
def test_roundtrip_snippets(text: str) -> None:
    roundtrip(text)


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.*")), ids=lambda p: p.name)
def test_roundtrip_golden_files(path: Path) -> None:
    roundtrip(path.read_text())


def test_roundtrip_random() -> None:
    rng = random.Random(1234)
    alphabet = list("abcXYZ_019 \t\n\r\\\"'#/*<>()R.,;:-+=e") + ["cudaMalloc", "R\"(", ")\"", "/*", "*/", "//"]
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        roundtrip(text)


def kinds(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(text) if t.kind != "space"]


def test_kinds_basic() -> None:
    assert kinds('x = "s" + \'c\' + 1.5f; // c') == [
        ("ident", "x"), ("punct", "="), ("string", '"s"'), ("punct", "+"), ("char", "'c'"),
        ("punct", "+"), ("number", "1.5f"), ("punct", ";"), ("comment", "// c"),
    ]


def test_raw_string_is_one_token() -> None:
    toks = kinds('R"d(x)" y)d" z')
    assert toks == [("raw_string", 'R"d(x)" y)d"'), ("ident", "z")]


def test_directive_content_is_tokenized() -> None:
    toks = tokenize("#define A cudaMalloc \\\n  (x)\nint b;\n")
    assert toks[0].kind == "directive" and toks[0].directive == "define"
    body = [t for t in toks if t.directive == "define"]
    assert ("ident", "cudaMalloc") in [(t.kind, t.text) for t in body]
    assert any(t.kind == "continuation" for t in body)
    assert ("punct", "(") in [(t.kind, t.text) for t in body]  # continued line is in the directive
    after = [t for t in toks if t.text == "int"][0]
    assert after.directive is None and after.line == 3


def test_if_directive_and_include_header() -> None:
    toks = tokenize("#if defined(cudaX)\n#include <cuda.h>\n#include \"a.h\"\n")
    assert [t.directive for t in toks if t.text == "cudaX"] == ["if"]
    headers = [t.text for t in toks if t.kind == "header"]
    assert headers == ["<cuda.h>", '"a.h"']


def test_hash_not_at_line_start_is_punct() -> None:
    toks = kinds("a # b")
    assert toks[1] == ("punct", "#")


def test_positions() -> None:
    toks = tokenize("ab\n  /* x\ny */ cd\n")
    cd = [t for t in toks if t.text == "cd"][0]
    assert (cd.line, cd.col) == (3, 6)


def test_shift_and_chevrons() -> None:
    toks = [t for _, t in kinds("k<<<1, 2>>>(x)")]
    assert toks[:3] == ["k", "<<", "<"]
