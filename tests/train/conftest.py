"""Fixtures for cass_train: a tiny random-weight Qwen2 with an offline tokenizer (made once
per test worker), a few CUDA->HIP pairs, and recipes written as TOML."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

HAVE_TORCH = all(importlib.util.find_spec(m) is not None for m in ("torch", "transformers", "tokenizers", "peft"))
needs_torch = pytest.mark.skipif(not HAVE_TORCH, reason="needs torch, transformers, tokenizers, peft (pip install -e '.[test]')")

KERNELS = {
    "scale": "__global__ void scale(float* x, float a, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (i < n) x[i] *= a;\n}\n",
    "add": "__global__ void add(float* a, const float* b, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < n) a[i] += b[i];\n}\n",
    "fill": "__global__ void fill(int* x, int v, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (i < n) x[i] = v;\n}\n",
    "flip": "__global__ void flip(float* x) {\n  __shared__ float s[256];\n  s[threadIdx.x] = x[threadIdx.x];\n"
            "  __syncthreads();\n  x[threadIdx.x] = s[255 - threadIdx.x];\n}\n",
}


def cuda_of(name: str) -> str:
    return "#include <cuda_runtime.h>\n" + KERNELS[name]


def hip_of(name: str) -> str:
    return "#include <hip/hip_runtime.h>\n" + KERNELS[name]


def pair_rows(names: list[str] | None = None) -> list[dict[str, Any]]:
    """Rows as cass_data's export writes them (task cuda-hip)."""
    return [{"task": "cuda-hip", "cuda": cuda_of(n), "hip": hip_of(n), "origin": f"synth/{n}", "split": "train",
             "level": "compiled", "sass": None, "rdna3": None} for n in (names or list(KERNELS))]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return repr(v)


def write_recipe(path: Path, sections: dict[str, dict[str, Any]], sources: list[dict[str, Any]]) -> Path:
    lines = []
    for name, values in sections.items():
        lines.append(f"[{name}]")
        lines += [f"{k} = {toml_value(v)}" for k, v in values.items()]
    for s in sources:
        lines.append("[[data.sources]]")
        lines += [f"{k} = {toml_value(v)}" for k, v in s.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="session")
def tiny_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random Qwen2 (2 layers, hidden 64) with the offline byte-level BPE tokenizer and a
    ChatML template. Initialised with a wider spread than Qwen's 0.02 so that logits of the
    (frozen, tied) embeddings can become confident: LoRA can then fit a pair, as it can on a
    real pretrained base."""
    if not HAVE_TORCH:
        pytest.skip("needs torch")
    import torch

    torch.set_num_threads(1)  # two test workers share two cores
    from cass_cc.model.synthetic import tiny_config, write_model

    return write_model(tmp_path_factory.mktemp("tiny-base") / "base", tiny_config(initializer_range=0.2))


def train_sections(base: Path, out: Path, **train: Any) -> dict[str, dict[str, Any]]:
    settings = dict(max_steps=40, learning_rate=3e-3, warmup_ratio=0.0, scheduler="constant", logging_steps=5,
                    save_steps=1000, batch_size=4, gradient_checkpointing=False)
    settings.update(train)
    return {
        "model": {"base": str(base)},
        "data": {"task": "source", "max_length": 256, "validation": ""},
        "train": settings,
        "lora": {"dropout": 0.0},
        "output": {"dir": str(out)},
    }
