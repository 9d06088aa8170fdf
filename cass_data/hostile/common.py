"""What every hostile family shares: a bounded run of a command and the sorting of its outcome."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[2]
CASS_CC = [sys.executable, str(ROOT / "bin" / "cass-cc")]

# Outcomes that fail a run. "refused" (a non-zero exit with a message) and "ok" are fine;
# "disagrees" is only given by families with a truth to compare with.
FAILURES = ("traceback", "hang", "disagrees")


@dataclass
class Result:
    rc: int | None  # None: killed at the time limit
    stdout: bytes
    stderr: bytes
    seconds: float


def run_bounded(argv: Sequence[str], *, timeout: float, cwd: str | os.PathLike[str] | None = None,
                env: dict[str, str] | None = None, stdin: bytes | None = None) -> Result:
    """Run argv in its own process group; past `timeout` the whole group is killed (tools it started too)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
        rc: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        rc = None
    return Result(rc, out, err, time.monotonic() - start)


def is_traceback(stderr: bytes) -> bool:
    return b"Traceback (most recent call last)" in stderr or b"internal error" in stderr


def sort_outcome(r: Result) -> str:
    """hang, traceback, ok or refused: what a run did, before any comparison with a truth."""
    if r.rc is None:
        return "hang"
    if is_traceback(r.stderr) or r.rc < 0:  # a signal (segfault, abort) is a crash like a traceback
        return "traceback"
    return "ok" if r.rc == 0 else "refused"


@dataclass
class Tally:
    """Counts per outcome, with the first few examples of each failure kept for the report."""
    family: str
    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[Any]] = field(default_factory=dict)
    keep: int = 5

    def add(self, outcome: str, example: Any = None) -> None:
        self.counts[outcome] += 1
        if outcome in FAILURES and example is not None:
            kept = self.examples.setdefault(outcome, [])
            if len(kept) < self.keep:
                kept.append(example)

    @property
    def failures(self) -> int:
        return sum(self.counts[k] for k in FAILURES)

    def summary(self) -> str:
        parts = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        return f"{self.family}: {sum(self.counts.values())} cases: {parts}"

    def to_json(self) -> dict[str, Any]:
        return {"family": self.family, "counts": dict(self.counts), "examples": self.examples}

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1, default=str) + "\n")


def finish(tally: Tally, seconds: float, report: Path | None, note: str = "") -> None:
    """A family command's end: the summary line, the first failures on stderr, the report, and
    exit status 1 when anything failed (a CI step or a shell loop stops on it)."""
    import click

    click.echo(f"{tally.summary()} ({seconds:.0f} s{', ' + note if note else ''})")
    for kind, examples in tally.examples.items():
        for ex in examples[:3]:
            click.echo(f"  {kind}: {json.dumps(ex, default=str)[:400]}", err=True)
    if report:
        tally.write(report)
    if tally.failures:
        raise SystemExit(1)
