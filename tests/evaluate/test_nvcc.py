"""Every suite program compiles with nvcc 13 for sm_80 (built once, cached by content).

`nvcc -arch=sm_80 -cuda`: nvcc's front end (cudafe++) parses and checks the host and device
code, cicc and ptxas compile the device code into the embedded fatbin; only the host
compiler's object step is left out (a third of the time). The GPU machine's bench builds and
runs every program in full (bench/eval_h100.py originals)."""
from __future__ import annotations

import hashlib
import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.evaluate.conftest import EVAL_CACHE, eval_env, locked

NVCC = "/usr/local/cuda/bin/nvcc"


def _nvcc() -> str | None:
    return NVCC if Path(NVCC).exists() else shutil.which("nvcc")


@pytest.fixture(scope="session")
def nvcc_results(suite) -> dict[str, dict[str, Any]]:
    from cass_cc.toolchain.found import Found
    from cass_train.evaluate.build import compile_cuda

    nvcc = _nvcc()
    if nvcc is None:
        pytest.skip("needs nvcc")
    tools = Found(nvcc=nvcc, extra_cuda_includes=Found.find(eval_env()).extra_cuda_includes)
    folder = EVAL_CACHE / "nvcc"
    folder.mkdir(parents=True, exist_ok=True)

    def one(p: Any) -> tuple[str, dict[str, Any]]:
        key = hashlib.sha256(p.path.read_bytes() + nvcc.encode() + "|".join(tools.extra_cuda_includes).encode()).hexdigest()[:24]
        path = folder / f"{p.name}.{key}.json"
        if path.exists():
            return p.name, json.loads(path.read_text())
        out = folder / f"{p.name}.{key}.ii"
        c = compile_cuda(p.path, "sm_80", tools, out, mode="-cuda")
        out.unlink(missing_ok=True)
        rec = {"ok": c.ok, "error": c.error}
        path.write_text(json.dumps(rec))
        return p.name, rec

    with locked("nvcc"):
        with ThreadPoolExecutor(max_workers=2) as pool:
            return dict(pool.map(one, suite.programs))


def test_every_program_compiles_with_nvcc(suite, nvcc_results):
    failed = {n: r["error"] for n, r in nvcc_results.items() if not r["ok"]}
    missing_curand = {n for n, e in failed.items() if "curand_kernel.h" in e}
    if missing_curand:  # the nvcc wheels lack curand's headers unless nvidia-curand is installed
        assert all("hiprand" in p.needs for p in suite.programs if p.name in missing_curand)
    assert set(failed) <= missing_curand, failed
    assert len(nvcc_results) == len(suite.programs)
