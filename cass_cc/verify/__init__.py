"""Differential runs without AMD hardware: a CUDA original and its HIP translation, both
built with nvcc (the HIP side through cass_cc.hipnv), run on an NVIDIA GPU and
compared. See README.md in this folder.

    from cass_cc.verify import Case, BuildSpec, RunSpec, verify, verify_many
"""
from __future__ import annotations

from .compare import Comparison, Run, Tolerance, compare
from .runner import LEVELS, BuildSpec, Case, Result, RunSpec, Side, Tools, find_tools, run_limited, verify, verify_many

__all__ = ["BuildSpec", "Case", "Comparison", "LEVELS", "Result", "Run", "RunSpec", "Side", "Tolerance", "Tools",
           "compare", "find_tools", "run_limited", "verify", "verify_many"]
