"""nvcc's command line as data: `parse(argv)` gives an `Invocation`."""
from __future__ import annotations

from .invocation import DepOptions, Input, Invocation, Lang, Phase, UsageError
from .parse import parse
from .targets import offload_archs

__all__ = [
    "DepOptions", "Input", "Invocation", "Lang", "Phase", "UsageError",
    "offload_archs", "parse",
]
