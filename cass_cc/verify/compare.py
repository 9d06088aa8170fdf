"""Comparing two runs of one program: exit status, verdict words, outputs with a tolerance.

Pure functions over recorded outputs, so they are tested without a GPU:

    compare(original: Run, translation: Run, Tolerance()) -> Comparison

Lines about timing ("time", "ms", "GB/s", ...) are masked before comparing; numbers are
compared with a relative tolerance (default 1e-5) plus a small absolute one for values near
zero; the rest of each line must match exactly (runs of blanks count as one).
"""
from __future__ import annotations

import difflib
import functools
import math
import re
import signal
from dataclasses import dataclass, field

# Words that make a line about speed, not results; such lines differ from run to run.
TIMING = re.compile(
    r"(?i)(\b(times?|timing|elapsed|runtime|duration|seconds?|secs?|ms|msecs?|milliseconds?|us|usecs?|"
    r"microseconds?|ns|throughput|bandwidth|g?flops|[gmt]flop/s|gops|fps|speed-?up|performance|cycles|"
    r"measured)\b|\d\s*s\b|\(s\)|\(ms\)|\(us\)|"
    # rates: kB/s, GiB/s, GF/s, Gops/s, keys/sec, (millions/sec) ...
    r"\b[kmgtp]?i?(?:b|bytes?|f|flops?|ops|keys|elements|items|points|pts|updates|millions)\s*/\s*s(?:ec)?\b)"
)
NUMBER = re.compile(r"(?i)[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|[-+]?\b(?:nan|inf(?:inity)?)\b")
PASS_WORDS = re.compile(r"\b(PASS(ED)?|Pass(ed)?|passed|SUCCESS(FUL)?|Success(ful)?|successful(ly)?|CORRECT|Correct|correct)\b")
FAIL_WORDS = re.compile(r"\b(FAIL(ED|URE|S)?|Fail(ed|ure|s)?|failed|failure|INCORRECT|Incorrect|incorrect|"
                        r"MISMATCH(ES)?|Mismatch(es)?|WRONG|Wrong)\b")
MASK = "<timing>"
MAX_DIFF_LINES = 24


@functools.lru_cache(maxsize=64)
def _compiled(patterns: tuple[str, ...]) -> list[re.Pattern[str]]:
    return [re.compile(p) for p in patterns]


@dataclass(frozen=True)
class Tolerance:
    """How close two outputs must be: numbers within rtol (plus atol near zero); lines that match
    any of `masks` (regular expressions, beside the built-in timing words) are not compared."""
    rtol: float = 1e-5
    atol: float = 1e-8
    masks: tuple[str, ...] = ()

    def masked(self, line: str) -> bool:
        return bool(TIMING.search(line)) or any(m.search(line) for m in _compiled(self.masks))

    def close(self, a: float, b: float) -> bool:
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= self.atol + self.rtol * max(abs(a), abs(b))


@dataclass(frozen=True)
class Run:
    """What one run left behind. exit_code is negative for a signal (as subprocess reports it)."""
    exit_code: int | None  # None: not run (or killed for time or memory)
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    out_of_memory: bool = False
    seconds: float = 0.0

    @property
    def verdict(self) -> str | None:
        return verdict(self.stdout + "\n" + self.stderr)

    @property
    def status(self) -> str:
        """'exit 0', 'exit 1', 'SIGSEGV', 'timed out', 'out of memory', 'not run'."""
        if self.timed_out:
            return "timed out"
        if self.out_of_memory:
            return "out of memory"
        if self.exit_code is None:
            return "not run"
        if self.exit_code < 0:
            try:
                return signal.Signals(-self.exit_code).name
            except ValueError:
                return f"signal {-self.exit_code}"
        return f"exit {self.exit_code}"


@dataclass
class Comparison:
    outcome: str  # agree | differ | timeout
    reasons: list[str] = field(default_factory=list)
    diff: str = ""  # short unified diff of the masked outputs
    verdicts: tuple[str | None, str | None] = (None, None)

    @property
    def verdicts_agree(self) -> bool:
        return self.verdicts[0] == self.verdicts[1]


