"""train.loss = "compiled": the same loss and gradient as transformers' own causal-LM loss."""
from __future__ import annotations

import pytest

from tests.train.conftest import needs_torch

pytestmark = needs_torch


@pytest.mark.parametrize("items", [None, 400])
def test_compiled_loss_equals_transformers_loss(items: int | None) -> None:
    import torch
    from transformers.loss.loss_utils import ForCausalLMLoss

    from cass_train.loss import causal_lm_loss

    torch.manual_seed(0)
    logits = torch.randn(2, 150, 512, dtype=torch.bfloat16, requires_grad=True)
    labels = torch.randint(0, 512, (2, 150))
    labels[0, :40] = -100  # a prompt
    labels[1, 70] = -100  # a packed example's first token
    num = None if items is None else torch.tensor(items)
    ours = causal_lm_loss({"logits": logits}, labels, num)
    ours.backward()
    grad, logits.grad = logits.grad.clone(), None
    theirs = ForCausalLMLoss(logits, labels, 512, num_items_in_batch=num)
    theirs.backward()
    assert ours.item() == pytest.approx(theirs.item(), rel=1e-6)
    assert grad.dtype == torch.bfloat16
    assert (grad.float() - logits.grad.float()).abs().max().item() < 1e-6
    # the prediction of a -100 label contributes nothing: its row of the gradient is zero
    assert grad[0, 38].abs().max().item() == 0 and grad[0, 40].abs().max().item() > 0


def test_sft_with_the_compiled_loss_repeats_the_models_losses(tiny_base, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Through the Trainer (compute_loss_func, gradient accumulation over packed rows padded to
    a fixed shape): the logged losses of a few steps equal those of transformers' own loss."""
    from tests.train.conftest import pair_rows
    from tests.train.test_sft import losses, run

    def history(name: str, loss: str) -> dict[int, float]:
        metrics = run(tmp_path, name, tiny_base, pair_rows(), max_steps=4, logging_steps=1, batch_size=1,
                      grad_accum=2, loss=loss)
        return losses(metrics["log_history"])

    from cass_train.loss import _compiled

    model = history("model", "model")
    calls = _compiled.cache_info()
    compiled = history("compiled", "compiled")
    after = _compiled.cache_info()
    assert after.hits + after.misses >= calls.hits + calls.misses + 8  # 4 steps x 2 micro-steps went through it
    assert sorted(model) == sorted(compiled) == [1, 2, 3, 4]
    for step in model:
        assert compiled[step] == pytest.approx(model[step], rel=2e-3)
