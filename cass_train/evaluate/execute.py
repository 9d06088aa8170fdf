"""Execution accuracy: the translation built with HIP-on-NVIDIA and run beside the CUDA original on
the NVIDIA GPU, through cass_cc/verify's runner; then runtime and peak-memory ratios.

    outcome = run_pair(program, hip_path, verify_tools, arch, work)

The runner builds both sides (nvcc for the original, the hipnv adapter for the translation),
runs both with the program's arguments and compares them (verdict words, outputs). A program
passes when its translation exits 0 and says PASS. Timing: each built side is run `repeat` more
times; the runtime ratio is the translation's over the original's median, from the programs'
own `kernel time: X ms` lines when both print one, else from process wall time; the memory ratio
is of peak resident memory (ru_maxrss of the process, host side). Without a GPU nothing runs and
the outcome says so.
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

KERNEL_TIME = re.compile(r"kernel time:\s*([0-9.]+)\s*ms")


@dataclass
class Execution:
    ran: bool | None  # None: not run (no GPU, or nothing to run)
    passed: bool | None = None
    outcome: str = "not-run"  # the runner's: agree, differ, timeout, build-failed, original-failed, not-run, error
    error: str = ""
    original_passed: bool | None = None
    runtime_ratio: float | None = None
    memory_ratio: float | None = None
    timing: dict[str, Any] = field(default_factory=dict)


def measured_run(argv: Sequence[str], cwd: str, timeout: float = 60.0) -> tuple[float, float, float | None, int]:
    """One run with its own peak RSS: fork/exec and os.wait4 give this child's rusage alone."""
    import signal

    out_path = os.path.join(cwd, ".cass-eval.out")
    start = time.monotonic()
    with open(out_path, "wb") as out, open(os.devnull, "rb") as devnull:
        proc = subprocess.Popen(list(argv), cwd=cwd, stdout=out, stderr=subprocess.DEVNULL, stdin=devnull)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.kill(proc.pid, signal.SIGKILL)
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                return float("inf"), 0.0, None, -9
            time.sleep(0.005)
    wall = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    text = Path(out_path).read_text(errors="replace")
    m = KERNEL_TIME.search(text)
    return wall, usage.ru_maxrss / 1024.0, float(m.group(1)) if m else None, proc.returncode


def _ratio(a: list[float], b: list[float]) -> float | None:
    if not a or not b:
        return None
    ma, mb = statistics.median(a), statistics.median(b)
    return ma / mb if mb > 0 else None


def run_pair(program: Any, translation: str, tools: Any, arch: str, work: str, repeat: int = 3,
             include_dirs: Sequence[str] = (), timeout: float = 120.0) -> Execution:
    """`translation`: the HIP file (file programs) or the ported tree (tree programs)."""
    from cass_cc.verify.runner import BuildSpec, Case, RunSpec, verify

    if not tools.gpu:
        return Execution(None, error="not run: no NVIDIA GPU here")
    if program.kind == "tree":
        # HeCBench's Makefiles take ARCH=sm_XX; the ported one builds with the HIP-on-NVIDIA hipcc
        case = Case(program.name, str(program.path), translation,
                    BuildSpec(command=f"make ARCH={arch}", ported_command="make", arch=arch),
                    RunSpec(command="make -s run", timeout=timeout, run=True), work=work)
    else:
        case = Case(program.name, str(program.path), translation, BuildSpec(arch=arch), RunSpec(args=tuple(program.args), timeout=timeout, run=True),
                    work=work, include_dirs=tuple(include_dirs))
    result = verify(case, tools)
    ex = Execution(ran=result.translation.run is not None, outcome=result.outcome)
    orun, trun = result.original.run, result.translation.run
    if orun is not None:
        ex.original_passed = orun.exit_code == 0 and orun.verdict == "PASS"
    if trun is None:
        ex.passed = False
        ex.error = (result.reasons[0] if result.reasons else result.outcome) + ": " + _first(result.translation.build_log)
        return ex
    ex.passed = trun.exit_code == 0 and trun.verdict == "PASS"
    if not ex.passed:
        ex.error = f"translation {trun.status}, verdict {trun.verdict}: " + _first(trun.stdout + "\n" + trun.stderr)
    if ex.passed and program.kind == "file":
        sides = {"original": os.path.join(work, "original"), "translation": os.path.join(work, "translation")}
        walls: dict[str, list[float]] = {}
        rss: dict[str, list[float]] = {}
        kms: dict[str, list[float]] = {}
        for _ in range(repeat):
            for side, folder in sides.items():  # interleaved, so drifts hit both sides alike
                run_dir = os.path.join(folder, "run")
                os.makedirs(run_dir, exist_ok=True)
                wall, peak, kernel_ms, code = measured_run([os.path.join(folder, "prog"), *program.args], run_dir, timeout)
                if code != 0:
                    continue
                walls.setdefault(side, []).append(wall)
                rss.setdefault(side, []).append(peak)
                if kernel_ms is not None:
                    kms.setdefault(side, []).append(kernel_ms)
        ex.timing = {"wall": walls, "peak_rss_mib": rss, "kernel_ms": kms}
        if kms.get("translation") and kms.get("original"):
            ex.runtime_ratio = _ratio(kms["translation"], kms["original"])
        else:
            ex.runtime_ratio = _ratio(walls.get("translation", []), walls.get("original", []))
        ex.memory_ratio = _ratio(rss.get("translation", []), rss.get("original", []))
    elif ex.passed and orun is not None and orun.seconds > 0:
        ex.runtime_ratio = trun.seconds / orun.seconds
    return ex


def _first(text: str) -> str:
    from .build import first_error

    return first_error(text) if text.strip() else ""
