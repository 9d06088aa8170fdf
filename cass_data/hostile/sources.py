"""`cass-data hostile sources`: bad and extreme CUDA sources through `cass-cc -c`.

Case i of seed S is one generator from GENERATORS, drawn with its sizes from Random(f"{S}:{i}"):
binary garbage, NUL bytes, invalid UTF-8, byte-order marks, unterminated comments, strings
and #if blocks, long expressions, deep nests of (), [] and {}, huge files, missing and
self-including headers, a FIFO or a folder named *.cu. Each generator says what nvcc does
with its source (checked with the real nvcc 13, `nvcc -c -arch=sm_90`): "builds" (cass-cc
must build it too), "refused" (cass-cc must fail with a message), or None (either, when
nvcc's verdict depends on the bytes drawn). `--nvcc` checks every case against the real nvcc
instead (slow: seconds a case).

Outcomes: ok, refused, and the failures traceback, hang and disagrees (an outcome the
generator's expectation or nvcc contradicts, or an object left behind by a failed run).
"""
from __future__ import annotations

import os
import random
import subprocess
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import click

from .common import CASS_CC, Result, Tally, finish, run_bounded, sort_outcome

KERNEL = "__global__ void k(float* p, float x) {{ p[threadIdx.x] = {body}; }}\n"
PLAIN = KERNEL.format(body="x")


@dataclass
class Source:
    """What one case writes: `text` as the .cu file (None: `make` builds the path itself)."""

    data: bytes | None
    expect: str | None  # "builds", "refused" or None (either)
    what: str
    make: Callable[[Path], None] | None = None
    headers: dict[str, bytes] | None = None


def garbage(rng: random.Random) -> Source:
    return Source(rng.randbytes(rng.choice((1, 64, 4096, 65536))), None, "random bytes")


def nul_bytes(rng: random.Random) -> Source:
    data = bytearray(PLAIN.encode())
    for _ in range(rng.randint(1, 4)):
        data.insert(rng.randrange(len(data) + 1), 0)
    return Source(bytes(data), None, "NUL bytes in a kernel")


def nul_in_comment(rng: random.Random) -> Source:
    return Source(b"// a \0 in a comment\n" + PLAIN.encode(), "builds", "NUL in a comment")


def invalid_utf8(rng: random.Random) -> Source:
    bad = rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"))
    where = rng.choice(("comment", "string", "code"))
    if where == "comment":
        return Source(b"/* " + bad + b" */\n" + PLAIN.encode(), "builds", "invalid UTF-8 in a comment")
    if where == "string":
        return Source(b'const char* s = "' + bad + b'";\n' + PLAIN.encode(), "builds", "invalid UTF-8 in a string")
    return Source(PLAIN.encode().replace(b"x;", bad + b"x;"), "refused", "invalid UTF-8 in code")


