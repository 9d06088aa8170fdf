"""The whole suite on this (CPU) machine: gfx1100 compile accuracy for the rules translator and
hipify-perl, and the assembly task (sm_80/89/90 cubins -> lifter -> llvm-mc, emulator check on
the kernels with launch lines), with wall and CPU time of each run.

    python3 bench/eval_suite.py --out bench/results/eval [--hipify-perl /tmp/hipify-perl] [--jobs 2]

Writes <out>/<run>/ (table.md, table.csv, summary.json, results.jsonl, failures.md, chart.png)
and <out>/timing.json. The results cache is <out>/../eval-cache unless --cache is given.
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _cpu() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def main() -> int:
    from cass_train.evaluate.engine import Settings, evaluate
    from cass_train.evaluate.report import markdown, write_all
    from cass_train.evaluate.translators import Options
    from cass_train.suite import load

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "eval")
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--hipify-perl", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sms", default="80,89,90")
    ap.add_argument("--only", default="", help="comma list of runs: rules, hipify, assembly")
    a = ap.parse_args()
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


if __name__ == "__main__":
    sys.exit(main())
