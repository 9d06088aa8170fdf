"""The whole suite on this (CPU) machine: gfx1100 compile accuracy for the rules translator and
hipify-perl, and the assembly task (sm_80/89/90 cubins -> lifter -> llvm-mc, emulator check on
the kernels with launch lines), with wall and CPU time of each run.

    python3 bench/eval_suite.py --out bench/results/eval [--hipify-perl /tmp/hipify-perl] [--jobs 2]

Writes <out>/<run>/ (table.md, table.csv, summary.json, results.jsonl, failures.md, chart.png)
and <out>/timing.json. The results cache is <out>/../eval-cache unless --cache is given.
"""
from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402


def _cpu() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


@click.command(context_settings=CONTEXT)
@click.option("--out", type=click.Path(path_type=Path), default=ROOT / "bench" / "results" / "eval")
@click.option("--cache", type=click.Path(path_type=Path), default=None)
@click.option("--hipify-perl", default="")
@click.option("--jobs", type=int, default=2)
@click.option("--sms", default="80,89,90")
@click.option("--only", default="", help="comma list of runs: rules, hipify, assembly")
def command(**kwargs: Any) -> int:
    from cass_train.evaluate.engine import Settings, evaluate
    from cass_train.evaluate.report import markdown, write_all
    from cass_train.evaluate.translators import Options
    from cass_train.suite import load

    a = SimpleNamespace(**kwargs)
    suite = load()
    cache = a.cache or Path("/tmp") / "cass-eval-bench-cache"
    runs = [("rules", "rules", "source", {}), ("assembly", "rules", "assembly", {})]
    if a.hipify_perl:
        runs.insert(1, ("hipify-perl", "hipify-perl", "source", {"hipify_perl": a.hipify_perl}))
    only = {s for s in a.only.split(",") if s}
    timing_path = a.out / "timing.json"
    timing = json.loads(timing_path.read_text()) if timing_path.exists() else {}
    for name, translator, task, kw in runs:
        if only and name not in only and name.split("-")[0] not in only:
            continue
        wall0, cpu0 = time.monotonic(), _cpu()
        records, identity, _ = evaluate(Settings(translator=translator, suite=suite, task=task, jobs=a.jobs, cache=cache, run=False,
                                                 sms=tuple(int(s) for s in a.sms.split(",")), options=Options(**kw),
                                                 progress=lambda s: print(s, file=sys.stderr)))
        rows = write_all(records, task, a.out / name, {"translator": translator, "identity": identity, "suite": suite.name,
                                                        "suite_version": suite.version})
        timing[name] = {"wall_s": round(time.monotonic() - wall0, 1), "cpu_s": round(_cpu() - cpu0, 1), "jobs": a.jobs,
                        "programs": len(suite.programs)}
        print(f"## {name}\n\n{markdown(rows, task)}")
        a.out.mkdir(parents=True, exist_ok=True)
        timing_path.write_text(json.dumps(timing, indent=1) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/eval_suite.py")


if __name__ == "__main__":
    sys.exit(main())
