"""A training recipe: one TOML file, typed here, with `--section.key VALUE` overrides.

    [model]   base model (Hugging Face id, model folder, or GGUF file), attention, dtype
    [data]    task, max_length, packing, validation, [data.columns], [[data.sources]]
    [train]   method (full | lora | qlora), schedule, batch, checkpoints; [train.args] passes
              any other transformers TrainingArguments field through (fsdp, deepspeed, ...)
    [lora]    rank, alpha, dropout, target modules, merge
    [output]  dir, eval_results
    [bench]   steps, warmup, synthetic length distribution

Precedence: command line > file > the defaults below. Unknown keys and wrong types are
errors naming the file and the key (a typo must not silently train with a default).
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence, get_type_hints



def _toml() -> Any:
    try:
        import tomllib  # Python 3.11+
    except ImportError:  # pragma: no cover
        try:
            import tomli as tomllib
        except ImportError:
            raise RecipeError("reading recipes needs Python 3.11 or the tomli package") from None
    return tomllib


class RecipeError(Exception):
    """A recipe that cannot be used; the message is one line naming the file."""


TASKS = ("source", "assembly", "both")
ANSWERS = ("whole", "body")
METHODS = ("full", "lora", "qlora")
COMPILE = ("auto", "off", "model", "regional")
LOSSES = ("auto", "model", "compiled")
LIGER_KERNELS = ("rope", "rms_norm", "swiglu", "cross_entropy", "fused_linear_cross_entropy")


@dataclass
class Model:
    base: str = ""
    revision: str = "main"
    attention: str = "auto"  # auto | sdpa | flash_attention_2 | flash_attention_3 | flex_attention | torch_varlen | eager
    dtype: str = "auto"  # weights as loaded: auto = float32 for full (bf16 autocast), bfloat16 for (q)lora on a GPU
    liger: str = "auto"  # auto (when liger_kernel is installed) | true | false
    # which Liger kernels (rope, rms_norm, swiglu, cross_entropy, fused_linear_cross_entropy); [] = Liger's defaults
    liger_kernels: list[str] = field(default_factory=list)


@dataclass
class Columns:
    """Column names in the input tables (cass_data export defaults)."""

    cuda: str = "cuda"
    hip: str = "hip"
    sass: str = "sass"
    rdna3: str = "rdna3"
    task: str = "task"
    split: str = "split"
    origin: str = "origin"
    level: str = "level"


# Values of the task column -> the task they are (cass_data's export names; the plain names too).
# A value mapped to "" is skipped; extend or override with [data.task_values].
TASK_VALUES = {
    "source": "source", "cuda-hip": "source",
    "assembly": "assembly", "sass-rdna3": "assembly", "sass-rdna3-lifted": "assembly",
}


@dataclass
class Source:
    path: str = ""  # a folder or file (Parquet, JSONL, a cass_data export), or hf:ORG/NAME
    format: str = "auto"  # auto | parquet | jsonl | hub
    weight: float = 1.0  # examples per epoch = weight x examples (integer part repeats, the rest a seeded sample)
    split: str = "train"
    name: str = ""  # shown in the model card; default: the path


@dataclass
class Data:
    task: str = "source"
    # source answers: whole (the HIP text as the data has it) | body (without the rules' prelude:
    # the model learns only the user's code; cass-cc puts the prelude back, from config.json's cass_answer)
    answer: str = "whole"
    max_length: int = 4096
    packing: bool = True
    validation: str = "validation"  # a split name, a fraction of train ("0.02", grouped by origin), or "" for none
    max_validation: int = 2000  # validation examples kept at most (seeded sample)
    seed: int = 0
    levels: list[str] = field(default_factory=list)  # verification levels kept (cass_data: compiled, executed, proven); [] = all
    task_values: dict[str, Any] = field(default_factory=dict)  # extra task-column values -> source | assembly | ""
    columns: Columns = field(default_factory=Columns)
    sources: list[Source] = field(default_factory=list)


@dataclass
class Train:
    method: str = "full"
    epochs: float = 1.0
    max_steps: int = -1
    batch_size: int = 1  # per device and micro-step: packed rows (examples without packing)
    grad_accum: int = 1
    learning_rate: float = 1e-5
    scheduler: str = "cosine"
    warmup_ratio: float = 0.03
    weight_decay: float = 0.0
    optimizer: str = "adamw_torch"
    max_grad_norm: float = 1.0
    bf16: str = "auto"  # auto (when a GPU has it) | true | false
    gradient_checkpointing: bool = True
    # auto (regional for full fine-tuning on one GPU) | off | model (torch.compile of the whole model) |
    # regional (each decoder layer, compiled once)
    compile: str = "auto"
    count_tokens: bool = False  # log num_input_tokens_seen (costs a host sync every micro-step)
    # auto (compiled on a GPU) | model (transformers' loss on fp32 logits) | compiled (cass_train/loss.py, bf16 logits)
    loss: str = "auto"
    seed: int = 0
    logging_steps: int = 10
    eval_steps: int = 200
    save_steps: int = 500
    save_total_limit: int = 2
    args: dict[str, Any] = field(default_factory=dict)


@dataclass
class Lora:
    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: str = "all-linear"  # or a comma-separated list of module names
    merge: bool = True


@dataclass
class Output:
    dir: str = ""
    eval_results: str = ""  # a JSON file (e.g. from cass-train eval) whose numbers go into the model card
    dtype: str = "auto"  # weights as saved: auto = bfloat16 when trained in bf16, else float32


@dataclass
class Bench:
    config: str = ""  # a config.json for the random-weight model (default: the base model's config)
    steps: int = 30
    warmup: int = 10
    lengths: str = "lognormal:700:0.9"  # lognormal:MEDIAN:SIGMA | fixed:N | uniform:LO:HI | data (the recipe's examples)
    examples: int = 4000
    padded: bool = False  # also time the same data without packing, padded per batch


@dataclass
class Recipe:
    model: Model = field(default_factory=Model)
    data: Data = field(default_factory=Data)
    train: Train = field(default_factory=Train)
    lora: Lora = field(default_factory=Lora)
    output: Output = field(default_factory=Output)
    bench: Bench = field(default_factory=Bench)
    path: str = ""  # the file it came from (for messages), not a TOML key

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d.pop("path")
        return d


def load(path: str | Path, overrides: Sequence[str] = (), need_data: bool = True) -> Recipe:
    """The recipe in `path` with `overrides` (`--section.key value` or `--section.key=value`) applied."""
    path = Path(path)
    tomllib = _toml()
    try:
        raw = tomllib.loads(path.read_text())
    except OSError as e:
        raise RecipeError(f"{path}: cannot read: {e.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise RecipeError(f"{path}: not valid TOML: {e}") from None
    for key, value in parse_overrides(overrides, path):
        _set(raw, key, value, path)
    recipe = _build(Recipe, raw, path, "")
    recipe.path = str(path)
    # relative paths in a recipe are relative to the recipe's folder
    base = path.resolve().parent
    for s in recipe.data.sources:
        if not s.path.startswith("hf:") and s.format != "hub" and not Path(s.path).is_absolute():
            s.path = str(base / s.path)
    if recipe.output.dir and not Path(recipe.output.dir).is_absolute():
        recipe.output.dir = str(base / recipe.output.dir)
    if recipe.bench.config and not Path(recipe.bench.config).is_absolute():
        recipe.bench.config = str(base / recipe.bench.config)
    if recipe.output.eval_results and not Path(recipe.output.eval_results).is_absolute():
        recipe.output.eval_results = str(base / recipe.output.eval_results)
    if recipe.model.base and not Path(recipe.model.base).is_absolute() and recipe.model.base.startswith("."):
        recipe.model.base = str(base / recipe.model.base)
    check(recipe, path, need_data)
    return recipe


def parse_overrides(args: Sequence[str], path: Path) -> list[tuple[str, Any]]:
    """`--train.learning_rate 1e-4`, `--lora.merge=false`: values are TOML literals when they
    parse as one (numbers, booleans, "strings", [lists]), else plain strings."""
    pairs: list[tuple[str, Any]] = []
    items = list(args)
    i = 0
    while i < len(items):
        item = items[i]
        if not item.startswith("--") or len(item) < 3:
            raise RecipeError(f"{path}: expected --section.key VALUE, got {item!r}")
        key = item[2:]
        if "=" in key:
            key, text = key.split("=", 1)
        elif i + 1 < len(items):
            text = items[i + 1]
            i += 1
        else:
            raise RecipeError(f"{path}: {item} needs a value")
        pairs.append((key, _literal(text)))
        i += 1
    return pairs


def _literal(text: str) -> Any:
    tomllib = _toml()
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def _set(raw: dict[str, Any], key: str, value: Any, path: Path) -> None:
    parts = key.split(".")
    node = raw
    for p in parts[:-1]:
        nxt = node.setdefault(p, {})
        if not isinstance(nxt, dict):
            raise RecipeError(f"{path}: --{key}: {p} is not a table")
        node = nxt
    node[parts[-1]] = value


def _build(cls: Any, raw: Any, path: Path, where: str) -> Any:
    if not isinstance(raw, dict):
        raise RecipeError(f"{path}: [{where}] must be a table")
    hints = get_type_hints(cls)
    # Recipe.path records the file; it is not a key of the file
    names = {f.name for f in dataclasses.fields(cls)} - ({"path"} if cls is Recipe else set())
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        full = f"{where}.{key}" if where else key
        if key not in names:
            raise RecipeError(f"{path}: unknown key {full} (known here: {', '.join(sorted(names))})")
        kwargs[key] = _convert(hints[key], value, path, full)
    return cls(**kwargs)


def _convert(hint: Any, value: Any, path: Path, key: str) -> Any:
    if dataclasses.is_dataclass(hint):
        return _build(hint, value, path, key)
    text = str(hint)
    if text == "list[str]":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RecipeError(f"{path}: {key} must be an array of strings")
        return list(value)
    if text.startswith("list["):
        if not isinstance(value, list):
            raise RecipeError(f"{path}: {key} must be an array of tables ([[{key}]])")
        return [_build(Source, v, path, key) for v in value]
    if text.startswith("dict["):
        if not isinstance(value, dict):
            raise RecipeError(f"{path}: {key} must be a table")
        return dict(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise RecipeError(f"{path}: {key} must be true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RecipeError(f"{path}: {key} must be an integer, not {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RecipeError(f"{path}: {key} must be a number, not {value!r}")
        return float(value)
    if hint is str:
        if isinstance(value, bool):  # `--train.bf16 true` arrives as a TOML boolean
            return "true" if value else "false"
        if isinstance(value, (int, float)):
            return str(value)
        if not isinstance(value, str):
            raise RecipeError(f"{path}: {key} must be a string, not {value!r}")
        return value
    return value


def check(r: Recipe, path: Path, need_data: bool) -> None:
    def bad(msg: str) -> RecipeError:
        return RecipeError(f"{path}: {msg}")

    if not r.model.base:
        raise bad("model.base is required (a Hugging Face id, a model folder or a .gguf file)")
    if r.data.task not in TASKS:
        raise bad(f"data.task must be one of {', '.join(TASKS)}, not {r.data.task!r}")
    if r.data.answer not in ANSWERS:
        raise bad(f"data.answer must be one of {', '.join(ANSWERS)}, not {r.data.answer!r}")
    if r.train.method not in METHODS:
        raise bad(f"train.method must be one of {', '.join(METHODS)}, not {r.train.method!r}")
    if r.data.max_length < 16:
        raise bad("data.max_length must be at least 16")
    for name in ("batch_size", "grad_accum", "logging_steps", "eval_steps", "save_steps"):
        if getattr(r.train, name) < 1:
            raise bad(f"train.{name} must be at least 1")
    if r.bench.steps < 1 or r.bench.warmup < 1:
        raise bad("bench.steps and bench.warmup must be at least 1")
    for name in ("bf16",):
        if getattr(r.train, name) not in ("auto", "true", "false"):
            raise bad(f"train.{name} must be auto, true or false")
    if r.model.liger not in ("auto", "true", "false"):
        raise bad("model.liger must be auto, true or false")
    for kernel in r.model.liger_kernels:
        if kernel not in LIGER_KERNELS:
            raise bad(f"model.liger_kernels: {kernel!r} is not one of {', '.join(LIGER_KERNELS)}")
    if {"cross_entropy", "fused_linear_cross_entropy"} <= set(r.model.liger_kernels):
        raise bad("model.liger_kernels: cross_entropy and fused_linear_cross_entropy exclude each other")
    if r.train.compile not in COMPILE:
        raise bad(f"train.compile must be one of {', '.join(COMPILE)}, not {r.train.compile!r}")
    if r.train.loss not in LOSSES:
        raise bad(f"train.loss must be one of {', '.join(LOSSES)}, not {r.train.loss!r}")
    for value, task in r.data.task_values.items():
        if task not in ("source", "assembly", ""):
            raise bad(f"data.task_values.{value} must be source, assembly or \"\", not {task!r}")
    for s in r.data.sources:
        if not s.path:
            raise bad("every [[data.sources]] needs a path")
        if s.format not in ("auto", "parquet", "jsonl", "hub"):
            raise bad(f"data.sources: format must be auto, parquet, jsonl or hub, not {s.format!r}")
        if s.weight <= 0:
            raise bad(f"data.sources {s.path}: weight must be positive")
    if need_data:
        if not r.data.sources:
            raise bad("no [[data.sources]]")
        if not r.output.dir:
            raise bad("output.dir is required")


def dumps(recipe: Recipe) -> str:
    """The resolved recipe as JSON (for the model card and the run folder)."""
    return json.dumps(recipe.to_dict(), indent=2, sort_keys=True)


def with_overrides(recipe: Recipe, values: Mapping[str, Any]) -> Recipe:
    """A copy with dotted keys set (used by bench and the tests)."""
    raw = recipe.to_dict()
    for key, value in values.items():
        _set(raw, key, value, Path(recipe.path or "<recipe>"))
    new = _build(Recipe, raw, Path(recipe.path or "<recipe>"), "")
    new.path = recipe.path
    return new
