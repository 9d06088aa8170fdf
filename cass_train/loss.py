"""The training loss when `train.loss = "compiled"`: next-token cross-entropy on the model's
bf16 logits, compiled by torch.compile, handed to the Trainer as its `compute_loss_func`.

transformers' own causal-LM loss upcasts the logits to fp32 first (4,096 tokens x 151,936
Qwen2.5 tokens = 2.5 GB a micro-step) and runs log-softmax, the loss and their backward as
separate passes over fp32 copies. Compiled, the upcast, log-sum-exp and target gather fuse
into one reduction over the bf16 logits, and the backward into one pass that writes the bf16
gradient: the same numbers (fp32 arithmetic), a few fewer GB of traffic and memory a step.

Same conventions as transformers' ForCausalLMLoss: labels shift left by one (the collators'
-100s mark what is not predicted), the sum is divided by `num_items_in_batch` (the Trainer's
count over all micro-steps of an optimizer step, and over processes), so the Trainer treats
it as it treats the model's own loss.
"""
from __future__ import annotations

import functools
from typing import Any, Mapping

IGNORE = -100


def shifted_cross_entropy(logits: Any, labels: Any, num_items: Any) -> Any:
    import torch.nn.functional as F

    target = F.pad(labels, (0, 1), value=IGNORE)[..., 1:]
    total = F.cross_entropy(logits.flatten(0, -2).float(), target.flatten(), ignore_index=IGNORE, reduction="sum")
    return total / num_items


@functools.lru_cache(maxsize=None)
def _compiled() -> Any:
    import torch

    return torch.compile(shifted_cross_entropy)


def causal_lm_loss(outputs: Any, labels: Any, num_items_in_batch: Any = None) -> Any:
    """The Trainer's compute_loss_func: (model outputs, labels, items over the optimizer step)."""
    import torch

    logits = outputs["logits"] if isinstance(outputs, Mapping) else outputs[0]
    labels = labels.to(logits.device)
    if num_items_in_batch is None:
        num_items_in_batch = (labels[..., 1:] != IGNORE).sum()
    num = torch.as_tensor(num_items_in_batch, device=logits.device)
    return _compiled()(logits, labels, num)


def loss_function(recipe: Any) -> Any:
    """compute_loss_func for the Trainer, or None for the model's own loss."""
    from .model import loss_mode

    return causal_lm_loss if loss_mode(recipe) == "compiled" else None
