"""`cass-train eval`: score a CUDA->HIP translator (or a SASS->RDNA3 one) on a suite.

translators.py (rules, model, endpoint, hipify-perl, outputs) -> build.py (gfx1100 compile) ->
execute.py (HIP-on-NVIDIA runs through cass_cc/verify) -> engine.py (cache, process pool) ->
report.py (tables, chart, failures); assembly.py for the assembly task. See README.md.
"""
from __future__ import annotations
