"""The Trainer's arguments from a recipe (shared by sft and bench; no click here, so the
GPU benchmark script imports it with torch and transformers alone)."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from .recipe import LIGER_KERNELS, Recipe, RecipeError


def training_arguments(recipe: Recipe, out: Path, has_validation: bool, **extra: Any) -> Any:
    from transformers import TrainingArguments

    from .model import compile_mode, gpu_available, liger, use_bf16

    t = recipe.train
    kwargs: dict[str, Any] = dict(
        output_dir=str(out / "checkpoints"),
        num_train_epochs=t.epochs,
        max_steps=t.max_steps,
        per_device_train_batch_size=t.batch_size,
        per_device_eval_batch_size=t.batch_size,
        gradient_accumulation_steps=t.grad_accum,
        learning_rate=t.learning_rate,
        lr_scheduler_type=t.scheduler,
        warmup_steps=t.warmup_ratio,  # below 1: a fraction of the steps
        weight_decay=t.weight_decay,
        optim=t.optimizer,
        max_grad_norm=t.max_grad_norm,
        bf16=use_bf16(recipe),
        seed=t.seed,
        data_seed=t.seed,
        logging_steps=t.logging_steps,
        eval_strategy="steps" if has_validation else "no",
        eval_steps=t.eval_steps,
        prediction_loss_only=True,
        save_strategy="steps",
        save_steps=t.save_steps,
        save_total_limit=t.save_total_limit,
        report_to=["tensorboard"],
        remove_unused_columns=False,
        include_num_input_tokens_seen="non_padding" if t.count_tokens else "no",
        use_liger_kernel=liger(recipe),
        ddp_find_unused_parameters=False,
        disable_tqdm=not sys.stderr.isatty(),
        dataloader_pin_memory=gpu_available(),
    )
    kwargs.update(checkpointing_arguments(t.gradient_checkpointing))
    if recipe.model.liger_kernels:
        kwargs["liger_kernel_config"] = {k: k in recipe.model.liger_kernels for k in LIGER_KERNELS}
    kwargs.update(compile_arguments(compile_mode(recipe)))
    if not gpu_available() and int(os.environ.get("WORLD_SIZE", "1")) > 1:
        kwargs.update(use_cpu=True, ddp_backend="gloo")  # torchrun on CPUs: the Trainer stays single-process otherwise
    kwargs.update(extra)
    kwargs.update(t.args)  # [train.args]: any other TrainingArguments field, last word
    try:
        return TrainingArguments(**kwargs)
    except (TypeError, ValueError) as e:
        raise RecipeError(f"{recipe.path}: invalid training arguments: {' '.join(str(e).split())[:300]}") from None


def checkpointing_arguments(on: bool) -> dict[str, Any]:
    """Activation (gradient) checkpointing under the name this transformers knows
    (5.x renamed gradient_checkpointing to activation_checkpointing)."""
    import dataclasses

    from transformers import TrainingArguments

    names = {f.name for f in dataclasses.fields(TrainingArguments)}
    key = "activation_checkpointing" if "activation_checkpointing" in names else "gradient_checkpointing"
    return {key: on, f"{key}_kwargs": {"use_reentrant": False} if on else None}


def compile_arguments(mode: str) -> dict[str, Any]:
    """torch.compile through the Trainer (accelerate compiles the model as it prepares it).
    `regional` compiles each decoder layer on its own (accelerate's regional compilation,
    switched on by its environment variable, read when the Trainer makes its accelerator):
    the layers share one compiled graph, so it compiles in seconds where the whole model
    takes minutes; the loss and the mask construction stay eager."""
    if mode == "off":
        return {}
    os.environ["ACCELERATE_DYNAMO_USE_REGIONAL_COMPILATION"] = "True" if mode == "regional" else "False"
    return {"torch_compile": True}
