"""split_prelude: a rules translation is prelude(what it emitted) + `#line 1` + body, and the split
gives exactly those parts back, on every file of the evaluation suite and on the golden sources.
A model trained on bodies (cass-train data.answer = "body") relies on it twice: its training
answers are the body the split leaves, and cass-cc puts the rules' head back before its answers."""
from __future__ import annotations

from pathlib import Path

import pytest

from cass_cc.port.files import strip_line_directive
from cass_cc.translate import Target
from cass_cc.translate.prelude import prelude, split_prelude
from cass_cc.translate.rules import RulesTranslator
from cass_train import suite as suites
from cass_train.evaluate.engine import _sources

GOLDEN = Path(__file__).parent / "golden"


def _files() -> list[tuple[str, str, str]]:
    items = [it for p in suites.load().programs for it in _sources(p)]
    return items + [(f.name, f.read_text(), f.name) for f in sorted(GOLDEN.glob("*.cu"))]


@pytest.mark.parametrize("hip_version", [(5, 2), (5, 7)])
def test_split_gives_back_the_prelude_and_the_body(hip_version: tuple[int, int]) -> None:
    target = Target(hip_version=hip_version, wave_size=32)
    rules = RulesTranslator()
    files = _files()
    assert len(files) > 64
    for name, source, filename in files:
        text = rules.translate(source, filename, target).text
        head = prelude(rules._run(source, target).emitted)
        marker = f'#line 1 "{filename}"\n'
        assert text.startswith(head + marker), name
        body = text[len(head + marker):]
        assert split_prelude(text) == (head + marker, body), name
        assert split_prelude(strip_line_directive(text, filename)) == (head, body), name  # cass-data's hip column


def test_text_without_a_prelude_is_all_body() -> None:
    text = "#include <cuda_runtime.h>\n__global__ void k() {}\n"
    assert split_prelude(text) == ("", text)
    bare = "#include <hip/hip_runtime.h>\n__global__ void k() {}\n"  # a prelude of the base include alone
    assert split_prelude(bare) == ("#include <hip/hip_runtime.h>\n", "__global__ void k() {}\n")
