"""windows.py lexes only the lines around names the rules act on; its translations must be
the ones the whole-file token list gives, byte for byte, diagnostics included."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from cass_cc.translate import RulesTranslator, Target
from cass_cc.translate.lexer import line_ends, tokenize, tokenize_range
from cass_cc.translate.prelude import BASE
from cass_cc.translate.windows import Touched, Windows

GOLDEN = Path(__file__).with_name("golden")
TARGETS = [Target((5, 2), 32), Target((6, 2), 32), Target((5, 7), 32)]


def both(source: str, target: Target = TARGETS[0]) -> str:
    """The windowed translation's body, after checking it equals the whole-file one."""
    windowed = RulesTranslator().translate(source, "t.cu", target)
    whole = RulesTranslator(windows=False).translate(source, "t.cu", target)
    assert windowed == whole
    line = '#line 1 "t.cu"\n'
    assert windowed.text.startswith(BASE)
    return windowed.text.split(line, 1)[1]


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.cu")), ids=lambda p: p.name)
def test_golden_files_same_as_whole(path: Path) -> None:
    source = path.read_text()
    for target in TARGETS:
        both(source, target)


FRAGMENTS = [
    "cudaMalloc(&p, n);", "cudaFree(p)", "cudaMemcpyToSymbol(sym, &h, 4)", "__shfl_down_sync(0xffffffff, v, 1)",
    "__launch_bounds__(256, 2)", "cub::", "using namespace cub;", "asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l));",
    "float4 operator+(float4 a, float4 b) { return a; }", "struct S {", "}", "{", ";", "(", ")", ",", "<", ">",
    "#define M(x) cudaFree(x)", "#include <cuda_runtime.h>", "#include <a//b.h>", "#include <a/*b.h>",
    "#if defined(cudaSuccess)", "#endif", "/*", "*/", "//", "\"", "'", "R\"x(", ")x\"", "u8\"", "L'",
    "1'000", "1.'5", "0x1p+'3", "'\\''", "\"\\\"\"", "\\", "\\ ", "x.", "a->", "ns::", "::", "cudaUnknownThing",
    "cudaError_t cudaStatus;", "atomicMax(float* a, float v) {", "x & 31", "\n", "\n", "\n", "\r\n", "\r",
    "  ", "\t", "é", "int", "sqrt(x)", "__syncwarp();", "__vadd4(a, b)", "cudaDeviceSynchronize();",
]


def test_random_text_same_as_whole() -> None:
    rng = random.Random(7)
    for _ in range(300):
        source = "".join(rng.choice(FRAGMENTS) + rng.choice(["", " ", "\n"]) for _ in range(rng.randint(1, 60)))
        both(source)


def test_line_ends_are_the_newline_tokens() -> None:
    rng = random.Random(11)
    pieces = ["a", "1", "'", '"', "R", "u8", "/", "*", "\\", "#", " ", "\n", "\r", "(", ")", "x", ".", "e+",
              "#include ", "<a//b>", '"a.h"', "\\ \n", "//", "/*", "*/", "R\"d(", ")d\""]
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        tokens = tokenize(text)
        expected, pos = [], 0
        for tok in tokens:
            pos += len(tok.text)
            if tok.kind == "newline":
                expected.append(pos)
        if text and (not expected or expected[-1] != len(text)):
            expected.append(len(text))
        assert line_ends(text) == expected, text
        # lexing line by line gives the same tokens (line numbers too, when no CR-LF is split)
        if "\\\r" not in text:
            lines, start, line = [], 0, 1
            for end in expected:
                lines.extend(tokenize_range(text, start, end, line))
                line += text.count("\n", start, end) + text.count("\r", start, end) - text.count("\r\n", start, end)
                start = end
            assert lines == tokens, text


# Lexer traps, with the exact output (the same with and without windows).

def test_raw_string_holding_quotes_and_comment_marks() -> None:
    src = 'auto s = R"x(cudaMalloc " /* )" )x"; cudaFree(p);\ncudaFree(q);\n'
    assert both(src) == 'auto s = R"x(cudaMalloc " /* )" )x"; hipFree(p);\nhipFree(q);\n'


def test_raw_string_over_lines() -> None:
    src = 'const char* k = R"(\ncudaMalloc(\n)";\ncudaFree(p);\n'
    assert both(src) == 'const char* k = R"(\ncudaMalloc(\n)";\nhipFree(p);\n'


def test_line_splice_inside_identifier_is_two_tokens() -> None:
    # phase-2 splicing is not modelled: `cuda\<newline>Malloc` stays as written
    src = "cuda\\\nMalloc(p);\ncudaFree(p);\n"
    assert both(src) == "cuda\\\nMalloc(p);\nhipFree(p);\n"


def test_line_splice_continues_a_line_comment() -> None:
    src = "// note \\\ncudaMalloc(p);\ncudaFree(p);\n"
    assert both(src) == "// note \\\ncudaMalloc(p);\nhipFree(p);\n"


def test_digit_separators_and_char_literals() -> None:
    src = "n = 1'000'000; c = '\"'; cudaFree(p); // \"\nd = 0x1p+'3; cudaMalloc(&q, 1'0);\n"
    assert both(src) == "n = 1'000'000; c = '\"'; hipFree(p); // \"\nd = 0x1p+'3; hipMalloc(&q, 1'0);\n"


