"""Pure pieces of `cass-cc port`: the #line strip, rename counting, the walk."""
from __future__ import annotations

from pathlib import Path

from cass_cc.port.files import count_renames, strip_line_directive
from cass_cc.port.walk import walk
from cass_cc.translate import Target, chain_from_setting


def test_strip_line_directive_keeps_prelude() -> None:
    text = '#include <hip/hip_runtime.h>\n#line 1 "a.cu"\nint x;\n#line 1 "a.cu"\n'
    assert strip_line_directive(text, "a.cu") == '#include <hip/hip_runtime.h>\nint x;\n#line 1 "a.cu"\n'


def test_strip_line_directive_escapes_and_misses() -> None:
    name = 'dir\\we"ird.cu'
    assert strip_line_directive('P\n#line 1 "dir\\\\we\\"ird.cu"\nB\n', name) == "P\nB\n"
    assert strip_line_directive("no directive\n", "a.cu") == "no directive\n"
    assert strip_line_directive('x#line 1 "a.cu"\n', "a.cu") == 'x#line 1 "a.cu"\n'  # not at a line start


def test_strip_line_directive_on_real_translation() -> None:
    source = "#include <cuda_runtime.h>\nvoid f() { cudaDeviceSynchronize(); }\n"
    t = chain_from_setting("rules").translate(source, "sub/f.cu", Target((5, 2), 32))
    ported = strip_line_directive(t.text, "sub/f.cu")
    assert "#line" not in ported
    assert ported.splitlines()[-1] == "void f() { hipDeviceSynchronize(); }"


def test_count_renames_by_family() -> None:
    source = "#include <cuda_runtime.h>\ncudaError_t e = cudaMalloc(&p, 4); cudaFree(p); // cudaFree in a comment\n"
    body = "#include <hip/hip_runtime.h>\nhipError_t e = hipMalloc(&p, 4); hipFree(p); // cudaFree in a comment\n"
    renamed, unsupported = count_renames(source, body, ("cudaFoo",))
    assert renamed["runtime"] == {"cudaError_t": 1, "cudaFree": 1, "cudaMalloc": 1}
    assert renamed["headers"] == {"#include <cuda_runtime.h>": 1}
    assert unsupported == {"cudaFoo": 0}


def test_walk_skips_vcs_and_output(tmp_path: Path) -> None:
    for rel in ("a.cu", ".git/config", "out/x.cu", "sub/Makefile", "sub/rules.mk", "x.cmake", "b.cu.cuda-orig", "n.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    (tmp_path / "link.cu").symlink_to("a.cu")
    kinds = {e.rel: e.kind for e in walk(tmp_path, True, skip=tmp_path / "out")}
    assert kinds == {"a.cu": "source", "sub/Makefile": "make", "sub/rules.mk": "make", "x.cmake": "cmake",
                     "b.cu.cuda-orig": "other", "n.txt": "other", "link.cu": "link"}
    assert walk(tmp_path, False, skip=tmp_path / "out")[-1].kind == "other"  # x.cmake: just a file then
