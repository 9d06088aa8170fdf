"""The comparison on recorded outputs: tolerance, masked timing lines, verdict words, crashes,
time-outs, and the short diff."""
from __future__ import annotations

import pytest

from cass_cc.verify.compare import Run, Tolerance, compare, mask_line, normalise, verdict


@pytest.mark.parametrize("line, masked", [
    ("Average kernel execution time: 12.5 (us)", True),
    ("Total time 3.2 ms", True),
    ("Throughput: 812.3 GB/s", True),
    ("elapsed 4 s", True),
    ("GFLOPS 100.2", True),
    ("CPU speed : 9481.62 kB/s", True),  # keccaktreehash
    ("GF/s (device): 4.408", True),  # minisweep
    ("pt_rate (millions/sec) = 3.25", True),  # rtm8
    ("sorted 1e6 keys/sec", True),
    ("a/b/c = 3", False),
    ("sum = 1.5e+03", False),
    ("it's done: 3 steps", False),
    ("timestep 5 energy 1.25", False),
])
def test_timing_lines_are_masked(line: str, masked: bool) -> None:
    assert (mask_line(line) == "<timing>") == masked


@pytest.mark.parametrize("text, expected", [
    ("PASS", "PASS"), ("Result = PASS\n", "PASS"), ("Test passed", "PASS"), ("FAIL", "FAIL"),
    ("PASS\nFAIL", "FAIL"), ("Verification FAILED", "FAIL"), ("incorrect result", "FAIL"),
    ("3 mismatches", None), ("Mismatch at 4", "FAIL"), ("checksum 12", None), ("correct", "PASS"),
])
def test_verdict_words(text: str, expected: str | None) -> None:
    assert verdict(text) == expected


@pytest.mark.parametrize("a, b, rtol, agree", [
    ("sum = 1.000000", "sum = 1.000001", 1e-5, True),
    ("sum = 1.0000", "sum = 1.0001", 1e-5, False),
    ("sum = 1.0000", "sum = 1.0001", 1e-3, True),
    ("x 0", "x 1e-12", 1e-5, True),  # the absolute tolerance near zero
    ("v nan inf", "v nan inf", 1e-5, True),
    ("v inf", "v -inf", 1e-5, False),
    ("total   4", "total 4", 1e-5, True),  # blank runs count as one
    ("max 3 at 7", "max 3 at 8", 0.1, False),  # integers are numbers too: 7 vs 8 is 12.5% apart
    ("result A", "result B", 1.0, False),
])
def test_numbers_with_tolerance(a: str, b: str, rtol: float, agree: bool) -> None:
    c = compare(Run(0, a + "\nPASS\n"), Run(0, b + "\nPASS\n"), Tolerance(rtol))
    assert (c.outcome == "agree") == agree, c


def test_timing_lines_do_not_count() -> None:
    a = Run(0, "n = 10\nkernel time: 1.25 ms\nPASS\n")
    b = Run(0, "n = 10\nkernel time: 9.75 ms\nPASS\n")
    assert compare(a, b).outcome == "agree"
    assert normalise(a.stdout) == ["n = 10", "<timing>", "PASS"]


def test_user_masks() -> None:
    """--mask REGEX: lines a program prints about its own speed that no timing word gives away."""
    a = Run(0, "dt = 0.312313\nPASS\n")
    b = Run(0, "dt = 0.498959\nPASS\n")
    assert compare(a, b).outcome == "differ"
    assert compare(a, b, Tolerance(masks=(r"^dt = ",))).outcome == "agree"
    assert compare(Run(0, "x = 1\n"), Run(0, "x = 2\n"), Tolerance(masks=(r"^dt = ",))).outcome == "differ"


def test_exit_status_verdict_and_diff() -> None:
    a = Run(0, "line 1\nvalue 2.5\nPASS\n")
    b = Run(1, "line 1\nvalue 2.7\nFAIL\n")
    c = compare(a, b)
    assert c.outcome == "differ"
    assert c.reasons[:2] == ["exit 0 vs exit 1", "verdict PASS vs FAIL"]
    assert any("2.5 vs 2.7" in r for r in c.reasons)
    assert c.diff.splitlines()[:2] == ["--- original", "+++ translation"]
    assert "-value 2.5" in c.diff and "+value 2.7" in c.diff and " line 1" in c.diff


def test_diff_is_short() -> None:
    a = Run(0, "".join(f"v {2 * i + 1}\n" for i in range(200)))
    b = Run(0, "".join(f"v {3 * i + 1}\n" for i in range(200)))
    c = compare(a, b)
    assert len(c.diff.splitlines()) <= 25 and "more diff lines" in c.diff
    assert len(c.reasons) == 3  # the first three lines that differ


def test_crashes() -> None:
    ok, crash = Run(0, "PASS\n"), Run(-11, "")
    c = compare(ok, crash)
    assert c.outcome == "differ" and c.reasons[0] == "exit 0 vs SIGSEGV"
    both = compare(Run(-6, "x\n"), Run(-6, "x\n"))
    assert both.outcome == "agree" and both.reasons == ["both ended with SIGABRT"]


def test_time_outs_are_inconclusive() -> None:
    c = compare(Run(0, "PASS\n"), Run(None, "", timed_out=True))
    assert c.outcome == "timeout" and c.reasons == ["translation timed out"]
    assert Run(None, timed_out=True).status == "timed out"
    assert Run(None, out_of_memory=True).status == "out of memory"


def test_line_count_differs() -> None:
    c = compare(Run(0, "a\nb\n"), Run(0, "a\n"))
    assert c.outcome == "differ" and c.reasons == ["output has 2 vs 1 lines"]
