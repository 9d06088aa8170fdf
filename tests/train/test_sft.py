"""End to end on CPU with the tiny model: training lowers the loss on a few pairs, the run
folder has everything (model, card, curves, TensorBoard), the folder loads in cass-cc and
translates (full and merged LoRA), and a run stopped and resumed repeats the losses of an
uninterrupted one."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cass_cc.model.prompts import SOURCE
from cass_train import recipe as recipe_mod
from cass_train.recipe import RecipeError
from tests.conftest import have, run_cass
from tests.train.conftest import KERNELS, cuda_of, hip_of, needs_torch, pair_rows, train_sections, write_jsonl, write_recipe

pytestmark = needs_torch


def losses(history: list[dict[str, Any]]) -> dict[int, float]:
    return {h["step"]: h["loss"] for h in history if "loss" in h}


def generated(folder: Path, tmp: Path) -> list[str | None]:
    """cass-cc's transformers backend on the run's model folder, asked as cass-cc asks."""
    from cass_cc.model.hf import HFBackend
    from cass_cc.model.settings import Generation, ModelSettings
    from cass_cc.model.store import Store

    gen = Generation(max_new_tokens=100)
    backend = HFBackend(ModelSettings(model=str(folder), generation=gen, device="cpu"), Store(tmp / "store"))
    answers = backend.generate([SOURCE.prompt(cuda_of(n)) for n in KERNELS], gen)
    return [SOURCE.extract(a) for a in answers]


def run(tmp: Path, name: str, base: Path, rows: list[dict[str, Any]], weight: float = 2.0, eval_results: str = "",
        validation: str = "", **train: Any) -> dict[str, Any]:
    from cass_train.sft import train as train_run

    data = write_jsonl(tmp / f"{name}.jsonl", rows)
    sections = train_sections(base, tmp / name, **train)
    if eval_results:
        sections["output"]["eval_results"] = eval_results
    sections["data"]["validation"] = validation
    path = write_recipe(tmp / f"{name}.toml", sections, [{"path": str(data), "weight": weight}])
    return train_run(recipe_mod.load(path))


def test_full_run_learns_and_writes_a_folder_cass_cc_uses(tiny_base: Path, tmp_path: Path) -> None:
    long = {**pair_rows(["scale"])[0], "cuda": cuda_of("scale") + "// padding\n" * 200, "origin": "long"}
    evaluation = tmp_path / "eval-model"  # what `cass-train eval --out` writes, in part
    evaluation.mkdir()
    (evaluation / "table.md").write_text("| domain | compiled |\n|---|---:|\n| total | 3/4 |\n")
    held_out = {**pair_rows(["scale"])[0], "origin": "held-out", "split": "validation"}
    metrics = run(tmp_path, "full", tiny_base, [*pair_rows(), long, held_out], max_steps=40, eval_steps=20,
                  eval_results=str(evaluation), validation="validation")
    steps = losses(metrics["log_history"])
    assert steps[40] < 0.2 * steps[5]
    evals = {h["step"]: h["eval_loss"] for h in metrics["log_history"] if "eval_loss" in h}
    assert sorted(evals) == [20, 40] and evals[40] < evals[20]  # validation loss, on the held-out example
    assert metrics["data"]["validation_examples"] == 1 and metrics["eval"]["eval_loss"] == evals[40]
    data = metrics["data"]
    assert data["train_examples"] == 8 and data["dropped_too_long"] == {"source": 2}  # the long pair, weight 2
    run_dir = tmp_path / "full"
    model = run_dir / "model"
    for name in ("config.json", "model.safetensors", "tokenizer.json", "generation_config.json", "README.md", "loss.png"):
        assert (model / name).is_file(), name
    card = (model / "README.md").read_text()
    assert f"base_model: {tiny_base}" in card and "Dropped as longer than 256 tokens: 2 (source 2)" in card
    assert "## Evaluation" in card and "| total | 3/4 |" in card
    assert (run_dir / "loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert list((run_dir / "tensorboard").rglob("events.out.tfevents.*"))
    assert json.loads((run_dir / "metrics.json").read_text())["global_step"] == 40
    assert json.loads((model / "config.json").read_text())["use_cache"] is True
    # the folder loads through cass-cc's own backend and answers every prompt with its pair's HIP
    assert generated(model, tmp_path) == [hip_of(n) for n in KERNELS]
    # a second run into the same folder must be asked to resume, not silently mix
    with pytest.raises(RecipeError, match="pass --resume"):
        run(tmp_path, "full", tiny_base, pair_rows())


@pytest.mark.skipif(not have("clang-15") and not have("clang"), reason="cass-cc compiles the model's answer with clang")
def test_lora_merged_translates_through_cass_cc(tiny_base: Path, tmp_path: Path, cass_env: dict[str, str]) -> None:
    metrics = run(tmp_path, "lora", tiny_base, pair_rows(), method="lora", learning_rate=1e-2, max_steps=60,
                  gradient_checkpointing=True)
    assert metrics["data"]["trainable_parameters"] < metrics["data"]["parameters"] / 3
    assert (tmp_path / "lora" / "final" / "adapter_config.json").is_file()
    model = tmp_path / "lora" / "model"
    assert not (model / "adapter_config.json").exists()  # merged: a plain model folder
    (tmp_path / "scale.cu").write_text(cuda_of("scale"))
    proc = run_cass(["translate", "--model", str(model), "--cass-model-when=always", "--cass-model-max-tokens=100",
                     "-arch=sm_80", "scale.cu"], tmp_path, cass_env, check=True)
    assert proc.stdout.splitlines() == ["scale.cu: model", "1 file(s) translated: 1 by the model, 0 by the rules"], proc.stderr


@pytest.mark.skipif(not have("clang-15") and not have("clang"), reason="cass-cc compiles the model's answer with clang")
def test_body_run_learns_bodies_and_cass_cc_puts_the_prelude_back(tiny_base: Path, tmp_path: Path, cass_env: dict[str, str]) -> None:
    """data.answer = "body": trained on the rules translations without their prelude, the model's
    folder says so (config.json cass_answer), and cass-cc puts the rules' prelude before its answers:
    a model that learned the bodies gives back the rules translation, prelude and all."""
    from cass_cc.port.files import strip_line_directive
    from cass_cc.translate import Target
    from cass_cc.translate.prelude import split_prelude
    from cass_cc.translate.rules import RulesTranslator

    rows = pair_rows()
    for row in rows:  # the HIP column as cass-data writes it
        text = RulesTranslator().translate(row["cuda"], "k.cu", Target(hip_version=(5, 2), wave_size=32)).text
        row["hip"] = strip_line_directive(text, "k.cu")
    data = write_jsonl(tmp_path / "body.jsonl", rows)
    sections = train_sections(tiny_base, tmp_path / "body", max_steps=40)
    sections["data"]["answer"] = "body"
    from cass_train.sft import train as train_run

    metrics = train_run(recipe_mod.load(write_recipe(tmp_path / "body.toml", sections, [{"path": str(data), "weight": 2.0}])))
    assert metrics["data"]["dropped_too_long"] == {}  # the bodies fit 256 tokens; prelude and body would not
    model = tmp_path / "body" / "model"
    assert json.loads((model / "config.json").read_text())["cass_answer"] == "body"
    assert generated(model, tmp_path) == [split_prelude(r["hip"])[1] for r in rows]
    (tmp_path / "scale.cu").write_text(cuda_of("scale"))
    flags = ["--model", str(model), "--cass-model-when=always", "--cass-model-max-tokens=100", "-arch=sm_80"]
    proc = run_cass(["translate", *flags, "scale.cu"], tmp_path, cass_env, check=True)
    assert proc.stdout.splitlines() == ["scale.cu: model", "1 file(s) translated: 1 by the model, 0 by the rules"], proc.stderr
    run_cass(["-cuda", *flags, "scale.cu", "-o", "model.hip"], tmp_path, cass_env, check=True)
    run_cass(["-cuda", "scale.cu", "-o", "rules.hip"], tmp_path, cass_env, check=True)
    assert (tmp_path / "model.hip").read_text() == (tmp_path / "rules.hip").read_text()


def test_stopped_and_resumed_run_matches_an_uninterrupted_one(tiny_base: Path, tmp_path: Path) -> None:
    from transformers import TrainerCallback

    from cass_train.sft import train as train_run

    class StopAt(TrainerCallback):  # type: ignore[misc]
        def on_step_end(self, args, state, control, **kw):  # type: ignore[no-untyped-def]
            if state.global_step == 4:
                control.should_training_stop = True
            return control

    # 12 examples, 2 a step: the stop falls mid-epoch and the run goes on into epoch 2
    settings = dict(max_steps=9, batch_size=2, save_steps=4, logging_steps=1, learning_rate=2e-3, scheduler="cosine",
                    warmup_ratio=0.2)
    data = write_jsonl(tmp_path / "d.jsonl", pair_rows())
    whole = recipe_mod.load(write_recipe(tmp_path / "a.toml", train_sections(tiny_base, tmp_path / "a", **settings),
                                         [{"path": str(data), "weight": 3}]))
    parts = recipe_mod.load(write_recipe(tmp_path / "b.toml", train_sections(tiny_base, tmp_path / "b", **settings),
                                         [{"path": str(data), "weight": 3}]))
    reference = losses(train_run(whole, write=False)["log_history"])
    first = train_run(parts, callbacks=[StopAt()])
    assert first["global_step"] == 4 and not (tmp_path / "b" / "model").exists()
    resumed = losses(train_run(parts, resume=True)["log_history"])
    assert sorted(reference) == sorted(resumed) == list(range(1, 10))
    for step in range(1, 10):
        assert resumed[step] == pytest.approx(reference[step], rel=1e-5, abs=1e-6), step
    assert (tmp_path / "b" / "model" / "config.json").is_file()


def test_unmerged_lora_through_the_command_line(tiny_base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cass_train.cli import main

    data = write_jsonl(tmp_path / "d.jsonl", pair_rows())
    recipe = write_recipe(tmp_path / "r.toml", train_sections(tiny_base, tmp_path / "run", max_steps=2, method="lora"),
                          [{"path": str(data)}])
    assert main(["sft", str(recipe), "--lora.merge", "false", "--lora.r", "4"]) == 0
    assert "trained 2 steps on 4 examples (0 over 256 tokens dropped)" in capsys.readouterr().err
    final = tmp_path / "run" / "final"
    assert json.loads((final / "adapter_config.json").read_text())["r"] == 4
    assert "Weights saved as adapter (not merged)" in (final / "README.md").read_text()
    assert not (tmp_path / "run" / "model").exists()  # cass-cc needs merged weights: none are claimed
    assert main(["sft", str(recipe)]) == 1  # checkpoints there: must be told to resume
    assert "pass --resume" in capsys.readouterr().err
