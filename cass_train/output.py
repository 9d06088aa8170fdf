"""The run's results on disk: the model folder cass-cc loads (`cass-cc --model RUN/model`),
the model card, metrics.json, recipe.json and the loss curve.

final/ holds what the Trainer saved (it gathers FSDP and DeepSpeed shards): full weights,
or a LoRA adapter. model/ is made from it on the main process: full weights cast to the
output dtype, or the adapter merged into a fresh copy of the base weights (also for
QLoRA: the merge is into unquantized weights). model/ is filled in a temporary sibling and
renamed into place, so a crash never leaves half a model folder behind; an older model/
is replaced only once the new one is complete.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable

import click

from cass_cc.model.prompts import PROMPT_VERSION
from cass_cc.util import atomic_write_text

from .recipe import Recipe, RecipeError, dumps


def replace_folder(folder: Path, fill: Callable[[Path], None]) -> Path:
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    old = folder.parent / f".{folder.name}.old"
    try:
        fill(work)
        if old.exists():
            shutil.rmtree(old)
        if folder.exists():
            os.rename(folder, old)
        os.rename(work, folder)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return folder


def output_dtype(recipe: Recipe, trained_bf16: bool) -> str:
    if recipe.output.dtype != "auto":
        return recipe.output.dtype
    return "bfloat16" if trained_bf16 else "float32"


def build_model_folder(recipe: Recipe, final: Path, dest: Path, dtype_name: str, turn_end_ids: list[int]) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from .model import dtype_keyword, plain_weights, pretrained

    dtype = getattr(torch, dtype_name)
    if recipe.train.method == "full":
        model = AutoModelForCausalLM.from_pretrained(str(final), **{dtype_keyword(): dtype})
    else:
        from peft import PeftModel

        source, files = pretrained(recipe)
        base = plain_weights(AutoModelForCausalLM.from_pretrained(source, trust_remote_code=False, **{dtype_keyword(): dtype},
                                                                  **files))
        model = PeftModel.from_pretrained(base, str(final)).merge_and_unload()
    model.config.use_cache = True  # for generation; training turned it off
    if recipe.data.task != "assembly" and recipe.data.answer == "body":
        model.config.cass_answer = "body"  # cass-cc puts the rules' prelude before its answers (model-answer)
    tok = AutoTokenizer.from_pretrained(str(final))
    tok.padding_side = "left"
    gen = model.generation_config
    eos = {*(gen.eos_token_id if isinstance(gen.eos_token_id, list) else [gen.eos_token_id])} - {None}
    if len(turn_end_ids) == 1:  # the token that ends an assistant turn must stop generation
        eos.add(turn_end_ids[0])
    if tok.eos_token_id is not None:
        eos.add(tok.eos_token_id)
    gen.eos_token_id = sorted(eos) if len(eos) > 1 else (next(iter(eos)) if eos else None)
    if gen.pad_token_id is None:
        gen.pad_token_id = tok.pad_token_id
    model.save_pretrained(str(dest))
    tok.save_pretrained(str(dest))


def write_outputs(recipe: Recipe, out: Path, metrics: dict[str, Any], turn_end_ids: list[int], trained_bf16: bool) -> Path:
    final = out / "final"
    eval_results = read_eval_results(recipe.output.eval_results)
    metrics = json.loads(json.dumps(metrics, default=str))
    atomic_write_text(out / "metrics.json", json.dumps(metrics, indent=2) + "\n")
    atomic_write_text(out / "recipe.json", dumps(recipe) + "\n")
    plot_losses(metrics.get("log_history", []), out / "loss.png")
    dtype_name = output_dtype(recipe, trained_bf16)
    if recipe.train.method != "full" and not recipe.lora.merge:
        # an adapter alone: cass-cc needs a model folder (lora.merge = true makes one)
        atomic_write_text(final / "README.md", model_card(recipe, metrics, eval_results, "adapter (not merged)"))
        return final

    def fill(work: Path) -> None:
        build_model_folder(recipe, final, work, dtype_name, turn_end_ids)
        shutil.copyfile(out / "loss.png", work / "loss.png")
        atomic_write_text(work / "README.md", model_card(recipe, metrics, eval_results, dtype_name))

    return replace_folder(out / "model", fill)


def read_eval_results(path: str) -> str | None:
    """Markdown for the card from `cass-train eval` output: its folder (table.md, else
    summary.json), a .md table, or any JSON file (a `failures` list is left out)."""
    if not path:
        return None
    p = Path(path)
    try:
        if p.is_dir():
            p = p / "table.md" if (p / "table.md").is_file() else p / "summary.json"
        text = p.read_text()
        if p.suffix == ".json":
            data = json.loads(text)
            if isinstance(data, dict):
                data.pop("failures", None)
            return "```json\n" + json.dumps(data, indent=2)[:20000] + "\n```"
        return text.strip()
    except (OSError, ValueError) as e:
        raise RecipeError(f"{path}: cannot read evaluation results (output.eval_results): {e}") from None


def plot_losses(history: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    train = [(h["step"], h["loss"]) for h in history if "loss" in h and "step" in h]
    evals = [(h["step"], h["eval_loss"]) for h in history if "eval_loss" in h and "step" in h]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    if train:
        ax.plot(*zip(*train), label="train loss")
    if evals:
        ax.plot(*zip(*evals), marker="o", label="validation loss")
    ax.set_xlabel("step")
    ax.set_ylabel("loss (answer tokens)")
    ax.grid(alpha=0.3)
    if train or evals:
        ax.legend()
    fig.tight_layout()
    tmp = path.with_name(f".{path.name}.tmp.png")
    fig.savefig(tmp)
    plt.close(fig)
    os.replace(tmp, path)


def model_card(recipe: Recipe, metrics: dict[str, Any], eval_results: str | None, dtype_name: str) -> str:
    data = metrics.get("data", {})
    train = metrics.get("train", {})
    lines = [
        "---",
        f"base_model: {recipe.model.base}",
        "library_name: transformers",
        "pipeline_tag: text-generation",
        "tags: [cass-cc, cuda, hip, code-translation]",
        "---",
        "",
        f"# CUDA -> AMD translator fine-tuned from {recipe.model.base}",
        "",
        "Made by `cass-train sft`. Use it with cass-cc: `cass-cc --model <this folder> ...` or "
        "`cass-cc translate --model <this folder> FILE.cu`.",
        "",
        f"- Base model: `{recipe.model.base}` (revision `{recipe.model.revision}`)",
        f"- Method: {recipe.train.method}" + (f" (r={recipe.lora.r}, alpha={recipe.lora.alpha}, merged)" if recipe.train.method != "full" else ""),
        f"- Task: {recipe.data.task}; prompt formats of cass-cc `{PROMPT_VERSION}` (cass_cc/model/prompts.py)",
        f"- Weights saved as {dtype_name}; parameters {data.get('parameters', '?')}, trained {data.get('trainable_parameters', '?')}",
        "",
        "## Data",
        "",
        "| source | rows | examples (source / assembly) | per epoch (weighted) | validation | dataset card counts |",
        "|---|---|---|---|---|---|",
    ]
    for s in data.get("sources", []):
        ex = s.get("examples", {})
        card = ", ".join(f"{k}: {v}" for k, v in s.get("card", {}).items()) or "-"
        lines.append(f"| {s['name']} | {s['rows']} | {ex.get('source', 0)} / {ex.get('assembly', 0)} | {s['weighted']} "
                     f"| {s['validation']} | {card} |")
    dropped = data.get("dropped_too_long", {})
    lines += [
        "",
        f"Training examples: {data.get('train_examples', '?')} ({_kv(data.get('train_examples_by_task', {}))}), "
        f"{data.get('train_tokens', '?')} tokens of which {data.get('train_answer_tokens', '?')} answer tokens carry the loss. "
        f"Dropped as longer than {data.get('max_length')} tokens: {sum(dropped.values())} ({_kv(dropped) or 'none'}). "
        f"Validation examples: {data.get('validation_examples', 0)}.",
    ]
    if "packed_rows" in data:
        lines.append(f"Packed into {data['packed_rows']} rows of {data.get('max_length')} tokens "
                     f"({100 * data['packing_fill']:.1f}% filled), without attention across examples.")
    for s in data.get("sources", []):
        if s.get("card_counts"):
            demoted = "\n".join("#" + line if line.startswith("#") else line for line in s["card_counts"].splitlines())
            lines += ["", f"### Dataset card counts of {s['name']}", "", demoted]
    lines += ["", "## Training", ""]
    lines.append(f"Steps: {metrics.get('global_step')}; train loss {_num(train.get('train_loss'))}; "
                 f"runtime {_num(train.get('train_runtime'))} s.")
    if "eval" in metrics:
        lines.append(f"Validation loss: {_num(metrics['eval'].get('eval_loss'))}.")
    lines += ["", "![loss](loss.png)", ""]
    if eval_results:
        lines += ["## Evaluation", "", f"From `{recipe.output.eval_results}`:", "", eval_results, ""]
    lines += ["## Recipe", "", "```json", dumps(recipe), "```", ""]
    return "\n".join(lines)


def _kv(d: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items()))


def _num(x: Any) -> str:
    return f"{x:.4g}" if isinstance(x, (int, float)) else "?"


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("recipe_file", metavar="RECIPE.toml", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def command(ctx: click.Context, recipe_file: Path) -> None:
    """Rebuild output.dir/model from output.dir/final (the adapter or weights a run saved) and its
    metrics.json: for a run trained on another machine, where only final/ (a LoRA adapter is tens of
    MB) and metrics.json were brought back. --section.key VALUE pairs override the recipe, as for sft."""
    from .encode import ChatEncoder
    from .model import load_tokenizer
    from .recipe import load

    try:
        recipe = load(recipe_file, ctx.args)
        out = Path(recipe.output.dir)
        try:
            metrics = json.loads((out / "metrics.json").read_text())
        except (OSError, ValueError) as e:
            raise RecipeError(f"{out / 'metrics.json'}: cannot read the run's metrics ({e})") from None
        if not (out / "final").is_dir():
            raise RecipeError(f"{out / 'final'}: no such folder (the run's adapter or weights)")
        turn_end_ids = ChatEncoder(load_tokenizer(recipe)).turn_end_ids()
        folder = write_outputs(recipe, out, metrics, turn_end_ids, bool(metrics.get("bf16", True)))
    except RecipeError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"model folder: {folder}", err=True)
