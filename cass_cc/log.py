"""cass-cc's own messages. Stdout belongs to the wrapped compiler; we write to stderr."""
from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence

# 0 = normal, 1 = -v (show commands), -1 = quiet. Set once by the driver.
verbosity = 0


def fatal_line(message: str, program: str = "cass-cc") -> str:
    # nvcc pads "fatal" to the width of "warning"; build logs and IDEs match on it.
    return f"{program} fatal   : {message}"


def error(message: str, program: str = "cass-cc") -> None:
    print(fatal_line(message, program), file=sys.stderr, flush=True)


def warning(message: str) -> None:
    if verbosity >= 0:
        print(f"cass-cc warning : {message}", file=sys.stderr, flush=True)


def note(message: str) -> None:
    """Shown with -v only."""
    if verbosity >= 1:
        print(f"#$ # {message}", file=sys.stderr, flush=True)


def command(argv: Sequence[str], env: dict[str, str] | None = None) -> None:
    """nvcc's -v/-dryrun form: '#$ ' then the shell-quoted command."""
    prefix = "".join(f"{k}={shlex.quote(v)} " for k, v in (env or {}).items())
    print("#$ " + prefix + shlex.join(argv), file=sys.stderr, flush=True)