def test_escaped_quote_char_literal() -> None:
    src = "c = '\\''; cudaFree(p); d = '\"'; cudaMalloc(&q, 1); s = \"\\\"cudaFree\\\"\";\n"
    assert both(src) == "c = '\\''; hipFree(p); d = '\"'; hipMalloc(&q, 1); s = \"\\\"cudaFree\\\"\";\n"


def test_comment_marks_inside_strings() -> None:
    src = 'printf("http://x /* y"); cudaFree(p);\nputs("*/"); cudaMalloc(&p, 1);\n'
    assert both(src) == 'printf("http://x /* y"); hipFree(p);\nputs("*/"); hipMalloc(&p, 1);\n'


def test_prefixed_strings() -> None:
    src = 'auto s = u8"cudaMalloc \\" /*"; cudaFree(p); auto w = L\'"\'; cudaFree(q);\n'
    assert both(src) == 'auto s = u8"cudaMalloc \\" /*"; hipFree(p); auto w = L\'"\'; hipFree(q);\n'


def test_unterminated_comment_at_end_of_file() -> None:
    assert both("cudaFree(p); /* cudaMalloc\n cudaFree(q);") == "hipFree(p); /* cudaMalloc\n cudaFree(q);"


def test_unterminated_string_ends_at_the_line() -> None:
    assert both('s = "cudaMalloc;\ncudaFree(p);\n') == 's = "cudaMalloc;\nhipFree(p);\n'


def test_header_names_holding_comment_marks() -> None:
    src = "#include <a//b.h>\ncudaFree(p);\n#include <a/*b.h>\ncudaFree(q); // */\n"
    assert both(src) == "#include <a//b.h>\nhipFree(p);\n#include <a/*b.h>\nhipFree(q); // */\n"


def test_directive_after_a_continuation_with_trailing_space() -> None:
    # `\` then a space then the line break still continues the line, and (as the lexer
    # reads it) a `#` at the start of the next physical line begins a directive
    src = "#define A 1 \\ \n#include <cuda_runtime.h>\ncudaFree(p);\n"
    assert both(src) == "#define A 1 \\ \n#include <hip/hip_runtime.h>\nhipFree(p);\n"


def test_crlf_lines_and_diagnostic_positions() -> None:
    src = "int a;\r\n\r\n  cuLogsCurrent(p);\r\ncudaFree(p);\r\n"
    windowed = RulesTranslator().translate(src, "t.cu", TARGETS[0])
    assert [(d.line, d.column) for d in windowed.diagnostics] == [(3, 3)]
    assert both(src) == "int a;\r\n\r\n  cuLogsCurrent(p);\r\nhipFree(p);\r\n"


def test_backslash_crlf_in_a_string_counts_two_lines() -> None:
    # the string takes `\` CR, the LF is a line of its own: the whole-file path serves it
    src = 's = "a\\\r\nb";\r\ncuLogsCurrent(p);\r\n'
    windowed = RulesTranslator().translate(src, "t.cu", TARGETS[0])
    assert [d.line for d in windowed.diagnostics] == [4]
    both(src)


def test_first_and_last_line_without_newline() -> None:
    assert both("cudaFree(p);") == "hipFree(p);"
    assert both("\n\n// c\n   cudaFree(p)") == "\n\n// c\n   hipFree(p)"


def widenings(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Records what each Windows.widen call answered."""
    answers: list[bool] = []
    original = Windows.widen

    def widen(self: Windows, touched: Touched) -> bool:
        answers.append(original(self, touched))
        return answers[-1]

    monkeypatch.setattr(Windows, "widen", widen)
    return answers


def test_rules_scanning_past_the_lines_lexed_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # the call's arguments run over many lines, after blank and comment lines
    args = ",\n".join(["  sym"] + [f"  /* {i} */ x{i}" for i in range(30)])
    src = "int x;\n\n\n// a\n\n/* b */\n\ncudaMemcpyToSymbol(\n" + args + ");\nint y;\n"
    answers = widenings(monkeypatch)
    out = both(src)
    assert answers and all(answers)  # lexed more lines, never the whole file
    assert out.startswith("int x;\n\n\n// a\n\n/* b */\n\nhipMemcpyToSymbol(\n  HIP_SYMBOL(sym),\n")
    assert out.count("\n") == src.count("\n")


def test_vector_operators_need_the_whole_file(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = widenings(monkeypatch)
    src = ("struct A { int x; };\n" + "int f();\n" * 50
           + "inline __device__ float4 operator+(float4 a, float4 b)\n{\n  return a;\n}\n"
           + "struct B {\n  float4 operator-(float4 a, float4 b) { return a; }\n};\n")
    out = both(src)
    assert "/* cass-cc: operator+(float4, float4) removed: HIP defines it */" in out
    assert "float4 operator-(float4 a, float4 b) { return a; }" in out
    assert answers[-1] is False  # is the member inside a class: every brace before it counts


def test_names_left_unlexed_change_nothing() -> None:
    """Table rows whose uses windows.py does not lex keep their name on every HIP version,
    and the prelude adds nothing for them."""
    from cass_cc.translate import mappings, rules
    from cass_cc.translate.prelude import prelude

    active = rules._active_names()
    left_out = [row for name, row in mappings.table().items() if name not in active]
    assert left_out  # sqrt, __syncthreads, ...
    for row in left_out:
        assert row.hip_name == row.cuda_name and row.available_on((0, 0)) and row.status == "supported"
        assert prelude({row.hip_name}) == prelude(set())


def test_no_names_at_all() -> None:
    assert both("int main() { return 0; }\n") == "int main() { return 0; }\n"
    assert both("") == ""
