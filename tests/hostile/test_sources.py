"""Bad and extreme CUDA sources through `cass-cc -c` (issue 22): the CI slice of `cass-data
hostile sources`, then the defects it found: clang-15's 256-bracket limit on nests nvcc builds,
its stack overflowing on them, a 1,000-line crash dump instead of one line, and a FIFO named
*.cu blocking the build for good."""
from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cass_cc.driver.commands import bracket_depth
from cass_cc.toolchain.hipclang import BRACKET_DEPTH, bracket_flags
from cass_data.hostile import sources as fam
from tests.conftest import CASS_CC, needs_clang

NEST = "__global__ void k(int* p) {{\n{open}p[0] = 1;{close}\n}}\n"


def nest(depth: int) -> str:
    return NEST.format(open="{" * depth, close="}" * depth)


def compile_cu(src: Path, cass_env: dict[str, str], *, stack: int | None = None,
               timeout: float = 300) -> tuple[subprocess.CompletedProcess, Path, float]:
    """bin/cass-cc -c SRC; `stack` caps the stack limit of cass-cc and all it runs (hard)."""
    out = src.with_suffix(".o")
    pre = None if stack is None else (lambda: resource.setrlimit(resource.RLIMIT_STACK, (stack, stack)))
    start = time.monotonic()
    proc = subprocess.run([sys.executable, str(CASS_CC), "-c", "-arch=sm_90", str(src), "-o", str(out)],
                          capture_output=True, text=True, env=cass_env, timeout=timeout, preexec_fn=pre,
                          cwd=src.parent)
    return proc, out, time.monotonic() - start


# ---- the CI slice ----------------------------------------------------------------------


@needs_clang
def test_ci_slice_no_traceback_no_hang() -> None:
    tally, _ = fam.run(16, seed=22, jobs=2, tool_timeout=60, skip=fam.HEAVY)
    assert sum(tally.counts.values()) == 16
    assert tally.failures == 0, tally.to_json()


def test_cases_are_a_function_of_seed_and_index() -> None:
    assert [fam.case(3, i).data for i in range(30)] == [fam.case(3, i).data for i in range(30)]


# ---- defect: clang's bracket limit and stack on deep nests nvcc builds --------------------------


def test_bracket_depth_counts_all_kinds_together() -> None:
    assert bracket_depth(nest(5000).encode()) == 5002  # the nest, the body's braces, p[0]
    assert bracket_depth(("(" * 200 + "[" * 100 + "]" * 100 + ")" * 200).encode()) == 300
    assert bracket_flags(20) == []  # ordinary code keeps its command line
    assert bracket_flags(5002) == [f"-fbracket-depth={5002 + BRACKET_DEPTH}"]


@needs_clang
def test_5000_deep_brace_nest_builds(tmp_path: Path, cass_env: dict[str, str]) -> None:
    src = tmp_path / "deep.cu"
    src.write_text(nest(5000))  # nvcc 13 builds it; clang-15 stopped at 256 ("bracket nesting level exceeded")
    proc, out, _ = compile_cu(src, cass_env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert out.stat().st_size > 0


@needs_clang
def test_50000_deep_brace_nest_builds(tmp_path: Path, cass_env: dict[str, str]) -> None:
    src = tmp_path / "deeper.cu"
    src.write_text(nest(50000))  # nvcc 13 builds it; clang-15's parser overflows an 8 MiB stack
    proc, out, _ = compile_cu(src, cass_env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert out.stat().st_size > 0


# ---- defect: a clang crash was a 1,000-line dump, four times ----------------------------------


@needs_clang
def test_clang_crash_is_one_line_naming_the_file_and_the_saved_dump(tmp_path: Path, cass_env: dict[str, str]) -> None:
    src = tmp_path / "deeper.cu"
    src.write_text(nest(50000))
    # an 8 MiB hard stack limit that cass-cc cannot raise: clang-15's -cc1 dies of SIGSEGV
    proc, out, _ = compile_cu(src, cass_env, stack=8 << 20)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr[-3000:]
    m = re.fullmatch(r"cass-cc fatal   : (\S+): clang(-\d+)? crashed \((.+)\); its report is in (\S+)", lines[0])
    assert m, lines[0]
    assert m.group(1) == str(src)
    report = Path(m.group(4))
    try:
        text = report.read_text()
        assert "Stack dump:" in text and "PLEASE submit a bug report" in text
    finally:
        report.unlink(missing_ok=True)
    assert not out.exists()


# ---- defect: a FIFO named *.cu blocked forever ---------------------------------------------------


@needs_clang
def test_fifo_source_is_refused_at_once(tmp_path: Path, cass_env: dict[str, str]) -> None:
    src = tmp_path / "pipe.cu"
    os.mkfifo(src)  # no writer: a read blocks until one comes
    proc, out, seconds = compile_cu(src, cass_env, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"cass-cc fatal   : {src}: not a regular file (a FIFO); give a source file"
    assert seconds < 30 and not out.exists()
