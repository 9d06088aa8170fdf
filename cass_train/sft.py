"""`cass-train sft RECIPE.toml`: supervised fine-tuning on transformers' Trainer.

    prepare():  sources -> examples (data.py) -> ids and labels (encode.py) -> examples over
                data.max_length dropped and counted -> packed rows or plain rows
    train():    Trainer (loop, optimizer, schedule, mixed precision, gradient checkpointing,
                DDP/FSDP/DeepSpeed through accelerate, checkpoints with model, optimizer,
                scheduler, RNG and data position) -> output.write_outputs()

Run folder (output.dir): model/ (for `cass-cc --model`), checkpoints/, final/ (what the
Trainer saved: full weights or the LoRA adapter), tensorboard/, loss.png, metrics.json,
recipe.json.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import click

from .recipe import Recipe, RecipeError


@dataclass
class Prepared:
    train: Any
    validation: Any
    collator: Any
    stats: dict[str, Any] = field(default_factory=dict)
    turn_end_ids: list[int] = field(default_factory=list)


def prepare(recipe: Recipe, tok: Any) -> Prepared:
    from . import encode
    from .data import load_examples

    examples = load_examples(recipe.data)
    enc = encode.ChatEncoder(tok)
    limit = recipe.data.max_length
    train, dropped = encode.within(enc.encode(examples.train), limit)
    validation, vdropped = encode.within(enc.encode(examples.validation), limit)
    if not train:
        raise RecipeError(f"{recipe.path}: every training example is longer than data.max_length = {limit} tokens")
    stats: dict[str, Any] = {
        "sources": [vars(c) for c in examples.counts],
        "train_examples": len(train),
        "train_examples_by_task": _by_task(train),
        "validation_examples": len(validation),
        "dropped_too_long": dropped,
        "dropped_too_long_validation": vdropped,
        "train_tokens": sum(len(e) for e in train),
        "train_answer_tokens": sum(sum(1 for x in e.labels if x != encode.IGNORE) for e in train),
        "max_length": limit,
    }
    if recipe.data.packing:
        rows = encode.packed_rows(train, limit)
        vrows = encode.packed_rows(validation, limit) if validation else None
        collator: Any = encode.packed_collator(recipe, tok.pad_token_id)
        stats["packed_rows"] = len(rows)
        stats["packing_fill"] = round(stats["train_tokens"] / (len(rows) * limit), 4)
    else:
        rows = encode.plain_rows(train)
        vrows = encode.plain_rows(validation) if validation else None
        collator = encode.padded_collator(tok)
    return Prepared(rows, vrows, collator, stats, enc.turn_end_ids())


def _by_task(encoded: Sequence[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in encoded:
        out[e.task] = out.get(e.task, 0) + 1
    return out


def last_checkpoint(out: Path) -> str | None:
    from transformers.trainer_utils import get_last_checkpoint

    folder = out / "checkpoints"
    return get_last_checkpoint(str(folder)) if folder.is_dir() else None


def train(recipe: Recipe, resume: bool = False, callbacks: Sequence[Any] = (), write: bool = True) -> dict[str, Any]:
    """Train as the recipe says; returns the metrics (also in output.dir/metrics.json).
    `callbacks` are extra TrainerCallbacks (tests stop a run half way with one)."""
    import transformers
    from transformers import Trainer

    from .arguments import training_arguments
    from .loss import loss_function
    from .model import count_parameters, load_model, load_tokenizer
    from .output import read_eval_results, write_outputs

    transformers.utils.logging.set_verbosity_warning()
    if not sys.stderr.isatty():
        transformers.utils.logging.disable_progress_bar()
    out = Path(recipe.output.dir)
    checkpoint = last_checkpoint(out)
    if checkpoint and not resume:
        raise RecipeError(f"{out}: holds checkpoints of an earlier run ({Path(checkpoint).name}); "
                          "pass --resume to continue it, or choose another output.dir")
    if resume and not checkpoint:
        raise RecipeError(f"{out}: --resume, but there is no checkpoint under {out / 'checkpoints'}")
    read_eval_results(recipe.output.eval_results)  # a bad path fails now, not after training
    tok = load_tokenizer(recipe)
    prepared = prepare(recipe, tok)
    # arguments before the model: under DeepSpeed ZeRO-3 they make from_pretrained load sharded
    args = training_arguments(recipe, out, prepared.validation is not None)
    model = load_model(recipe)
    trainable, total = count_parameters(model)
    prepared.stats.update(trainable_parameters=trainable, parameters=total)
    before = os.environ.get("TENSORBOARD_LOGGING_DIR")
    os.environ["TENSORBOARD_LOGGING_DIR"] = str(out / "tensorboard")  # read by the Trainer's TensorBoard callback
    try:
        trainer = Trainer(model=model, args=args, train_dataset=prepared.train, eval_dataset=prepared.validation,
                          data_collator=prepared.collator, processing_class=tok, callbacks=list(callbacks),
                          compute_loss_func=loss_function(recipe))
        result = trainer.train(resume_from_checkpoint=checkpoint if resume else None)
    finally:
        if before is None:
            os.environ.pop("TENSORBOARD_LOGGING_DIR", None)
        else:
            os.environ["TENSORBOARD_LOGGING_DIR"] = before
    metrics: dict[str, Any] = {"train": dict(result.metrics), "global_step": trainer.state.global_step}
    stopped_early = trainer.state.global_step < trainer.state.max_steps
    if prepared.validation is not None and not stopped_early:
        metrics["eval"] = dict(trainer.evaluate())
    metrics["data"] = prepared.stats
    metrics["bf16"] = bool(trainer.args.bf16)  # the output dtype follows it (cass-train output reads it back)
    metrics["log_history"] = trainer.state.log_history
    if write and not stopped_early:
        trainer.save_model(str(out / "final"))
        if trainer.is_world_process_zero():
            write_outputs(recipe, out, metrics, prepared.turn_end_ids, trainer.args.bf16)
    elif trainer.is_world_process_zero():
        out.mkdir(parents=True, exist_ok=True)
        (out / "metrics.json").write_text(json.dumps(_plain(metrics), indent=2))
    return metrics


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("recipe_file", metavar="RECIPE.toml", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--resume", is_flag=True, help="continue from the last checkpoint in output.dir/checkpoints")
@click.pass_context
def command(ctx: click.Context, recipe_file: Path, resume: bool) -> None:
    """Fine-tune a translator. Extra --section.key VALUE pairs override the recipe
    (e.g. --train.learning_rate 1e-4 --output.dir runs/x). For several GPUs or nodes,
    start it under `accelerate launch --config_file cass_train/configs/<ddp|fsdp|zero3>.yaml
    -m cass_train.cli sft ...` or torchrun."""
    from . import recipe as recipe_mod

    try:
        recipe = recipe_mod.load(recipe_file, ctx.args)
        metrics = train(recipe, resume=resume)
    except RecipeError as e:
        raise click.ClickException(str(e)) from None
    if _is_main():
        data = metrics["data"]
        click.echo(
            f"trained {metrics['global_step']} steps on {data['train_examples']} examples "
            f"({sum(data['dropped_too_long'].values())} over {data['max_length']} tokens dropped); "
            f"model folder: {Path(recipe.output.dir) / 'model'}", err=True)


def _is_main() -> bool:
    return os.environ.get("RANK", "0") == "0"
