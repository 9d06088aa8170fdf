"""Answers that end early (cass_cc/model/stops.py) against transformers' generate without stops,
in one run on one machine: the fine-tuned SmolLM2-135M answering the niche's prompts, on the CPU,
as `cass-cc --model` serves a build where no GPU is.

    python3 bench/answer_stops.py [--model runs/smollm2-135m-source/model] [--batch 11]

1. Baseline: each batch through `model.generate` alone, greedy, NICHE_TOKENS new tokens at most,
   the answer cut at its first end token (what cass-cc did before stops).
2. Stops: the same batches through cass-cc's HFBackend.generate, whose rows end when their fence
   closes or they loop.
Reported: seconds, tokens generated, how each answer ended, and whether the answer fences of both
runs agree prompt by prompt (they must: stopping may only end answers that were over or refused).
Writes bench/results/answer_stops.json.
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT  # noqa: E402
from bench.smollm2 import NICHE_TOKENS, niche_prompts  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

RESULT = ROOT / "bench" / "results" / "answer_stops.json"


def _baseline(backend, prompts: list[str], batch: int) -> tuple[list[str], int]:
    """The answers of plain greedy generate(), batched as the backend batches (longest first)."""
    import torch

    from cass_cc.model.hf import _eos_ids

    tok, model = backend.tokenizer, backend.model
    eos = _eos_ids(model, tok)  # the end tokens the backend stops at
    texts = [backend.chat_text(p) for p in prompts]
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    answers, tokens = [""] * len(prompts), 0
    for start in range(0, len(order), batch):
        rows = order[start : start + batch]
        enc = tok([texts[i] for i in rows], return_tensors="pt", padding=True, add_special_tokens=False)
        with torch.inference_mode():
            out = model.generate(**enc, max_new_tokens=NICHE_TOKENS, do_sample=False, temperature=None, top_p=None,
                                 top_k=None, pad_token_id=tok.pad_token_id)
        for row, ids in zip(rows, out[:, enc["input_ids"].shape[1]:].tolist()):
            end = next((n + 1 for n, t in enumerate(ids) if t in eos), len(ids))
            tokens += end
            answers[row] = tok.decode(ids[:end], skip_special_tokens=True)
    return answers, tokens


@click.command(context_settings=CONTEXT)
@click.option("--model", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=ROOT / "runs" / "smollm2-135m-source" / "model", show_default=True)
@click.option("--batch", default=11, show_default=True, help="prompts generated together")
def main(model: Path, batch: int) -> None:
    from cass_cc.model.hf import HFBackend
    from cass_cc.model.prompts import SOURCE
    from cass_cc.model.settings import Generation, ModelSettings
    from cass_cc.model.store import Store

    prompts = sorted(niche_prompts())
    backend = HFBackend(ModelSettings(model=str(model), device="cpu", batch_size=batch), Store(None))
    backend.load()
    start = time.monotonic()
    plain, plain_tokens = _baseline(backend, prompts, batch)
    plain_s = time.monotonic() - start
    start = time.monotonic()
    stopped = backend.generate(prompts, Generation(max_new_tokens=NICHE_TOKENS))
    stopped_s = time.monotonic() - start
    differ = [n for n, (a, b) in enumerate(zip(plain, stopped)) if SOURCE.extract(a) != SOURCE.extract(b)]
    result = {
        "model": os.path.relpath(model, ROOT), "device": "cpu", "prompts": len(prompts), "batch": batch, "max_new_tokens": NICHE_TOKENS,
        "baseline": {"seconds": round(plain_s, 1), "tokens": plain_tokens,
                     "closed_fences": sum(SOURCE.extract(a) is not None for a in plain)},
        "stops": {"seconds": round(stopped_s, 1), "tokens": backend.generated_tokens, "ends": dict(backend.ends),
                  "closed_fences": sum(SOURCE.extract(a) is not None for a in stopped)},
        "answers_that_differ": differ,
    }
    RESULT.write_text(json.dumps(result, indent=1) + "\n")
    click.echo(json.dumps(result, indent=1))
    if differ:
        raise click.ClickException(f"{len(differ)} answers differ between the runs: {differ}")


if __name__ == "__main__":
    sys.exit(run_click(main, None, "bench/answer_stops.py"))
