"""The transformers backend and the model translator on a tiny random-weight Qwen2
model (made by the session fixture): loading by path, the chat template, batching,
the answer cache, splitting for short contexts, garbage answers falling back to rules."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from cass_cc.model import ModelError
from cass_cc.model.hf import HFBackend
from cass_cc.model.settings import Generation, ModelSettings
from cass_cc.model.store import Store
from cass_cc.model.stops import STOPS
from cass_cc.translate import LazyRules, Target, TranslationDeclined, TranslationError, TranslatorChain
from cass_cc.translate.model import ModelTranslator
from tests.model.conftest import needs_torch

pytestmark = needs_torch

KERNEL = """\
#include <cuda_runtime.h>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
"""
PTX_KERNEL = KERNEL + """\
__device__ unsigned sm() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}
"""


class Counting:
    """Wraps a backend to count generate() calls and prompts."""

    def __init__(self, inner: HFBackend) -> None:
        self.inner = inner
        self.calls: list[list[str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def generate(self, prompts: list[str], generation: Generation) -> list[str]:
        self.calls.append(list(prompts))
        return self.inner.generate(prompts, generation)


def settings(folder: Path, **kw: Any) -> ModelSettings:
    gen = kw.pop("generation", Generation(max_new_tokens=8))
    return ModelSettings(model=str(folder), generation=gen, device="cpu", **kw)


def translator(folder: Path, store: Store, **kw: Any) -> tuple[ModelTranslator, Counting, LazyRules]:
    s = settings(folder, **kw)
    backend = Counting(HFBackend(s, store))
    rules = LazyRules()
    return ModelTranslator(s, rules, store, validator=None, backend=backend), backend, rules


def test_loads_by_path_with_chat_template(tiny_model: Path, tmp_path: Path) -> None:
    b = HFBackend(settings(tiny_model), Store(tmp_path))
    text = b.chat_text("Convert the following CUDA code to AMD GPU code:\n```cuda\nint x;\n```")
    assert text.endswith("<|im_start|>user\nConvert the following CUDA code to AMD GPU code:\n```cuda\nint x;\n```<|im_end|>\n<|im_start|>assistant\n")
    b.load()
    assert b.device == "cpu" and str(b.dtype) == "torch.float32"
    assert b.tokenizer.padding_side == "left"
    assert b.model.config.model_type == "qwen2"
    assert b.context_length() == 2048


def test_identity_names_weights_and_tokenizer(tiny_model: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(tiny_model, copy)
    first = HFBackend(settings(copy), Store(tmp_path / "s")).identity()
    assert first.startswith("local:") and first == HFBackend(settings(tiny_model), Store(tmp_path / "s")).identity()
    config = copy / "generation_config.json"
    config.write_text(config.read_text().replace("}", ', "repetition_penalty": 1.1}'))
    assert HFBackend(settings(copy), Store(tmp_path / "s")).identity() != first


def test_batches_keep_order(tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    b = HFBackend(settings(tiny_model, batch_size=2), Store(tmp_path))
    b.load()
    batches: list[int] = []
    real = b.model.generate

    def generate(**kw: Any) -> Any:
        batches.append(int(kw["input_ids"].shape[0]))
        return real(**kw)

    monkeypatch.setattr(b.model, "generate", generate)
    prompts = ["a", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "cc", "d", "eeeeeeee"]
    answers = b.generate(prompts, Generation(max_new_tokens=4))
    assert batches == [2, 2, 1]
    assert len(answers) == 5 and all(isinstance(a, str) for a in answers)
    # each answer belongs to its prompt: the same prompt alone gives the same answer
    assert b.generate([prompts[1]], Generation(max_new_tokens=4)) == [answers[1]]
    assert 0 < b.generated_tokens <= 6 * 4


def test_memory_check_refuses_a_model_that_does_not_fit(tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import psutil

    class Tiny:
        available = 1000

    monkeypatch.setattr(psutil, "virtual_memory", lambda: Tiny())
    b = HFBackend(settings(tiny_model), Store(tmp_path))
    with pytest.raises(ModelError, match=r"too large to load \(the machine has 0.0 GiB free, it needs about .* as float32\)"):
        b.load()
    assert b.model is None


def test_missing_folder_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not a model folder"):
        HFBackend(settings(tmp_path / "nope"), Store(tmp_path)).identity()


def test_garbage_answer_falls_back_to_rules_and_is_cached(tiny_model: Path, tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    model, backend, rules = translator(tiny_model, store, when="always")
    chain = TranslatorChain([model, rules])
    result = chain.translate(KERNEL, "k.cu", Target())
    assert result.translator == rules.identity()
    assert "hipLaunch" in result.text or "hip/hip_runtime.h" in result.text
    [note] = [d for d in result.diagnostics if "model" in d.message]
    assert note.severity == "warning" and "has no closed ```amd fence; translated by rules instead" in note.message
    assert len(backend.calls) == 1
    # the failed answer is cached: asked again (another build), the model is not run
    again, backend2, rules2 = translator(tiny_model, store, when="always")
    TranslatorChain([again, rules2]).translate(KERNEL, "k.cu", Target())
    assert backend2.calls == []
    # a changed generation setting is another key: the model runs again
    other, backend3, rules3 = translator(tiny_model, store, when="always", generation=Generation(max_new_tokens=9))
    TranslatorChain([other, rules3]).translate(KERNEL, "k.cu", Target())
    assert len(backend3.calls) == 1
    assert other.identity() != model.identity()


def test_model_asked_only_where_rules_fall_short(tiny_model: Path, tmp_path: Path) -> None:
    model, backend, _ = translator(tiny_model, Store(tmp_path))
    with pytest.raises(TranslationDeclined):
        model.translate(KERNEL, "k.cu", Target())
    with pytest.raises(TranslationDeclined):
        model.translate(PTX_KERNEL, "k.cuh", Target())  # headers stay with the rules
    with pytest.raises(TranslationError, match="no closed"):
        model.translate(PTX_KERNEL, "k.cu", Target())
    assert len(backend.calls) == 1


def test_short_context_splits_per_function(tiny_model: Path, tmp_path: Path) -> None:
    # room for about one function per prompt
    model, backend, _ = translator(tiny_model, Store(tmp_path), when="always", generation=Generation(max_new_tokens=120))
    plan = model.plan(PTX_KERNEL, "k.cu", Target())
    assert len(plan.prompts) == 2
    assert "__global__ void scale" in plan.prompts[0] and "%%smid" in plan.prompts[1]
    assert all(p.startswith("Convert the following CUDA code to AMD GPU code:\n```cuda\n") for p in plan.prompts)
    model.answers(plan.prompts)
    assert len(backend.calls) == 1 and len(backend.calls[0]) == 2  # both pieces in one batch
    whole, _, _ = translator(tiny_model, Store(tmp_path), when="always", generation=Generation(max_new_tokens=1000))
    assert len(whole.plan(PTX_KERNEL, "k.cu", Target()).prompts) == 1


def test_function_scope_sends_only_flagged_definitions(tiny_model: Path, tmp_path: Path) -> None:
    model, _, _ = translator(tiny_model, Store(tmp_path), scope="function")
    plan = model.plan(PTX_KERNEL, "k.cu", Target())
    assert len(plan.prompts) == 1 and "%%smid" in plan.prompts[0] and "scale" not in plan.prompts[0]
    assert [(p.first_line, p.last_line) for p in plan.replaced] == [(6, 10)]  # the definition alone


def test_hub_model_from_the_hugging_face_cache(tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hub id is named by the commit its revision points at, read from the cache's refs/
    without asking the network; the snapshot folder is what loads."""
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = tmp_path / "hub" / "models--ahmedheakl--cass-src-1.5b"
    shutil.copytree(tiny_model, repo / "snapshots" / commit)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    b = HFBackend(ModelSettings(model="ahmedheakl/cass-src-1.5b", device="cpu"), Store(tmp_path / "s"))
    assert b.identity() == f"hf:ahmedheakl/cass-src-1.5b@{commit}+{STOPS}"
    assert b.folder() == repo / "snapshots" / commit
    assert b.load_tokenizer().chat_template
