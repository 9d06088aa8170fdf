"""`cass-data synth --model-endpoint`: programs written by a model are kept only when they build
with nvcc and self-check (on a GPU), or, with --keep-unrun and no GPU, when they build; the rest
are listed with the reason. The model is a scripted OpenAI-compatible endpoint."""
from __future__ import annotations

import json
from pathlib import Path

from tests.data.helpers import cass_data
from tests.data.test_synth import needs_nvcc
from tests.model.conftest import chat_server  # noqa: F401  (the scripted endpoint fixture)
from tests.model.server import Reply, fenced

GOOD = """#include <cstdio>
__global__ void poly(const float* x, float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2.0f * x[i] * x[i] + 1.0f; }
int main() {
  const int n = 1000; float hx[n], hy[n]; for (int i = 0; i < n; i++) hx[i] = (i % 17) * 0.25f;
  float *x, *y; if (cudaMalloc(&x, sizeof hx) != cudaSuccess) { printf("SKIP: no CUDA device\\n"); return 2; }
  cudaMalloc(&y, sizeof hy); cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  poly<<<(n + 127) / 128, 128>>>(x, y, n); cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) if (hy[i] != 2.0f * hx[i] * hx[i] + 1.0f) { printf("FAIL\\n"); return 1; }
  printf("PASS\\n"); return 0;
}
"""


def _script(n: int, body: dict) -> Reply:
    prompt = body["messages"][-1]["content"]
    if "elementwise kernel" in prompt:
        return Reply(content=fenced(GOOD, "cuda"))
    if "sum reduction" in prompt:
        return Reply(content=fenced("__global__ void k( { this is not CUDA }\n", "cuda"))
    return Reply(content="I would rather not write that program.")


@needs_nvcc
def test_model_programs_are_checked_and_rejections_named(tmp_path: Path, chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(_script)
    base = ["synth", "--n", "3", "--seed", "7", "--domains", "elementwise,reduction,scan", "--model-endpoint", url]
    cass_data([*base, "-o", str(tmp_path / "kept"), "--keep-unrun"])
    prompts = [r["messages"][-1]["content"] for r in server.requests]
    assert len(prompts) == 3 and all("print PASS" in p and "```cuda" in p for p in prompts)
    kept = [json.loads(line) for line in (tmp_path / "kept" / "manifest.jsonl").read_text().splitlines()]
    rejected = {r["domain"]: r["check"] for r in map(json.loads, (tmp_path / "kept" / "rejected.jsonl").read_text().splitlines())}
    assert [k["file"] for k in kept] == ["model-elementwise-0.cu"]
    assert kept[0]["check"] == "compiled, not run (no NVIDIA GPU)" and kept[0]["origin"] == f"model:{url}"
    assert (tmp_path / "kept" / "model-elementwise-0.cu").read_text() == GOOD
    assert rejected["reduction"].startswith("does not compile with nvcc: p.cu(1)")
    assert rejected["scan"] == "no ```cuda block in the answer"
    # without --keep-unrun nothing can self-check on a machine without a GPU
    cass_data([*base, "-o", str(tmp_path / "strict")])
    assert (tmp_path / "strict" / "manifest.jsonl").read_text() == ""
    strict = [json.loads(line)["check"] for line in (tmp_path / "strict" / "rejected.jsonl").read_text().splitlines()]
    assert strict[0] == "not run (no NVIDIA GPU): no self-check"
    # the same seed asks the same prompts
    assert sorted(r["messages"][-1]["content"] for r in server.requests[3:]) == sorted(prompts)
