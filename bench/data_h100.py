"""cass-data on the H100 machine (16 cores, nvcc 13, one GPU; no clang/ROCm there).

Two measurements, each written under --out (default $OUT):
 1. `cass-data synth --n 500 --seed 1`: every program built with nvcc for sm_90 and run; the
    share that compiles and the share that prints PASS.
 2. A pipeline run with execution verification: HeCBench dev programs (--hecbench, the
    <name>-cuda folders; names from --names) plus synthesized programs (synth:500:1, then more
    seeds in chunks while the time budget lasts), sm_90 SASS, lifter pairs, every program pair
    built for NVIDIA and run through cass_cc/verify's runner. No clang there: `skip_amd`, so
    the rows are cuda-hip pairs that ran and agreed ("executed") and lifter pairs ("compiled").
    Reports pairs per minute, the share of pairs verified by execution, rejection reasons.

    # on the H100 (the lead carries /tmp/hecfull with the tree):
    python3 bench/data_h100.py --hecbench /tmp/hecfull/src --names /work/shared/eval/hecbench_dev.txt \
        --budget 420 --out $OUT

The gfx1100 side can be pre-built on a machine with clang by running the same recipe there first
(`--prepare-only` runs collect/translate/build/extract without a GPU); the work folder's store and
toolchain.json then travel with the tree (--work), and the H100 run finds the gfx1100 results
by their keys instead of skipping that side.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

CASS_DATA = [sys.executable, str(ROOT / "bin" / "cass-data")]


def synth_pass_rate(out: Path, n: int, seed: str, jobs: int, arch: str) -> dict:
    from cass_cc.toolchain import Toolchain

    nvcc = Toolchain(os.environ).nvcc.path
    folder = out / "synth"
    subprocess.run([*CASS_DATA, "synth", "--n", str(n), "--seed", seed, "-o", str(folder)], check=True)
    files = sorted(folder.glob("*.cu"))

    def one(cu: Path) -> dict:
        exe = cu.with_suffix("")
        b = subprocess.run([nvcc, f"-arch={arch}", "-O2", str(cu), "-o", str(exe)], capture_output=True, text=True)
        if b.returncode != 0:
            return {"file": cu.name, "compiled": False, "log": b.stderr[-600:]}
        try:
            r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
            text, code = r.stdout + r.stderr, r.returncode
        except subprocess.TimeoutExpired:
            text, code = "timeout", None
        verdict = "PASS" if "PASS" in text and code == 0 else ("SKIP" if "SKIP" in text else "FAIL")
        return {"file": cu.name, "compiled": True, "verdict": verdict, "exit": code, "tail": text[-300:]}

    start = time.monotonic()
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(one, files))
    compiled = sum(r["compiled"] for r in results)
    passed = sum(r.get("verdict") == "PASS" for r in results)
    by_domain: dict[str, Counter] = {}
    for r in results:
        by_domain.setdefault(r["file"].rsplit("-", 1)[0], Counter())[r.get("verdict", "not compiled")] += 1
    (out / "synth_results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in results))
    return {"programs": len(results), "compiled": compiled, "compile_rate": round(compiled / max(len(results), 1), 4),
            "passed": passed, "pass_rate": round(passed / max(len(results), 1), 4),
            "by_domain": {d: dict(c) for d, c in sorted(by_domain.items())}, "seconds": round(time.monotonic() - start, 1),
            "not_passing": [r for r in results if r.get("verdict") != "PASS"][:20]}


def recipe(path: Path, work: Path, sources: list[str], jobs: int, arch: str, skip_amd: bool, stages: list[str],
           sms: list[str]) -> Path:
    path.write_text(f'work = "{work}"\nsources = {json.dumps(sources)}\nworkers = {jobs}\nstages = {json.dumps(stages)}\n'
                    f'[settings]\nsms = {json.dumps(sms)}\nrun_arch = "{arch}"\nskip_amd = {str(skip_amd).lower()}\n'
                    'execute = "auto"\nrun_timeout = 15.0\nbuild_timeout = 180.0\n')
    return path


def pipeline(out: Path, work_root: Path, hecbench: Path | None, names: Path | None, jobs: int, arch: str, budget: float,
             chunk: int, skip_amd: bool, prepare_only: bool, sms: list[str], plan: list[str]) -> dict:
    stages = ["collect", "translate", "build", "extract"] + ([] if prepare_only else ["verify"])
    hec = [f"hecbench:{hecbench}" + (f":{names}" if names else "")] if hecbench is not None and hecbench.is_dir() else []
    if plan:  # fixed chunks: "hecbench" or "synth:N:SEED", in order
        chunks = [(c.replace(":", "-"), hec if c == "hecbench" else [c]) for c in plan if c != "hecbench" or hec]
    else:  # synth:500:1, HeCBench, then more seeds while the budget lasts
        chunks = [("synth-1", ["synth:500:1"])] + ([("hecbench", hec)] if hec else [])
        chunks += [(f"synth-{seed}", [f"synth:{chunk}:{seed}"]) for seed in range(2, 12)]
    start = time.monotonic()
    done = []
    per_chunk_s: list[float] = []
    for name, sources in chunks:
        elapsed = time.monotonic() - start
        guess = max(per_chunk_s[-1:] or [0.0])
        if done and not plan and elapsed + guess > budget:
            break
        work = work_root / name
        # the gfx1100 side only where a machine with clang prepared this chunk (--prepare-only there)
        prepared = (work / "toolchain.json").is_file() and '"clang"' in (work / "toolchain.json").read_text()
        r = recipe(out / f"{name}.toml", work, sources, jobs, arch, skip_amd or (not prepare_only and not prepared), stages, sms)
        t0 = time.monotonic()
        proc = subprocess.run([*CASS_DATA, "run", str(r), "--no-progress"], capture_output=True, text=True)
        per_chunk_s.append(time.monotonic() - t0)
        report = json.loads((work / "report.json").read_text()) if (work / "report.json").is_file() else {}
        done.append({"chunk": name, "seconds": round(per_chunk_s[-1], 1), "exit": proc.returncode,
                     "stderr_tail": proc.stderr[-800:], "report": report})
    wall = time.monotonic() - start
    rows = sum(d["report"].get("rows", 0) for d in done)
    levels: Counter = Counter()
    rejections: Counter = Counter()
    misses: Counter = Counter()
    units = 0
    for d in done:
        levels.update(d["report"].get("levels", {}))
        rejections.update(d["report"].get("rejections", {}))
        misses.update(d["report"].get("kernel_misses", {}))
        units += d["report"].get("units", 0)
    executed = sum(v for k, v in levels.items() if k.endswith(": executed"))
    source_pairs = sum(v for k, v in levels.items() if k.startswith("cuda-hip"))
    return {"units": units, "pairs": rows, "wall_s": round(wall, 1), "pairs_per_minute": round(rows / wall * 60, 1),
            "executed_pairs": executed, "share_executed": round(executed / max(rows, 1), 4),
            "source_pairs": source_pairs, "levels": dict(levels), "rejections": dict(rejections.most_common()),
            "kernel_misses": dict(misses.most_common(25)), "chunks": [{k: v for k, v in d.items() if k != "report"} for d in done]}


@click.command(context_settings=CONTEXT)
@click.option("--out", type=click.Path(path_type=Path), default=Path(os.environ.get("OUT", "data-h100-out")))
@click.option("--work", type=click.Path(path_type=Path), default=None, help="work folders (default: a temporary folder)")
@click.option("--hecbench", type=click.Path(path_type=Path), default=Path("/tmp/hecfull/src"))
@click.option("--names", type=click.Path(path_type=Path), default=None)
@click.option("--jobs", type=int, default=os.cpu_count() or 16)
@click.option("--arch", default="sm_90")
@click.option("--budget", type=float, default=420.0, help="seconds for the pipeline part")
@click.option("--chunk", type=int, default=200, help="synthesized programs per extra chunk")
@click.option("--skip-synth-check", is_flag=True)
@click.option("--with-amd", is_flag=True, help="keep the gfx1100 side (a machine with clang, or a carried store)")
@click.option("--sms", default="", help="comma list of SASS targets (default: --arch alone)")
@click.option("--plan", default="", help="fixed chunks, e.g. hecbench,synth:300:1 (default: by --budget)")
@click.option("--prepare-only", is_flag=True, help="no verify stage (run here, without a GPU)")
def command(**kwargs: Any) -> None:
    a = SimpleNamespace(**kwargs)
    a.out.mkdir(parents=True, exist_ok=True)
    work = (a.work or Path(tempfile.mkdtemp(prefix="cass-data-h100."))).resolve()  # recipes live elsewhere
    result: dict = {"arch": a.arch, "jobs": a.jobs}
    t = time.monotonic()
    if not a.skip_synth_check and not a.prepare_only:
        result["synth_500_seed_1"] = synth_pass_rate(a.out, 500, "1", a.jobs, a.arch)
        print(json.dumps({k: v for k, v in result["synth_500_seed_1"].items() if k != "not_passing"}), flush=True)
    names = a.names.resolve() if a.names and a.names.is_file() else None  # recipes live in --out
    a.hecbench = a.hecbench.resolve()
    result["pipeline"] = pipeline(a.out, work, a.hecbench, names, a.jobs, a.arch, a.budget, a.chunk,
                                  not a.with_amd, a.prepare_only, a.sms.split(",") if a.sms else [a.arch],
                                  [c for c in a.plan.split(",") if c])
    result["total_s"] = round(time.monotonic() - t, 1)
    (a.out / "data_h100.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result["pipeline"].items() if k != "chunks"}, indent=1))


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/data_h100.py")


if __name__ == "__main__":
    raise SystemExit(main())
