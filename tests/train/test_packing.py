"""Packed examples never attend to each other: the logits of a packed row, as the Trainer
feeds it to the model that cass_train.model builds, equal each example's logits alone."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cass_train.data import make_example
from cass_train.encode import ChatEncoder, PackedCollator
from cass_train.recipe import Lora, Model, Recipe, Train
from tests.train.conftest import KERNELS, cuda_of, hip_of, needs_torch

pytestmark = needs_torch


def encoded(base: Path) -> list[Any]:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(base))
    examples = [make_example("source", cuda_of(n), hip_of(n), n, "t") for n in KERNELS]
    return ChatEncoder(tok).encode(examples)


@pytest.mark.parametrize("attention, method", [("sdpa", "full"), ("eager", "full"), ("sdpa", "lora")])
def test_packed_logits_equal_unpacked(tiny_base: Path, attention: str, method: str) -> None:
    import torch

    from cass_train.model import load_model

    recipe = Recipe(model=Model(base=str(tiny_base), attention=attention), train=Train(method=method), lora=Lora(dropout=0.0))
    model = load_model(recipe)
    model.train()  # as the Trainer runs it (no dropout: Qwen2's attention has none, LoRA's is set to 0)
    if method == "lora":
        # a LoRA that does something: B is zero at initialisation
        for name, p in model.named_parameters():
            if "lora_B" in name:
                torch.nn.init.normal_(p, std=0.5)
    items = encoded(tiny_base)
    assert len({len(e) for e in items}) > 1  # examples of different lengths
    worst, leak = _isolation(model, items)
    assert worst < 1e-4
    assert leak > 1e-2  # the comparison does see attention across examples when it happens


def _isolation(model: Any, items: list[Any], pad_to: int = 0) -> tuple[float, float]:
    """(largest packed-vs-alone logit difference, the same when examples may attend across)."""
    import torch

    batch = PackedCollator(pad_to=pad_to)([{"examples": [{"input_ids": e.input_ids, "labels": e.labels} for e in items]}])
    with torch.no_grad():
        packed = model(input_ids=batch["input_ids"], position_ids=batch["position_ids"]).logits[0]
        crossed = model(input_ids=batch["input_ids"]).logits[0]
        worst = leak = 0.0
        start = 0
        for e in items:
            alone = model(input_ids=torch.tensor([e.input_ids])).logits[0]
            end = start + len(e)
            worst = max(worst, (packed[start:end] - alone).abs().max().item())
            leak = max(leak, (crossed[start:end] - alone).abs().max().item())
            start = end
    return worst, leak


def test_padding_to_a_fixed_shape_keeps_examples_isolated(tiny_base: Path) -> None:
    from cass_train.model import load_model

    model = load_model(Recipe(model=Model(base=str(tiny_base), attention="sdpa")))
    items = encoded(tiny_base)
    worst, leak = _isolation(model, items, pad_to=sum(len(e) for e in items) + 37)
    assert worst < 1e-4 and leak > 1e-2


def test_flex_attention_keeps_packed_examples_isolated(tiny_base: Path) -> None:
    """transformers' block mask from packed position ids. Flex attention is run uncompiled
    here (compiling it for a CPU takes minutes; the GPU run compiles it and bench's isolation
    check covers that): the mask is the same."""
    import torch

    from cass_train.model import load_model

    model = load_model(Recipe(model=Model(base=str(tiny_base), attention="flex_attention")))
    assert model.config._attn_implementation == "flex_attention"
    model.eval()
    with torch.compiler.set_stance("force_eager"):
        worst, leak = _isolation(model, encoded(tiny_base))
    assert worst < 1e-4 and leak > 1e-2


def test_torch_varlen_attention_glue_keeps_packed_examples_isolated(tiny_base: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """cass_train/attention.py as transformers calls it: layouts, grouped heads and the
    cumulative lengths from the collator. PyTorch's varlen kernel needs CUDA (the GPU run's
    isolation check covers it); here a per-example causal sdpa stands in for it."""
    import torch

    import cass_train.attention as varlen
    from cass_train.model import load_model

    calls: list[list[int]] = []

    def reference(q, k, v, cu, max_len, scale):  # type: ignore[no-untyped-def]
        calls.append(cu.tolist())
        assert q.shape == k.shape == v.shape and max_len == max(int(b - a) for a, b in zip(cu[:-1], cu[1:]))
        parts = []
        for a, b in zip(cu[:-1].tolist(), cu[1:].tolist()):
            seg = [t[a:b].transpose(0, 1) for t in (q, k, v)]  # (heads, tokens, dim)
            parts.append(torch.nn.functional.scaled_dot_product_attention(*seg, is_causal=True, scale=scale).transpose(0, 1))
        return torch.cat(parts)

    monkeypatch.setattr(varlen, "kernel", reference)
    model = load_model(Recipe(model=Model(base=str(tiny_base), attention="torch_varlen")))
    assert model.config._attn_implementation == "torch_varlen"
    assert model.config.num_attention_heads > model.config.num_key_value_heads  # grouped heads are exercised
    items = encoded(tiny_base)
    batch = PackedCollator(flash_kwargs=True)([{"examples": [{"input_ids": e.input_ids, "labels": e.labels}
                                                             for e in items]}])
    with torch.no_grad():
        packed = model(**{k: v for k, v in batch.items() if k != "labels"}).logits[0]
        assert calls and calls[0] == [0, *torch.tensor([len(e) for e in items]).cumsum(0).tolist()]
        worst = 0.0
        start = 0
        for e in items:
            alone = model(input_ids=torch.tensor([e.input_ids])).logits[0]  # no lengths: transformers' sdpa
            worst = max(worst, (packed[start:start + len(e)] - alone).abs().max().item())
            start += len(e)
    assert worst < 1e-4
    assert len(calls) == model.config.num_hidden_layers  # the packed call only, once a layer


def test_torch_varlen_attention_casts_to_the_autocast_dtype(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under autocast with fp32 weights RoPE hands back fp32 q and k; the flash kernel takes
    fp16/bf16 only, so the glue casts to the autocast dtype (and leaves fp32 alone outside it)."""
    import torch

    import cass_train.attention as varlen

    seen: list[torch.dtype] = []

    def kernel(q, k, v, cu, max_len, scale):  # type: ignore[no-untyped-def]
        seen.append(q.dtype)
        assert q.dtype == k.dtype == v.dtype
        return q

    monkeypatch.setattr(varlen, "kernel", kernel)
    query = torch.randn(1, 4, 6, 8)
    key = value = torch.randn(1, 2, 6, 8)
    cu = torch.tensor([0, 2, 6])
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out, _ = varlen.varlen_attention_forward(None, query, key, value, None, cu_seq_lens_q=cu, max_length_q=4)
    varlen.varlen_attention_forward(None, query, key, value, None, cu_seq_lens_q=cu, max_length_q=4)
    assert seen == [torch.bfloat16, torch.float32] and out.shape == (1, 6, 4, 8)
