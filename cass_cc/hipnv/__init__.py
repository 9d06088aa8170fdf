"""HIP on NVIDIA: build HIP sources with nvcc, with no ROCm anywhere.

    folder = build(cache_dir)                       # <cache>/hipnv/<hash>/{include,bin/hipcc}
    plan = plan_commands(argv, nvcc, folder, arch)  # a hipcc/clang command line -> nvcc runs
    main(argv)                                      # `cass-cc hipcc ...`, bin/hipcc in the folder

- headers.py: the HIP API as headers, generated from cass-cc's mapping tables in reverse
  (`#define hipMalloc cudaMalloc`, one source of truth) plus include/cass_hipnv.h, hand-written,
  for what is not a rename.
- flags.py: hipcc/clang spellings -> nvcc's (FLAGS, in the shape of nvcc/options.py), so a ported
  tree's Makefile builds with `PATH=<folder>/bin:$PATH make`.
- folder.py: the folder, named by a hash of its content, generated once.
- runner.py: what bin/hipcc (`python -m cass_cc.hipnv`) and `cass-cc hipcc` run.

It sits above translate/ (the tables) and toolchain/ (nvcc, run_tool); neither imports it.
"""
from __future__ import annotations

from .flags import DEFAULT_ARCH, HipnvError, Plan, plan_commands
from .folder import build
from .runner import main

__all__ = ["DEFAULT_ARCH", "HipnvError", "Plan", "build", "main", "plan_commands"]
