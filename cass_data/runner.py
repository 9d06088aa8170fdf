"""A recipe's stages in order (`cass-data run`)."""
from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from cass_cc.util import atomic_write_text

from .pipeline import Pipeline, run_dedup, run_export, run_split
from .recipe import Recipe


def run_recipe(r: Recipe, progress: bool | None = None) -> Pipeline:
    p = Pipeline(r.work, r.settings, r.workers or os.cpu_count() or 1, r.ray, progress)
    r.work.mkdir(parents=True, exist_ok=True)
    atomic_write_text(r.work / "settings.json", json.dumps(r.settings.to_json(), indent=1, sort_keys=True) + "\n")
    times: dict[str, float] = {}

    def timed(name: str, fn: Any) -> None:
        start = time.monotonic()
        fn()
        times[name] = round(time.monotonic() - start, 3)
        print(f"cass-data: {name} done in {times[name]:.1f} s", file=sys.stderr)

    for stage in r.stages:
        if stage == "collect":
            timed(stage, lambda: p.collect(r.sources, r.licence, r.include))
        elif stage in ("translate", "build", "extract", "verify"):
            timed(stage, getattr(p, stage))
        elif stage == "dedup":
            timed(stage, lambda: run_dedup(p, r.dedup))
        elif stage == "split":
            timed(stage, lambda: run_split(p, r.split))
        elif stage == "export":
            from .export import DEFAULT_TOKENIZER, push_to_hub

            timed(stage, lambda: run_export(p, r.output, r.tokenizer or DEFAULT_TOKENIZER, r.shard_rows, r.name))
            if r.push_to_hub:
                print(push_to_hub(r.output, r.push_to_hub), file=sys.stderr)
    p.update_report(stage_seconds=times)
    return p
