"""The CASS prompt and fence formats, answer extraction, and per-function pieces."""
from __future__ import annotations

import pytest

from cass_cc.model.prompts import ASSEMBLY, SOURCE, extract, messages
from cass_cc.model.split import group, pieces
from cass_cc.translate.model import splice


def test_prompts_are_cass_exactly() -> None:
    assert SOURCE.prompt("int x;") == "Convert the following CUDA code to AMD GPU code:\n```cuda\nint x;\n```"
    assert ASSEMBLY.prompt("EXIT ;") == (
        "Convert the following CUDA device assembly code to HIP device assembly:\n```cudaasm\nEXIT ;\n```"
    )
    assert messages("p") == [{"role": "user", "content": "p"}]


@pytest.mark.parametrize(
    "answer, fence, body",
    [
        ("```amd\nint x;\n```", "amd", "int x;\n"),
        ("Sure! Here it is:\n```amd\nint x;\nint y;\n```\nExplanation...", "amd", "int x;\nint y;\n"),
        ("```amd\nint x;```", "amd", "int x;\n"),  # closing fence on the code's line
        ("```amd title\nint x;\n```", "amd", "int x;\n"),
        ("```hipasm\ns_endpgm\n```", "hipasm", "s_endpgm\n"),
        ("```cpp\nint a;\n```\n```amd\nint b;\n```\n```amd\nint c;\n```", "amd", "int b;\n"),  # the first amd fence
        ("```amdgpu\nint a;\n```\n```amd\nint b;\n```", "amd", "int b;\n"),  # not an amd fence
        ("```amd\n```", "amd", ""),
        ("no fence at all", "amd", None),
        ("```cpp\nint a;\n```", "amd", None),
        ("```amd\nint x; // the model ran out of tokens", "amd", None),  # never closed
        ("```amd", "amd", None),
        ("```hipasm\ns_endpgm\n```", "amd", None),
    ],
)
def test_extract(answer: str, fence: str, body: str | None) -> None:
    assert extract(answer, fence) == body


SOURCE_TEXT = """\
#include <cuda_runtime.h>
#define BODY(x) { \\
  x; }
// a comment with a brace {
__global__ void k(int* a) {
  const char* s = "}";
  a[0] = '{';
}
struct S { int x; };
int f(int a,
      int b);
namespace n {
void g() {}
}
int tail"""


def test_pieces_cover_the_file_at_top_level_ends() -> None:
    found = pieces(SOURCE_TEXT)
    assert "".join(p.text for p in found) == SOURCE_TEXT
    assert [(p.first_line, p.last_line) for p in found] == [(1, 8), (9, 9), (10, 11), (12, 14), (15, 15)]


def test_group_fits_budget_and_keeps_order() -> None:
    found = pieces(SOURCE_TEXT)
    groups = group(found, 60, len)
    assert [p for g in groups for p in g] == found
    assert all(sum(len(p.text) for p in g) <= 60 or len(g) == 1 for g in groups)
    assert len(group(found, 10_000, len)) == 1


def test_splice_replaces_definitions_and_keeps_line_numbers() -> None:
    rules = '/* prelude */\n#line 1 "a.cu"\nline1\nline2\nline3\nline4\n'
    replaced = [p for p in pieces("a;\nvoid f() {\n}\nb;\n") if p.first_line == 2]
    text = splice(rules, "a.cu", replaced, ["void f_hip() {}\n"])
    assert text == '/* prelude */\n#line 1 "a.cu"\nline1\nvoid f_hip() {}\n#line 4 "a.cu"\nline4\n'
