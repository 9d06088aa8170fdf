"""The driver's two ways to fail: its own one-line error, or a tool's exit code."""
from __future__ import annotations


class DriverError(Exception):
    """A failure cass-cc reports itself (one line, naming the file)."""


class ToolFailed(Exception):
    """A tool we ran failed; it printed its own diagnostics. Carries its exit code."""

    def __init__(self, returncode: int):
        super().__init__(returncode)
        self.returncode = returncode
