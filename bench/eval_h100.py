"""`cass-train eval` on the GPU machine: the suite's CUDA originals, and the rules translator,
hipify-perl and a random-weight model scored by compiling and running (HIP on NVIDIA, through
cass_cc/verify), with runtime and peak-memory ratios. One phase a command (each < 10 min):

    python3 bench/eval_h100.py originals --out $OUT       # each program built with nvcc and run (suite check)
    python3 bench/eval_h100.py rules --out $OUT           # cass-cc's rules translator
    python3 bench/eval_h100.py hipify --out $OUT          # hipify-perl: ./hipify-perl or $CASS_HIPIFY_PERL
    python3 bench/eval_h100.py random-model --out $OUT    # a random-weight Qwen2 (tiny, synthetic tokenizer)

The GPU machine has nvcc, torch and transformers but no clang/ROCm, so the gfx1100 column reads
"not compiled" there (bench/eval_suite.py measures it here). Everything goes under --out:
<phase>/table.md, table.csv, summary.json, results.jsonl, failures.md, chart.png, and
<phase>/run.json (wall time, GPU name). Originals: originals/results.jsonl, one line a program.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402


def _gpu_name() -> str:
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True,
                              timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def originals(out: Path, arch: str, jobs: int, programs: str = "") -> None:
    """Every program built with nvcc for `arch` and run 3 times: PASS/FAIL, exit, median wall and kernel ms."""
    from cass_cc.toolchain.found import Found
    from cass_train.evaluate.build import compile_cuda
    from cass_train.evaluate.execute import KERNEL_TIME, measured_run
    from cass_train.suite import load

    suite = load().select(programs or None)
    tools = Found.find(dict(os.environ))
    folder = out / "originals"
    folder.mkdir(parents=True, exist_ok=True)

    bins = Path(tempfile.mkdtemp(prefix="cass-eval-originals-"))  # executables stay out of --out

    def build(p):  # noqa: ANN001
        exe = bins / p.name
        exe.parent.mkdir(parents=True, exist_ok=True)
        return p, compile_cuda(p.path, arch, tools, exe, mode="", flags=("-O2",)), exe

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        built = list(pool.map(build, suite.programs))
    lines = []
    for p, c, exe in built:  # runs one at a time: timings are not shared with other programs
        rec = {"program": p.name, "domain": p.domain, "built": c.ok, "build_error": c.error}
        if c.ok:
            runs = []
            for _ in range(3):
                run_dir = bins / "run" / p.name
                run_dir.mkdir(parents=True, exist_ok=True)
                wall, rss, kms, code = measured_run([str(exe), *p.args], str(run_dir), 120.0)
                text = (run_dir / ".cass-eval.out").read_text(errors="replace")
                runs.append({"wall": round(wall, 4), "peak_rss_mib": round(rss, 1), "kernel_ms": kms, "exit": code,
                             "passed": code == 0 and "PASS" in text and "FAIL" not in text, "stdout": text[-600:]})
            rec["runs"] = runs
            rec["passed"] = all(r["passed"] for r in runs)
            rec["deterministic"] = len({KERNEL_TIME.sub("", r["stdout"]) for r in runs}) <= 1  # same output but timings
        lines.append(rec)
        print(f"{p.name}: {'PASS' if rec.get('passed') else 'FAIL'}", file=sys.stderr)
    (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    passed = sum(bool(r.get("passed")) for r in lines)
    summary = {"programs": len(lines), "built": sum(r["built"] for r in lines), "passed": passed, "arch": arch,
               "gpu": _gpu_name(), "failed": [r["program"] for r in lines if not r.get("passed")]}
    (folder / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary))


def evaluate(phase: str, out: Path, arch: str, jobs: int, translator: str, options_kw: dict, programs: str = "") -> None:
    from cass_train.evaluate.engine import Settings, evaluate as run_eval
    from cass_train.evaluate.report import markdown, write_all
    from cass_train.evaluate.translators import Options
    from cass_train.suite import load

    suite = load().select(programs or None)
    start = time.monotonic()
    settings = Settings(translator=translator, suite=suite, jobs=jobs, cache=out / "cache", run=True, arch=arch, repeat=3,
                        options=Options(**options_kw), progress=lambda s: print(s, file=sys.stderr))
    from cass_train.evaluate.translators import EvalError

    try:
        records, identity, _ = run_eval(settings)
    except EvalError as e:
        print(f"{phase}: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    folder = out / phase
    rows = write_all(records, "source", folder, {"translator": translator, "identity": identity, "suite": suite.name,
                                                 "suite_version": suite.version, "programs": len(suite.programs)})
    (folder / "run.json").write_text(json.dumps({"seconds": round(time.monotonic() - start, 1), "gpu": _gpu_name(),
                                                 "arch": arch, "jobs": jobs}) + "\n")
    print(markdown(rows, "source"))


def random_model(out: Path) -> Path:
    """A random-weight Qwen2 (2 layers, hidden 64) with the synthetic tokenizer: it must score ~0."""
    from cass_cc.model.synthetic import tiny_config, write_model

    folder = out / "random-model"
    if not (folder / "config.json").exists():
        write_model(folder, tiny_config(), seed=0)
    return folder


@click.command(help=__doc__.splitlines()[0], context_settings=CONTEXT)
@click.argument("phase", type=click.Choice(["originals", "rules", "hipify", "random-model"]))
@click.option("--out", type=click.Path(path_type=Path), default=Path(os.environ.get("OUT", "eval-h100")))
@click.option("--arch", default="sm_90")
@click.option("--jobs", type=int, default=8)
@click.option("--programs", default="", help="comma list of programs or domains (default: all)")
def command(**kwargs: Any) -> int:
    a = SimpleNamespace(**kwargs)
    a.out.mkdir(parents=True, exist_ok=True)
    if a.phase == "originals":
        originals(a.out, a.arch, a.jobs, a.programs)
    elif a.phase == "rules":
        evaluate("rules", a.out, a.arch, a.jobs, "rules", {}, a.programs)
    elif a.phase == "hipify":
        script = os.environ.get("CASS_HIPIFY_PERL") or str(ROOT / "hipify-perl")
        if not Path(script).is_file():
            print(f"no hipify-perl script at {script} (set CASS_HIPIFY_PERL)", file=sys.stderr)
            return 2
        evaluate("hipify", a.out, a.arch, a.jobs, "hipify-perl", {"hipify_perl": script}, a.programs)
    else:
        model = random_model(a.out)
        evaluate("random-model", a.out, a.arch, a.jobs, f"model:{model}", {"model_max_tokens": 1024, "model_batch_size": 64},
                 a.programs)
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/eval_h100.py")


if __name__ == "__main__":
    sys.exit(main())
