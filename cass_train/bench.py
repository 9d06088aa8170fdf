"""`cass-train bench RECIPE.toml`: tokens/s per GPU and MFU of a recipe on synthetic data
(the measurement itself is in throughput.py)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import click

from .recipe import RecipeError


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("recipe_file", metavar="RECIPE.toml", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--padded", is_flag=True, help="also time the same data without packing, padded per batch, and give the speedup")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), help="write the result here too")
@click.option("--profile", type=click.Path(file_okay=False, path_type=Path),
              help="profile two more steps after the measured ones; summary (profile.txt, profile.json) in this folder")
@click.pass_context
def command(ctx: click.Context, recipe_file: Path, padded: bool, json_out: Path | None, profile: Path | None) -> None:
    """Tokens/s per GPU and MFU of RECIPE's model, sequence length, batch and method on
    synthetic data (random weights: nothing is downloaded but the base's config). Extra
    --section.key VALUE pairs override the recipe; run under torchrun/accelerate for
    several GPUs."""
    from . import recipe as recipe_mod
    from .throughput import run_bench

    try:
        recipe = recipe_mod.load(recipe_file, ctx.args, need_data=False)
        if padded or recipe.bench.padded:
            result = {"packed": run_bench(recipe, profile=profile),
                      "padded": run_bench(recipe, padded=True, check=False)}
            result["speedup"] = result["packed"]["tokens_per_s_per_gpu"] / result["padded"]["tokens_per_s_per_gpu"]
        else:
            result = run_bench(recipe, profile=profile)
    except RecipeError as e:
        raise click.ClickException(str(e)) from None
    if os.environ.get("RANK", "0") != "0":
        return
    text = json.dumps(result, indent=2)
    if json_out:
        from cass_cc.util import atomic_write_text

        atomic_write_text(json_out, text + "\n")
    click.echo(text)
