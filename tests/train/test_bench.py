"""cass-train bench on CPU (the numbers that matter come from bench/train_h100.py on a GPU),
the FLOP count against transformers' own parameter count, and the GPU peak table."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cass_train.flops import attention_pairs, matmul_weights, peak_flops, train_flops
from tests.train.conftest import needs_torch

CONFIGS = Path(__file__).resolve().parents[2] / "cass_train" / "configs" / "models"


@needs_torch
@pytest.mark.parametrize("name, tied", [("qwen2.5-coder-1.5b", True), ("qwen2.5-coder-7b", False)])
def test_matmul_weights_match_the_model(name: str, tied: bool) -> None:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    config = AutoConfig.for_model(**json.loads((CONFIGS / f"{name}.json").read_text()))
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(config)
    params = sum(p.numel() for p in model.parameters())
    embedding = model.get_input_embeddings().weight.numel()
    norms = sum(p.numel() for n, p in model.named_parameters() if "norm" in n or n.endswith(".bias"))
    # every weight that multiplies a token: all but the embedding lookup, norms and biases;
    # a tied LM head multiplies with the embedding's weights
    expected = params - norms - (0 if tied else embedding)
    assert matmul_weights(config) == expected
    assert params == {True: 1_543_714_304, False: 7_615_616_512}[tied]  # Qwen2.5-Coder 1.5B and 7B


def test_train_flops_count_attention_within_examples() -> None:
    cfg = {"hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2, "num_hidden_layers": 2,
           "intermediate_size": 128, "vocab_size": 512}
    assert attention_pairs([3, 2]) == 6 + 3
    one = train_flops(cfg, [100, 100])
    joined = train_flops(cfg, [200])
    assert joined - one == 3 * 2 * 2 * 2 * 64 * (attention_pairs([200]) - attention_pairs([100, 100]))
    assert train_flops(cfg, [100], "lora") < train_flops(cfg, [100], "full")


def test_peak_table_prefers_specific_names(monkeypatch: pytest.MonkeyPatch) -> None:
    assert peak_flops("NVIDIA H100 80GB HBM3", {}) == 989.4e12
    assert peak_flops("NVIDIA H100 PCIe", {}) == 756e12
    assert peak_flops("NVIDIA H200", {}) == 989.4e12
    assert peak_flops("NVIDIA H20", {}) == 148e12
    assert peak_flops("Some GPU", {}) is None
    assert peak_flops("Some GPU", {"CASS_PEAK_TFLOPS": "100"}) == 100e12


@needs_torch
def test_bench_cli_packed_and_padded(tiny_base: Path, tmp_path: Path) -> None:
    from cass_train.cli import main

    recipe = tmp_path / "r.toml"
    recipe.write_text(f'[model]\nbase = "{tiny_base}"\n[data]\nmax_length = 256\n[train]\ngradient_checkpointing = false\n'
                      '[bench]\nsteps = 2\nwarmup = 1\nexamples = 80\nlengths = "lognormal:60:0.5"\n')
    out = tmp_path / "bench.json"
    assert main(["bench", str(recipe), "--padded", "--json", str(out), "--train.batch_size", "2"]) == 0
    result = json.loads(out.read_text())
    packed, padded = result["packed"], result["padded"]
    assert packed["packing"] and not padded["packing"]
    assert packed["rows"] < packed["examples"] == padded["rows"] == 80
    assert packed["isolation"]["ok"] and packed["isolation"]["leak_diff"] > 1e-2
    for r in (packed, padded):
        assert r["measured_steps"] == 2 and r["tokens_per_s_per_gpu"] > 0 and r["mfu"] is None  # no GPU peak on a CPU
    # padded batches hold 2 examples; packed rows hold several: more real tokens a step
    assert packed["tokens_per_step_per_gpu"] > padded["tokens_per_step_per_gpu"]
    assert result["speedup"] == pytest.approx(packed["tokens_per_s_per_gpu"] / padded["tokens_per_s_per_gpu"])


@needs_torch
def test_bench_lengths_from_the_recipes_data(tiny_base: Path, tmp_path: Path) -> None:
    from cass_train import recipe as recipe_mod
    from cass_train.throughput import data_lengths
    from tests.train.conftest import pair_rows, train_sections, write_jsonl, write_recipe

    data = write_jsonl(tmp_path / "d.jsonl", pair_rows())
    sections = train_sections(tiny_base, tmp_path / "run")
    sections["bench"] = {"lengths": "data", "examples": 50}
    recipe = recipe_mod.load(write_recipe(tmp_path / "r.toml", sections, [{"path": str(data)}]))
    from cass_train.data import load_examples
    from cass_train.encode import ChatEncoder
    from cass_train.model import load_tokenizer

    real = {len(e) for e in ChatEncoder(load_tokenizer(recipe)).encode(load_examples(recipe.data).train)}
    drawn = data_lengths(recipe, 50, seed=0)
    assert len(drawn) == 50 and set(drawn) <= real and len(set(drawn)) > 1


@needs_torch
def test_bench_regional_compile_counts_tokens_on_the_host_and_profiles(tiny_base: Path, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """train.compile = regional through the Trainer (accelerate compiles each decoder layer;
    aot_eager here, inductor on a GPU): the layers share one graph. Tokens counted by the
    collator on the host equal the Trainer's own (synced) count; the profile is written."""
    import torch
    from torch._dynamo.utils import counters

    from cass_train.recipe import Bench, Data, Model, Recipe, Train
    from cass_train.throughput import run_bench

    for name in ("ACCELERATE_DYNAMO_BACKEND", "ACCELERATE_DYNAMO_MODE", "ACCELERATE_DYNAMO_USE_REGIONAL_COMPILATION"):
        monkeypatch.setenv(name, "")  # what the Trainer and compile_arguments set is undone after the test
    config = json.loads((tiny_base / "config.json").read_text())
    config["num_hidden_layers"] = 4
    config.pop("layer_types", None)
    (tmp_path / "config.json").write_text(json.dumps(config))
    recipe = Recipe(model=Model(base=str(tiny_base), attention="sdpa"), data=Data(max_length=256),
                    train=Train(grad_accum=2, gradient_checkpointing=False, compile="regional", count_tokens=True,
                                args={"torch_compile_backend": "aot_eager"}),
                    bench=Bench(config=str(tmp_path / "config.json"), steps=2, warmup=1, examples=80,
                                lengths="lognormal:60:0.5"))
    torch._dynamo.reset()
    counters.clear()
    result = run_bench(recipe, check=False, profile=tmp_path / "profile")
    # embedding, one graph for all 4 layers, final norm, rotary embedding, LM head
    assert 0 < counters["stats"]["unique_graphs"] <= 5
    assert result["compile"] == "regional" and result["measured_steps"] == 2
    seen = result["tokens_seen"]
    assert seen["counted"] == seen["trainer"] > 0
    assert result["tokens_per_step_per_gpu"] > 0
    profile = json.loads((tmp_path / "profile" / "profile.json").read_text())
    assert profile["steps"] == 2 and profile["wall_s"] > 0
    assert any("aten::mm" in t["name"] or "aten::addmm" in t["name"] for t in profile["top"])
    assert "Self CPU" in (tmp_path / "profile" / "profile.txt").read_text()
    torch._dynamo.reset()