def verdict(text: str) -> str | None:
    """'FAIL' if a failure word appears, else 'PASS' if a success word does, else None."""
    if FAIL_WORDS.search(text):
        return "FAIL"
    if PASS_WORDS.search(text):
        return "PASS"
    return None


def mask_line(line: str, tol: Tolerance = Tolerance()) -> str:
    return MASK if tol.masked(line) else line


def normalise(text: str, tol: Tolerance = Tolerance()) -> list[str]:
    """Lines with timing lines masked, trailing blanks dropped and blank runs collapsed."""
    lines = [" ".join(mask_line(line, tol).split()) for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _split(line: str) -> tuple[list[str], list[float]]:
    texts: list[str] = []
    numbers: list[float] = []
    pos = 0
    for m in NUMBER.finditer(line):
        texts.append(line[pos:m.start()])
        numbers.append(float(m.group(0)))
        pos = m.end()
    texts.append(line[pos:])
    return texts, numbers


def line_difference(a: str, b: str, tol: Tolerance) -> str | None:
    """None when the lines agree; else why not (the first number out of tolerance, or 'text')."""
    if a == b:
        return None
    ta, na = _split(a)
    tb, nb = _split(b)
    if ta != tb or len(na) != len(nb):
        return "text differs"
    for x, y in zip(na, nb):
        if not tol.close(x, y):
            rel = abs(x - y) / max(abs(x), abs(y)) if max(abs(x), abs(y)) else math.inf
            return f"{x:g} vs {y:g} (relative difference {rel:.2g})"
    return None


def short_diff(a: list[str], b: list[str], names: tuple[str, str] = ("original", "translation")) -> str:
    lines = list(difflib.unified_diff(a, b, names[0], names[1], n=1, lineterm=""))
    if len(lines) > MAX_DIFF_LINES:
        lines = lines[:MAX_DIFF_LINES] + [f"... ({len(lines) - MAX_DIFF_LINES} more diff lines)"]
    return "\n".join(lines)


def compare_outputs(a: str, b: str, tol: Tolerance) -> tuple[list[str], str]:
    """(reasons, diff) for two stdouts; no reasons when they agree within tolerance."""
    la, lb = normalise(a, tol), normalise(b, tol)
    reasons: list[str] = []
    if len(la) != len(lb):
        reasons.append(f"output has {len(la)} vs {len(lb)} lines")
    else:
        for number, (x, y) in enumerate(zip(la, lb), 1):
            why = line_difference(x, y, tol)
            if why is not None:
                reasons.append(f"output line {number}: {why}")
                if len(reasons) >= 3:
                    break
    if not reasons:
        return [], ""
    # The diff shows lines that differ beyond tolerance only: equal-within-tolerance lines are made equal.
    lb_shown = [x if len(la) == len(lb) and line_difference(x, y, tol) is None else y for x, y in zip(la, lb)]
    lb_shown += lb[len(lb_shown):]
    return reasons, short_diff(la, lb_shown)


def compare(original: Run, translation: Run, tol: Tolerance = Tolerance()) -> Comparison:
    verdicts = (original.verdict, translation.verdict)
    if original.timed_out or translation.timed_out:
        who = [n for n, r in (("original", original), ("translation", translation)) if r.timed_out]
        return Comparison("timeout", [f"{' and '.join(who)} timed out"], "", verdicts)
    reasons: list[str] = []
    if original.status != translation.status:
        reasons.append(f"{original.status} vs {translation.status}")
    if verdicts[0] != verdicts[1]:
        reasons.append(f"verdict {verdicts[0] or 'none'} vs {verdicts[1] or 'none'}")
    output_reasons, diff = compare_outputs(original.stdout, translation.stdout, tol)
    reasons += output_reasons
    if not reasons and original.exit_code is not None and original.exit_code < 0:
        return Comparison("agree", [f"both ended with {original.status}"], "", verdicts)
    return Comparison("differ" if reasons else "agree", reasons, diff, verdicts)
