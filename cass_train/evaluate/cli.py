"""`cass-train eval`: score a translator on a suite by compiling (and, with an NVIDIA GPU, running).

    cass-train eval --translator rules
    cass-train eval --translator hipify-perl --hipify-perl /path/hipify-perl --jobs 8
    cass-train eval --translator model:ahmedheakl/cass-src-1.5b --out results/cass-1.5b
    cass-train eval --translator outputs:answers.jsonl --suite path/to/HeCBench/src
    cass-train eval --translator rules --task assembly --sm 80,89,90

Also `python3 -m cass_train.evaluate.cli ...`. Tables go to stdout (markdown); files to --out.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click


def _say(text: str) -> None:
    print(f"cass-train eval: {text}", file=sys.stderr)


@click.command(name="eval")
@click.option("--translator", "translator", required=True,
              help="rules | model:ID_OR_PATH | endpoint:URL | hipify-perl | outputs:FILE.jsonl")
@click.option("--suite", default="cass-bench", show_default=True, help="'cass-bench' (built in), a folder of annotated "
              ".cu programs, or a HeCBench-like tree (folders with a Makefile 'run' target)")
@click.option("--task", type=click.Choice(["source", "assembly"]), default="source", show_default=True)
@click.option("--programs", default="", help="comma list of program names or domains (default: all)")
@click.option("--jobs", "-j", type=int, default=0, help="parallel programs (default: CPU count)")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="folder for table.md/csv, summary.json, "
              "results.jsonl, failures.md, chart.png (default: eval-<translator>-<task>)")
@click.option("--cache", type=click.Path(path_type=Path), default=None,
              help="results cache (default: the cass-cc cache folder's eval/)")
@click.option("--fresh", is_flag=True, help="recompute every record, ignoring cached ones")
@click.option("--run/--no-run", "run", default=None, help="run on NVIDIA (default: when a GPU is present)")
@click.option("--arch", default="sm_80", show_default=True, help="NVIDIA arch of both builds for the runs")
@click.option("--sm", "sms", default="80", show_default=True, help="assembly task: comma list of SMs for the cubins")
@click.option("--repeat", type=int, default=3, show_default=True, help="timed runs of each side per program")
@click.option("--hipify-perl", "hipify_perl", default="", envvar="CASS_HIPIFY_PERL", help="the hipify-perl script")
@click.option("--model-max-tokens", type=int, default=4096, show_default=True)
@click.option("--model-name", default="", help="endpoint: the served model's name")
@click.option("--model-batch-size", type=int, default=16, show_default=True)
def command(translator: str, suite: str, task: str, programs: str, jobs: int, out: Path | None, cache: Path | None,
            fresh: bool, run: bool | None, arch: str, sms: str, repeat: int, hipify_perl: str, model_max_tokens: int,
            model_name: str, model_batch_size: int) -> None:
    """Score a translator: translate, compile for gfx1100, run on NVIDIA, per-domain tables."""
    from cass_train.suite import SuiteError, load

    from .engine import Settings, evaluate
    from .report import markdown, write_all
    from .translators import EvalError, Options

    try:
        chosen = load(suite).select(programs or None)
        sm_list = tuple(int(s.strip().removeprefix("sm_")) for s in sms.split(",") if s.strip())
    except (SuiteError, ValueError) as e:
        raise click.ClickException(str(e)) from None
    if cache is None:
        from cass_cc.config import ConfigError
        from cass_cc.config import load as load_config

        try:
            cache = load_config().cache_path(os.environ) / "eval"
        except ConfigError as e:
            raise click.ClickException(str(e)) from None
    options = Options(hipify_perl=hipify_perl, model_max_tokens=model_max_tokens, model_name=model_name,
                      model_batch_size=model_batch_size)
    settings = Settings(translator=translator, suite=chosen, task=task, jobs=jobs or os.cpu_count() or 1, cache=cache,
                        fresh=fresh, run=run, arch=arch, sms=sm_list, repeat=repeat, options=options, progress=_say)
    try:
        records, identity, folder = evaluate(settings)
    except EvalError as e:
        raise click.ClickException(str(e)) from None
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in translator)[:60]
    out = out or Path(f"eval-{safe}-{task}")
    meta = {"translator": translator, "identity": identity, "suite": chosen.name, "suite_version": chosen.version,
            "programs": len(chosen.programs), "cache": str(folder) if folder else None}
    rows = write_all(records, task, out, meta)
    click.echo(markdown(rows, task), nl=False)
    _say(f"wrote {out}/ (table.md, table.csv, summary.json, results.jsonl, failures.md, chart.png)")


if __name__ == "__main__":
    command()