@needs_torch
def test_training_arguments_follow_the_mfu_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from cass_train.arguments import training_arguments
    from cass_train.recipe import Model, Recipe, Train

    monkeypatch.setenv("ACCELERATE_DYNAMO_USE_REGIONAL_COMPILATION", "")
    monkeypatch.setenv("ACCELERATE_DYNAMO_BACKEND", "")
    monkeypatch.setenv("ACCELERATE_DYNAMO_MODE", "")
    plain = training_arguments(Recipe(model=Model(base="x")), tmp_path, has_validation=False)
    assert not plain.torch_compile  # train.compile = auto: off without a GPU
    assert plain.include_num_input_tokens_seen == "no"  # train.count_tokens defaults to false
    counted = training_arguments(Recipe(model=Model(base="x"), train=Train(count_tokens=True)), tmp_path, False)
    assert counted.include_num_input_tokens_seen == "non_padding"
    assert plain.liger_kernel_config is None
    recipe = Recipe(model=Model(base="x", liger="false", liger_kernels=["rms_norm", "swiglu"]),
                    train=Train(compile="regional", count_tokens=False))
    args = training_arguments(recipe, tmp_path, has_validation=False)
    assert args.torch_compile and args.include_num_input_tokens_seen == "no"
    import os

    assert os.environ["ACCELERATE_DYNAMO_USE_REGIONAL_COMPILATION"] == "True"
    assert args.liger_kernel_config == {"rope": False, "rms_norm": True, "swiglu": True, "cross_entropy": False,
                                        "fused_linear_cross_entropy": False}
    training_arguments(Recipe(model=Model(base="x"), train=Train(compile="model")), tmp_path, has_validation=False)
    assert os.environ["ACCELERATE_DYNAMO_USE_REGIONAL_COMPILATION"] == "False"


@needs_torch
def test_isolation_check_sees_a_leak(tiny_base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With transformers' packed-row detection switched off, the packed examples attend to
    each other, and the check says so."""
    import transformers.masking_utils as masking
    from transformers import AutoConfig

    from cass_train.recipe import Model, Recipe
    from cass_train.throughput import isolation_check

    config = AutoConfig.from_pretrained(str(tiny_base))
    recipe = Recipe(model=Model(base=str(tiny_base), attention="sdpa"))
    assert isolation_check(config, recipe)["ok"]
    monkeypatch.setattr(masking, "find_packed_sequence_indices", lambda position_ids: None)
    leaked = isolation_check(config, recipe)
    assert not leaked["ok"] and leaked["max_diff"] > 1e-2


@needs_torch
def test_auto_choices_follow_the_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a GPU: flex attention for packed rows, regional compile for full fine-tuning (one
    process or several), the compiled loss; on a CPU, or where not measured, the plain setup."""
    import cass_train.model as model
    from cass_train.recipe import Data, Model, Recipe, Train

    full, lora = Recipe(model=Model(base="x")), Recipe(model=Model(base="x"), train=Train(method="lora"))
    unpacked = Recipe(model=Model(base="x"), data=Data(packing=False))
    assert (model.attention(full), model.compile_mode(full), model.loss_mode(full)) == ("sdpa", "off", "model")
    monkeypatch.setattr(model, "gpu_available", lambda: True)
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)  # no flash_attn
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    assert (model.attention(full), model.compile_mode(full), model.loss_mode(full)) == \
        ("flex_attention", "regional", "compiled")
    assert model.attention(unpacked) == "sdpa" and model.compile_mode(lora) == "off"
    monkeypatch.setenv("WORLD_SIZE", "2")
    assert model.compile_mode(full) == "regional" and model.compile_mode(lora) == "off"  # DDP too (measured)
    pinned = Recipe(model=Model(base="x", attention="sdpa"), train=Train(compile="off", loss="model"))
    assert (model.attention(pinned), model.compile_mode(pinned), model.loss_mode(pinned)) == ("sdpa", "off", "model")