def bom(rng: random.Random) -> Source:
    mark = rng.choice((b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf"))
    return Source(mark + PLAIN.encode(), "builds" if len(mark) == 3 else "refused", f"{len(mark) // 3} UTF-8 BOM")


def utf16(rng: random.Random) -> Source:
    return Source(b"\xff\xfe" + PLAIN.encode("utf-16-le"), "refused", "UTF-16 with its BOM")


def unterminated(rng: random.Random) -> Source:
    tail = rng.choice(("/* never closed\n", 'const char* s = "never closed\n', "char c = 'x\n", "#if 1\n",
                       'const char* r = R"(never closed\n', "__global__ void q() {\n", "#define M(a) (a\nint v = M(1;\n"))
    return Source((PLAIN + tail).encode(), "refused", f"unterminated {tail.strip()[:20]!r}")


def long_expression(rng: random.Random) -> Source:
    terms = rng.choice((1000, 5000, 20000))
    op = rng.choice((" + ", " * ", " - "))
    return Source(KERNEL.format(body=op.join(["x"] * terms)).encode(), "builds", f"{terms}-term expression")


def deep_nest(rng: random.Random) -> Source:
    depth = rng.choice((300, 1000, 5000))
    kind = rng.choice(("braces", "parens", "brackets"))
    if kind == "braces":
        text = "__global__ void k(int* p) {\n" + "{" * depth + "p[0] = 1;" + "}" * depth + "\n}\n"
    elif kind == "parens":
        text = "__global__ void k(int* p) {\n p[0] = " + "(" * depth + "1" + ")" * depth + ";\n}\n"
    else:  # p[p[p[...0...]]]
        text = "__global__ void k(int* p) {\n p[0] = " + "p[" * depth + "0" + "]" * depth + ";\n}\n"
    return Source(text.encode(), "builds", f"{depth}-deep {kind}")


def huge_file(rng: random.Random) -> Source:
    mib = rng.choice((1, 8))
    filler = ("// " + "x" * 76 + "\n") * (mib * 2**20 // 80)
    return Source((filler + PLAIN).encode(), "builds", f"{mib} MiB of comments")


def many_kernels(rng: random.Random) -> Source:
    n = rng.choice((200, 1000))
    text = "".join(f"__global__ void k{i}(float* p) {{ p[{i}] = {i}.0f; }}\n" for i in range(n))
    return Source(text.encode(), "builds", f"{n} kernels")


def long_line(rng: random.Random) -> Source:
    name = "v" * rng.choice((10_000, 200_000))
    return Source(f"__device__ int {name};\n{PLAIN}".encode(), "builds", f"{len(name)}-character identifier")


def missing_include(rng: random.Random) -> Source:
    form = rng.choice(('"no_such_header.h"', "<no_such_header.h>"))
    return Source(f"#include {form}\n{PLAIN}".encode(), "refused", f"missing {form}")


def self_include(rng: random.Random) -> Source:
    return Source(b'#include "self.h"\n' + PLAIN.encode(), "refused", "a header that includes itself",
                  headers={"self.h": b'#include "self.h"\n'})


def empty(rng: random.Random) -> Source:
    return Source(rng.choice((b"", b"\n", b"   \n\n")), "builds", "empty source")


def fifo(rng: random.Random) -> Source:
    return Source(None, "refused", "a FIFO named *.cu", make=lambda p: os.mkfifo(p))


def folder(rng: random.Random) -> Source:
    return Source(None, "refused", "a folder named *.cu", make=lambda p: p.mkdir())


GENERATORS: tuple[Callable[[random.Random], Source], ...] = (
    garbage, nul_bytes, nul_in_comment, invalid_utf8, bom, utf16, unterminated, long_expression, deep_nest,
    huge_file, many_kernels, long_line, missing_include, self_include, empty, fifo, folder)


# Minutes a case with clang-15 (quadratic in the terms, like nvcc), or heavy on 2 cores: left
# out of the CI slice.
HEAVY = ("long_expression", "huge_file")


def case(seed: int, i: int, skip: tuple[str, ...] = ()) -> Source:
    rng = random.Random(f"{seed}:{i}")
    return rng.choice([g for g in GENERATORS if g.__name__ not in skip])(rng)


def nvcc_builds(nvcc: str, src: Path, timeout: float) -> bool | None:
    """The truth: does the real nvcc build it? None when nvcc itself did not finish."""
    try:
        proc = subprocess.run([nvcc, "-c", "-arch=sm_90", str(src), "-o", str(src.with_suffix(".nvcc.o"))],
                              capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    return proc.returncode == 0


def judge(r: Result, out: Path, expect: str | None) -> str:
    outcome = sort_outcome(r)
    if outcome in ("hang", "traceback"):
        return outcome
    if outcome != "ok" and out.exists():
        return "disagrees"  # a failed compile must not leave an object make would trust
    if expect == "builds" and outcome != "ok" or expect == "refused" and outcome == "ok":
        return "disagrees"
    return outcome


def run_case(seed: int, i: int, work: Path, limit: float, tool_timeout: float, nvcc: str | None,
             skip: tuple[str, ...] = ()) -> tuple[str, dict]:
    src_case = case(seed, i, skip)
    with tempfile.TemporaryDirectory(prefix=f"s{i}-", dir=work) as tmp:
        src, out = Path(tmp, "case.cu"), Path(tmp, "case.o")
        if src_case.make is not None:
            src_case.make(src)
        else:
            src.write_bytes(src_case.data or b"")
        for name, data in (src_case.headers or {}).items():
            Path(tmp, name).write_bytes(data)
        expect = src_case.expect
        if nvcc and src_case.make is None:
            truth = nvcc_builds(nvcc, src, limit)
            expect = None if truth is None else ("builds" if truth else "refused")
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("CASS_MODEL")},
               "CASS_TOOL_TIMEOUT": f"{tool_timeout:g}"}
        r = run_bounded([*CASS_CC, "-c", "-arch=sm_90", str(src), "-o", str(out)], timeout=limit, cwd=tmp, env=env)
        outcome = judge(r, out, expect)
    tail = r.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
    return outcome, {"case": f"{seed}:{i}", "what": src_case.what, "expect": expect, "rc": r.rc,
                     "seconds": round(r.seconds, 1), "stderr": tail}


def run(count: int, seed: int, *, jobs: int = 1, tool_timeout: float = 120.0, limit: float | None = None,
        nvcc: str | None = None, start: int = 0, skip: tuple[str, ...] = ()) -> tuple[Tally, float]:
    """Cases start..start+count-1 of `seed`; returns the tally and the seconds taken."""
    # clang, then the host compile and the device link: cass-cc's own deadlines come first
    limit = limit or 3 * tool_timeout + 60
    tally = Tally("sources")
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hostile-sources-") as tmp:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for outcome, example in pool.map(lambda i: run_case(seed, i, Path(tmp), limit, tool_timeout, nvcc, skip),
                                             range(start, start + count)):
                tally.add(outcome, example)
    return tally, time.monotonic() - began


@click.command("sources")
@click.option("--count", default=100, show_default=True, help="cases to run")
@click.option("--seed", default=0, show_default=True, help="case i is Random(f'{seed}:{i}')")
@click.option("--start", default=0, show_default=True, help="first case index")
@click.option("--jobs", "-j", default=1, show_default=True, help="cases run at once")
@click.option("--tool-timeout", default=120.0, show_default=True, help="CASS_TOOL_TIMEOUT given to cass-cc (seconds)")
@click.option("--limit", type=float, default=None, help="seconds before a run counts as a hang (default: 3 tool timeouts + 60)")
@click.option("--nvcc", "use_nvcc", is_flag=True, help="compare with the real nvcc's verdict on every case (slow)")
@click.option("--report", type=click.Path(path_type=Path), default=None, help="write the tally as JSON here")
def command(count: int, seed: int, start: int, jobs: int, tool_timeout: float, limit: float | None,
            use_nvcc: bool, report: Path | None) -> None:
    """Bad and extreme CUDA sources through `cass-cc -c`: never a traceback or a hang."""
    nvcc = None
    if use_nvcc:
        from .cubins import find_nvcc

        nvcc = find_nvcc()
        if not nvcc:
            raise click.ClickException("--nvcc: the real nvcc was not found (set CASS_NVCC)")
    tally, seconds = run(count, seed, jobs=jobs, tool_timeout=tool_timeout, limit=limit, nvcc=nvcc, start=start)
    finish(tally, seconds, report, f"{seconds / max(count, 1):.2f} s a case")
