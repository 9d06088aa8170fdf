"""Driver overhead, measured against its own baseline in the same run.

1. `cass-cc -c k.cu` on a warm translation cache, against clang compiling the cached
   .hip with exactly the command cass-cc runs (taken from `cass-cc --dryrun`).
   Target: ratio <= 1.05.
2. `cass-cc --version` wall time. Target: <= 0.15 s.

    python bench/driver_overhead.py [--runs 7] [--source examples/vector-stats/reduce.cu]

Wall clock and CPU time are both printed; on a machine shared with other work, trust CPU.
"""
from __future__ import annotations

import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

from cass_cc.click_main import run_click

ROOT = Path(__file__).resolve().parent.parent
# As a build runs it: the script itself (it starts the recorded interpreter with -S).
CASS_CC = [str(ROOT / "bin" / "cass-cc")]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children): CPU time is the steadier
    measure on a shared machine."""
    start, cpu = time.perf_counter(), _children_cpu()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, _children_cpu() - cpu


def wall(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    return timed(cmd, cwd, env)[0]


# The docstring as it is written (a paragraph whose first line is \b is not rewrapped), -h beside
# --help: as bench/_cli.py has them (this script imports nothing from the repository root).
@click.command(help="\b\n" + __doc__.strip("\n").replace("\n\n", "\n\n\b\n"),
               context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--runs", type=int, default=7)
@click.option("--source", default=str(ROOT / "examples" / "vector-stats" / "reduce.cu"))
def command(runs: int, source: str) -> int:
    with tempfile.TemporaryDirectory(prefix="cass-bench-") as tmp:
        work = Path(tmp)
        src = Path(source)
        for f in src.parent.iterdir():
            if f.is_file():
                shutil.copy(f, work / f.name)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASS_")}
        env["CASS_CACHE_DIR"] = str(work / "cache")
        env["CASS_CONFIG"] = str(work / "none.toml")
        flags = ["-O2", "-std=c++17", "-arch=sm_80", "-c", src.name, "-o", "k.o"]

        subprocess.run(CASS_CC + flags, cwd=work, env=env, check=True)  # warm the cache
        dry = subprocess.run(CASS_CC + ["--dryrun"] + flags, cwd=work, env=env, check=True, capture_output=True, text=True)
        clang_line = next(line[3:] for line in dry.stderr.splitlines() if line.startswith("#$ ") and " -x hip " in line)
        clang_cmd = shlex.split(clang_line)
        strict = {**env, "CASS_CACHE_REQUIRE_HIT": "1"}

        cass_runs, clang_runs = [], []
        for _ in range(runs):  # interleaved, so drift hits both alike
            cass_runs.append(timed(CASS_CC + flags, work, strict))
            clang_runs.append(timed(clang_cmd, work, env))
        for i, what in ((0, "wall"), (1, "CPU")):
            cass_med = statistics.median(r[i] for r in cass_runs)
            clang_med = statistics.median(r[i] for r in clang_runs)
            ratio = cass_med / clang_med
            print(f"warm-cache compile, {what}: cass-cc {cass_med:.3f} s, clang {clang_med:.3f} s (median of {runs}); "
                  f"ratio {ratio:.3f} (target <= 1.05) {'OK' if ratio <= 1.05 else 'OVER'}")
        extra = (sum(r[1] for r in cass_runs) - sum(r[1] for r in clang_runs)) / runs
        print(f"cass-cc's own CPU time per compile: {extra * 1000:.0f} ms (mean)")

        version_times = [wall(CASS_CC + ["--version"], work, env) for _ in range(max(runs, 10))]
        base_times = [wall([sys.executable, "-c", "pass"], work, env) for _ in range(max(runs, 10))]
        v, base = statistics.median(version_times), statistics.median(base_times)
        print(f"cass-cc --version: {v:.3f} s (target <= 0.15) {'OK' if v <= 0.15 else 'OVER'}; "
              f"bare python start-up {base:.3f} s, ratio {v / base:.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/driver_overhead.py")


if __name__ == "__main__":
    sys.exit(main())
