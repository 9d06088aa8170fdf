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
    batch = PackedCollator()([{"examples": [{"input_ids": e.input_ids, "labels": e.labels} for e in items]}])
    with torch.no_grad():
        packed = model(input_ids=batch["input_ids"], position_ids=batch["position_ids"]).logits[0]
        crossed = model(input_ids=batch["input_ids"]).logits[0]  # the same row, attending across examples
        start = 0
        worst = 0.0
        leak = 0.0
        for e in items:
            alone = model(input_ids=torch.tensor([e.input_ids])).logits[0]
            end = start + len(e)
            worst = max(worst, (packed[start:end] - alone).abs().max().item())
            leak = max(leak, (crossed[start:end] - alone).abs().max().item())
            start = end
    assert worst < 1e-4
    assert leak > 1e-2  # the comparison does see attention across examples when it happens
