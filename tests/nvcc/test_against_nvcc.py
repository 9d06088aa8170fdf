"""A few command lines checked against the real nvcc (`-dryrun`, no GPU needed)."""
from __future__ import annotations

import shlex
import shutil
import subprocess

import pytest

from cass_cc.nvcc import UsageError, parse

NVCC = shutil.which("nvcc")
pytestmark = pytest.mark.skipif(NVCC is None, reason="no nvcc on PATH")

LINES = [
    "-arch=sm_80 -c x.cu -o x.o",
    "-Ifoo -DX=1 -lfoo -Lpath -O3 -t4 -c x.cu",
    "-ofile -c x.cu",
    "-isystem/y -c x.cu",
    "-isystem=/y -include=a.h -c x.cu",
    "-O -c x.cu",
    "-Ofast -c x.cu",
    "-rdc=1 -c x.cu",
    "-std=c++23 -c x.cu",
    "-x none x.cu",
    "-m32 -c x.cu",
    "-foo -c x.cu",
    "-forward-unknown-to-host-compiler -foo -c x.cu",
    "-E -MD x.cu",
    "-MF d -c x.cu",
    "-dc -dw x.cu",
    "-arch=sm_abc -c x.cu",
    "-arch=sm_80 -code=sm_86 -c x.cu",
    "-gencode arch=compute_80,code=[compute_80,sm_80] -c x.cu",
    "-gencode arch=compute_80 -c x.cu",
    "-gencode arch=compute_80,code=\\\"sm_80,compute_80\\\" -c x.cu",
    "-c -o a.o x.cu x.cu",
    "x.cu foo.xyz",
    "-c=1 x.cu",
    "-c",
]


def nvcc_verdict(line: str, cwd) -> str:
    run = subprocess.run(
        [NVCC, "-dryrun", *shlex.split(line)], cwd=cwd, capture_output=True, text=True,
        timeout=30,
    )
    fatal = [ln for ln in run.stderr.splitlines() if ln.startswith("nvcc fatal   : ")]
    return fatal[0][len("nvcc fatal   : "):] if fatal else "ok"


def our_verdict(line: str) -> str:
    try:
        parse(["-dryrun", *shlex.split(line)])
    except UsageError as e:
        return str(e)
    return "ok"


@pytest.mark.parametrize("line", LINES)
def test_same_verdict(line, tmp_path):
    (tmp_path / "x.cu").write_text("__global__ void k() {}\nint main() {}\n")
    assert our_verdict(line) == nvcc_verdict(line, tmp_path)
