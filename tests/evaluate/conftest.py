"""Shared fixtures for tests/evaluate: one rules evaluation of a fixed subset (one program per
domain) and nvcc builds of every suite program, each computed once per session and cached on
disk under the shared test cache (results are content-addressed, so a rerun recompiles
nothing that did not change)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SHARED_CACHE, file_lock, tool_env

EVAL_CACHE = SHARED_CACHE / "eval"

# One program per domain, fixed: the CPU tests compile these for gfx1100 (the whole suite is
# bench/eval_suite.py's job: about 2.5 s of CPU per program here).
SUBSET = ("bf16_dot", "bfs_frontier", "cg_tiled_reduce", "conv2d_const", "crc32_table", "curand_pi_xorwow",
          "fft_radix2", "gemv_shfl", "heat2d_shared", "histogram_shared", "kmer_count", "nbody_tiled",
          "reduce_sum_template", "softmax_warp", "spmv_csr_warp", "binary_search")


def locked(name: str):  # type: ignore[no-untyped-def]
    """A file lock shared by the xdist workers, so a fixture's work is done once."""
    return file_lock(EVAL_CACHE, name)


def eval_env() -> dict[str, str]:
    return tool_env(SHARED_CACHE / "no-config.toml")


@pytest.fixture(scope="session")
def suite() -> Any:
    from cass_train.suite import load

    return load()


@pytest.fixture(scope="session")
def subset(suite: Any) -> Any:
    return suite.select(",".join(SUBSET))


@pytest.fixture(scope="session")
def rules_subset(subset: Any) -> tuple[list[dict[str, Any]], str, Path | None]:
    """The rules translator over the subset: compile accuracy for gfx1100, not run (no GPU)."""
    if not any(os.path.exists(p) for p in ("/usr/bin/clang-15", "/usr/bin/clang")):
        pytest.skip("needs a HIP-capable clang")
    from cass_train.evaluate.engine import Settings, evaluate

    with locked("rules-subset"):
        return evaluate(Settings(translator="rules", suite=subset, jobs=2, cache=EVAL_CACHE, run=False, env=eval_env()))
