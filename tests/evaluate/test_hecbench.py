"""The adapter for HeCBench-like trees, on a tiny tree written here."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.evaluate.conftest import EVAL_CACHE, eval_env

MAIN = """#include <cstdio>
#include <cuda_runtime.h>
__global__ void scale(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.0f; }
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256;
  float* d; cudaMalloc(&d, n * sizeof(float)); cudaMemset(d, 0, n * sizeof(float));
  scale<<<(n + 127) / 128, 128>>>(d, n);
  float h = 1; cudaMemcpy(&h, d, sizeof(float), cudaMemcpyDeviceToHost);
  printf(h == 0.0f ? "PASS\\n" : "FAIL\\n");
  return h == 0.0f ? 0 : 1;
}
"""
MAKEFILE = """CC = nvcc
program = main
all: $(program)
$(program): main.cu
\t$(CC) -O2 -arch=sm_80 main.cu -o $(program)
run: $(program)
\t$(LAUNCHER) ./$(program) 1000
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "mini"
    (root / "scale-cuda").mkdir(parents=True)
    (root / "scale-cuda" / "main.cu").write_text(MAIN)
    (root / "scale-cuda" / "Makefile").write_text(MAKEFILE)
    (root / "scale-hip").mkdir()  # a sibling HeCBench keeps: ignored when -cuda folders exist
    (root / "scale-hip" / "main.cu").write_text(MAIN)
    (root / "scale-hip" / "Makefile").write_text(MAKEFILE)
    (root / "notes").mkdir()
    (root / "notes" / "README").write_text("no Makefile here")
    return root


def test_tree_is_found_and_described(tree):
    from cass_train.suite import load

    s = load(str(tree))
    assert [p.name for p in s.programs] == ["scale"]
    p = s.programs[0]
    assert p.kind == "tree" and p.sources == ("main.cu",) and p.args == ("1000",) and p.domain == "mini"
    (tree / "domains.json").write_text(json.dumps({"scale": "linear-algebra"}))
    assert load(str(tree)).programs[0].domain == "linear-algebra"


def test_tree_translated_and_compiled_for_gfx1100(tree, tmp_path):
    from cass_train.evaluate.engine import Settings, _port_tree, evaluate
    from cass_train.suite import load

    s = load(str(tree))
    records, _, _ = evaluate(Settings(translator="rules", suite=s, jobs=1, cache=EVAL_CACHE, run=False, env=eval_env()))
    assert records[0]["translated"] and records[0]["compiled"] is True, records[0]
    broken = tmp_path / "b.jsonl"
    broken.write_text(json.dumps({"name": "scale/main.cu", "hip": MAIN.replace("cuda_runtime.h", "no_such_header.h")}) + "\n")
    records, _, _ = evaluate(Settings(translator=f"outputs:{broken}", suite=s, jobs=1, cache=EVAL_CACHE, run=False, env=eval_env()))
    assert records[0]["compiled"] is False and "main.cu: " in records[0]["compile_error"]
    # the ported tree the runner builds: translated sources, Makefile for hipcc
    _port_tree(s.programs[0], {"main.cu": "// hip\n"}, tmp_path / "ported")
    assert (tmp_path / "ported" / "main.cu").read_text() == "// hip\n"
    mk = (tmp_path / "ported" / "Makefile").read_text()
    assert "CC = hipcc" in mk and "nvcc" not in mk and "sm_80" not in mk
