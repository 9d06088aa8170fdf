"""What the differential runner adds to building and running both sides by hand.

    python bench/verify_overhead.py [--runs 5]

Two workloads, each timed by hand and through cass_cc.verify.verify (tools found once, as a
batch does), interleaved, medians of wall-clock time and of the CPU time of child processes:

- build: tests/verify/programs/reduce.cu with nvcc and its translation with the HIP-on-NVIDIA
  compiler (by hand: the same nvcc command lines, run one after the other); nothing is run
  ("compiled, not run"), as on a machine without a GPU;
- run: a host-only tree pair (a C program of ~1-2 s) built with cc and run on both sides, so
  the run path (limits, output capture, comparison) is measured without a GPU.

Target: the runner adds <= 5%.
"""
from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT  # noqa: E402
from cass_cc import hipnv  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402
from cass_cc.verify import BuildSpec, Case, RunSpec, find_tools, verify  # noqa: E402

PROGRAM = ROOT / "tests" / "verify" / "programs" / "reduce.cu"
C_PROGRAM = r"""#include <stdio.h>
int main(void) {
  double s = 0;
  for (long i = 1; i < 600000000L; ++i) s += 1.0 / (double)i;
  printf("harmonic %.9f\nPASS\n", s);
  return 0;
}
"""


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(fn) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    c0, t0 = children_cpu(), time.perf_counter()
    fn()
    return time.perf_counter() - t0, children_cpu() - c0


def translate(work: Path) -> Path:
    from cass_cc.verify.cli import _translate

    hip, error = _translate(PROGRAM, work, None)
    if error:
        raise SystemExit(f"cass-cc: error: {PROGRAM}: {error}")
    return hip


@click.command(help=__doc__.split("\n")[0], context_settings=CONTEXT)
@click.option("--runs", "run_count", type=int, default=5)
def command(run_count: int) -> None:
    env = dict(os.environ)
    tools = find_tools(env, gpu=False)
    work = Path(tempfile.mkdtemp(prefix="cass-verify-bench."))
    try:
        hip = translate(work)
        spec = BuildSpec(arch="sm_80")
        plan = hipnv.plan_commands([*spec.flags, f"-I{PROGRAM.parent}", str(hip), "-o", str(work / "t")],
                                   tools.nvcc, Path(tools.hipnv_folder), spec.arch, str(work))
        by_hand_cmds = [[tools.nvcc, "-arch=sm_80", "-Wno-deprecated-gpu-targets", *spec.flags, f"-I{PROGRAM.parent}",
                         str(PROGRAM), "-o", str(work / "o")], *[list(s) for s in plan.steps]]

        def build_by_hand() -> None:
            for c in by_hand_cmds:
                subprocess.run(c, check=True, capture_output=True)

        build_case = Case("reduce", str(PROGRAM), str(hip), spec, RunSpec(run=False))

        def build_runner() -> None:
            r = verify(build_case, tools, env)
            assert r.level == "compiled for NVIDIA", r.to_json()

        for side in ("a", "b"):
            (work / side).mkdir()
            (work / side / "main.c").write_text(C_PROGRAM)
        cc = shutil.which("cc") or "gcc"
        run_case = Case("host", str(work / "a"), str(work / "b"), BuildSpec(command=f"{cc} -O1 main.c -o main"),
                        RunSpec(command="./main", run=True))

        def run_by_hand() -> None:
            for side in ("a", "b"):
                d = work / "hand" / side
                shutil.rmtree(d, ignore_errors=True)
                shutil.copytree(work / side, d)
                subprocess.run([cc, "-O1", "main.c", "-o", "main"], cwd=d, check=True)
                subprocess.run(["./main"], cwd=d, check=True, capture_output=True)

        def run_runner() -> None:
            r = verify(run_case, tools, env)
            assert r.outcome == "agree", r.to_json()

        rows = []
        for name, hand, runner in (("build (nvcc, both sides)", build_by_hand, build_runner),
                                   ("build + run (host trees)", run_by_hand, run_runner)):
            hand_t, run_t = [], []
            timed(hand), timed(runner)  # warm caches
            for _ in range(run_count):
                hand_t.append(timed(hand))
                run_t.append(timed(runner))
            hw, hc = statistics.median(t[0] for t in hand_t), statistics.median(t[1] for t in hand_t)
            rw, rc = statistics.median(t[0] for t in run_t), statistics.median(t[1] for t in run_t)
            rows.append((name, hw, rw, hc, rc))
        print(f"{'workload':26} {'by hand s':>10} {'runner s':>9} {'wall +%':>8} {'cpu by hand':>12} {'cpu runner':>11} {'cpu +%':>7}")
        for name, hw, rw, hc, rc in rows:
            print(f"{name:26} {hw:10.2f} {rw:9.2f} {100 * (rw / hw - 1):8.1f} {hc:12.2f} {rc:11.2f} {100 * (rc / hc - 1):7.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/verify_overhead.py")


if __name__ == "__main__":
    raise SystemExit(main())
