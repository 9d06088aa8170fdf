"""On an NVIDIA GPU (skipped elsewhere): bf16 training of the tiny model through `cass-train
sft`, and packing isolation with the attention implementation the GPU run uses."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.train.conftest import HAVE_TORCH, KERNELS, pair_rows, train_sections, write_jsonl, write_recipe


def _gpu() -> bool:
    if not HAVE_TORCH:
        return False
    import torch

    return bool(torch.cuda.is_available())


pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not _gpu(), reason="needs an NVIDIA GPU")]


def test_bf16_full_run_on_gpu(tiny_base: Path, tmp_path: Path) -> None:
    from cass_train import recipe as recipe_mod
    from cass_train.sft import train

    data = write_jsonl(tmp_path / "d.jsonl", pair_rows())
    recipe = recipe_mod.load(write_recipe(tmp_path / "r.toml", train_sections(tiny_base, tmp_path / "run", max_steps=40),
                                          [{"path": str(data), "weight": 2}]))
    metrics = train(recipe)
    losses = {h["step"]: h["loss"] for h in metrics["log_history"] if "loss" in h}
    assert losses[40] < 0.3 * losses[5]
    assert '"dtype": "bfloat16"' in (tmp_path / "run" / "model" / "config.json").read_text()  # trained in bf16
    assert len(KERNELS) == metrics["data"]["train_examples"] // 2


@pytest.mark.parametrize("attention", ["sdpa", "eager", "flex_attention", "torch_varlen"])
def test_packing_isolation_on_gpu(tiny_base: Path, attention: str) -> None:
    from transformers import AutoConfig

    from cass_train.recipe import Model, Recipe
    from cass_train.throughput import isolation_check

    config = AutoConfig.from_pretrained(str(tiny_base))
    result = isolation_check(config, Recipe(model=Model(base=str(tiny_base), attention=attention)))
    assert result["ok"], result


def test_fast_options_train_like_the_plain_setup_on_gpu(tiny_base: Path, tmp_path: Path) -> None:
    """flex attention + regional compile + compiled loss + 2 rows a micro-step (the sweep's
    "combo"): the first logged losses match the plain sdpa run's."""
    from cass_train import recipe as recipe_mod
    from cass_train.sft import train

    data = write_jsonl(tmp_path / "d.jsonl", pair_rows())

    def losses(name: str, **extra: object) -> dict[int, float]:
        sections = train_sections(tiny_base, tmp_path / name, max_steps=6, logging_steps=1, batch_size=2, grad_accum=2,
                                  **{k: v for k, v in extra.items() if k != "attention"})
        sections["model"]["attention"] = str(extra.get("attention", "sdpa"))
        recipe = recipe_mod.load(write_recipe(tmp_path / f"{name}.toml", sections, [{"path": str(data), "weight": 2}]))
        return {h["step"]: h["loss"] for h in train(recipe)["log_history"] if "loss" in h}

    plain = losses("plain")
    fast = losses("fast", attention="flex_attention", compile="regional", loss="compiled", count_tokens=False)
    assert sorted(plain) == sorted(fast)
    for step in (1, 2, 3):  # later steps amplify bf16 rounding differences between the kernels
        assert fast[step] == pytest.approx(plain[step], rel=0.05, abs=0.05)
