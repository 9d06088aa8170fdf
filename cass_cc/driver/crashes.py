"""A tool that crashed rather than reported an error: told in one line, its dump kept in a file.

clang-15 prints its own crash report (the "PLEASE submit a bug report" banner, a stack dump
of a thousand lines on a stack overflow, the reproducer notes) and exits 1 after its -cc1
died of a signal; a tool run directly dies of the signal itself (a negative returncode).
The user gets the diagnostics the tool printed before it crashed, then one line naming the
file being compiled and the file holding the full report.
"""
from __future__ import annotations

import os
import shlex
import signal
import tempfile
from collections.abc import Sequence
from pathlib import Path

# Where a crash report starts in clang's (and gcc's) stderr, earliest first in its output.
MARKS = (b"PLEASE submit a bug report", b"Stack dump:", b"clang: error: unable to execute command",
         b"clang: error: clang frontend command failed due to signal", b"internal compiler error")
MARK = MARKS[0]
RETRIES = 3  # a crashed compile is run again this many times (a flaky crash is not the source's fault)


def crashed(returncode: int, stderr: bytes) -> bool:
    return returncode < 0 or (returncode != 0 and any(mark in stderr for mark in MARKS))


def diagnostics(stderr: bytes) -> bytes:
    """What the tool said before its crash report began (its errors and warnings)."""
    starts = [stderr.find(mark) for mark in MARKS if mark in stderr]
    if not starts:
        return stderr
    cut = stderr.rfind(b"\n", 0, min(starts)) + 1  # from the start of the banner's line
    return stderr[:cut]


def cause(returncode: int, stderr: bytes) -> str:
    """A few words: the signal, from the exit status or clang's "unable to execute command: X"."""
    if returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
    text = stderr.decode("utf-8", "replace")
    for line in text.splitlines():
        if "unable to execute command:" in line:
            return line.split("unable to execute command:", 1)[1].strip()
    return "stack dump" if "Stack dump:" in text else "internal error"


def save(argv: Sequence[str], returncode: int, stderr: bytes) -> Path:
    """The full report in a file of its own under the temporary folder (kept: it is for the user)."""
    tool = os.path.basename(argv[0])
    fd, path = tempfile.mkstemp(prefix=f"cass-cc-crash-{tool}-", suffix=".txt")
    with os.fdopen(fd, "wb") as f:
        f.write(f"command: {shlex.join(argv)}\nexit status: {returncode}\n\n".encode())
        f.write(stderr)
    return Path(path)


def message(files: str, argv: Sequence[str], returncode: int, stderr: bytes) -> str:
    """The one line: the user's file, the tool, why, and where the dump went."""
    tool = os.path.basename(argv[0])
    why = cause(returncode, stderr)
    try:
        where = f"its report is in {save(argv, returncode, stderr)}"
    except OSError as e:
        where = f"its report could not be saved ({e.strerror}); run with -v to see the command"
    return f"{files}: {tool} crashed ({why}); {where}"
