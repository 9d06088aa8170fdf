"""`cass-data`: the dataset pipeline's command line (click), one subcommand per stage."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from .hostile.cli import hostile  # its families load only when named


@click.group()
def cli() -> None:
    """Build verified CUDA<->HIP and SASS<->RDNA3 datasets."""


@cli.command()
@click.option("--n", "count", type=click.IntRange(min=0), required=True, help="how many programs")
@click.option("--seed", default="0", show_default=True, help="seed; program i is a function of (seed, i) alone")
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="folder for DOMAIN-INDEX.cu and manifest.jsonl")
@click.option("--domains", default="", help="comma-separated subset of the domains (default: all)")
@click.option("--model", default="", help="programs written by this model (Hugging Face id or folder) instead of the generators")
@click.option("--model-endpoint", default="", help="programs written by the model behind this OpenAI-compatible URL")
@click.option("--keep-unrun", is_flag=True, help="with a model and no NVIDIA GPU: keep programs that compile (marked not run)")
def synth(count: int, seed: str, out_dir: Path, domains: str, model: str, model_endpoint: str, keep_unrun: bool) -> None:
    """Write N self-checking CUDA programs (PASS/FAIL against a CPU reference)."""
    from cass_cc.util import atomic_write_text

    from .synth import DOMAINS, generate_many

    chosen = tuple(d.strip() for d in domains.split(",") if d.strip()) or DOMAINS
    unknown = [d for d in chosen if d not in DOMAINS]
    if unknown:
        raise click.BadParameter(f"unknown domain(s) {', '.join(unknown)}; known: {', '.join(DOMAINS)}",
                                 param_hint="--domains")
    if model or model_endpoint:
        _synth_with_model(count, seed, out_dir, chosen, model, model_endpoint, keep_unrun)
        return
    lines = []
    for prog in generate_many(seed, count, chosen):
        name = f"{prog.domain}-{prog.index}.cu"
        atomic_write_text(out_dir / name, prog.source)
        lines.append(json.dumps({"file": name, "domain": prog.domain, "seed": prog.seed, "index": prog.index,
                                 "sha256": sha256_hex_bytes(prog.source)}, sort_keys=True))
    atomic_write_text(out_dir / "manifest.jsonl", "".join(line + "\n" for line in lines))
    click.echo(f"wrote {count} programs to {out_dir}", err=True)


def _synth_with_model(count: int, seed: str, out_dir: Path, domains: tuple[str, ...], model: str, endpoint: str,
                      keep_unrun: bool) -> None:
    from cass_cc import config as cfg
    from cass_cc.model import ModelError
    from cass_cc.model.settings import ModelSettings
    from cass_cc.model.store import Store
    from cass_cc.toolchain import Toolchain, ToolchainError
    from cass_cc.util import atomic_write_text

    from .synth.model import gpu_here, write_with_model

    values = {k: v for k, v in (("model", model), ("model-endpoint", endpoint)) if v}
    try:
        conf = cfg.load(values, os.environ)
        nvcc = Toolchain(os.environ).nvcc.path
    except (cfg.ConfigError, ToolchainError) as e:
        raise click.ClickException(str(e)) from None
    settings = ModelSettings.from_config(conf)
    gpu = gpu_here()
    try:
        written = write_with_model(settings, Store(None if conf.no_cache else conf.cache_path(os.environ)), seed, count,
                                   domains, nvcc, gpu, keep_unrun)
    except ModelError as e:
        raise click.ClickException(f"model {settings.label}: {e}") from None
    lines, rejected = [], []
    for w in written:
        record = {"domain": w.domain, "seed": seed, "index": w.index, "origin": f"model:{settings.label}", "check": w.status}
        if w.source is None:
            rejected.append(json.dumps(record, sort_keys=True))
            continue
        name = f"model-{w.domain}-{w.index}.cu"
        atomic_write_text(out_dir / name, w.source)
        lines.append(json.dumps({**record, "file": name, "sha256": sha256_hex_bytes(w.source)}, sort_keys=True))
    atomic_write_text(out_dir / "manifest.jsonl", "".join(line + "\n" for line in lines))
    atomic_write_text(out_dir / "rejected.jsonl", "".join(line + "\n" for line in rejected))
    click.echo(f"kept {len(lines)} of {count} model-written programs in {out_dir} "
               f"({'run on the GPU' if gpu else 'no NVIDIA GPU here'}); reasons for the rest in rejected.jsonl", err=True)


def sha256_hex_bytes(text: str) -> str:
    """sha256 of the file's bytes (cass_cc.util.sha256_hex appends separators, so it is not a file hash)."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- the pipeline's stages

def _settings(work: Path, sms: tuple[str, ...], translator: str | None, lift: bool | None, execute: str | None,
              skip_amd: bool | None, run_timeout: float | None, prove: bool | None = None) -> Any:
    """Settings given on the command line, else those the work folder's last run used, else defaults."""
    import dataclasses

    from .context import Settings

    base = Settings()
    saved = work / "settings.json"
    if saved.is_file():
        try:
            data = json.loads(saved.read_text())
            base = Settings(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()
                               if k in Settings.__dataclass_fields__})
        except (OSError, ValueError, TypeError):
            pass
    given = {"sms": tuple(sms) or None, "translator": translator, "lift": lift, "execute": execute,
             "skip_amd": skip_amd, "run_timeout": run_timeout, "prove": prove}
    settings = dataclasses.replace(base, **{k: v for k, v in given.items() if v is not None})
    from cass_cc.util import atomic_write_text

    atomic_write_text(saved, json.dumps(settings.to_json(), indent=1, sort_keys=True) + "\n")
    return settings


def pipeline_options(f: Any) -> Any:
    options = [
        click.option("-w", "--work", type=click.Path(file_okay=False, path_type=Path), default=Path("work"),
                     show_default=True, help="work folder: store, manifests, report"),
        click.option("-j", "--workers", type=click.IntRange(min=1), default=None, help="processes (default: CPU count)"),
        click.option("--ray", default=None, metavar="ADDRESS", help="run items on Ray: an address, or `local`"),
        click.option("--progress/--no-progress", default=None, help="progress bar (default: when stderr is a terminal)"),
        click.option("--sm", "sms", multiple=True, help="SASS targets, e.g. --sm sm_80 --sm sm_90"),
        click.option("--translator", default=None, help="translator chain: rules, model, model,rules"),
        click.option("--lift/--no-lift", default=None, help="lifter pairs (SASS -> RDNA3 through the lifter)"),
        click.option("--prove/--no-prove", default=None,
                     help="run lifted kernels beside clang's on the gfx1100 emulator (level proven)"),
        click.option("--execute", type=click.Choice(["auto", "never", "always"]), default=None,
                     help="run both programs on an NVIDIA GPU (auto: when one is here)"),
        click.option("--skip-amd/--with-amd", "skip_amd", default=None, help="no gfx1100 side (a machine without clang)"),
        click.option("--run-timeout", type=float, default=None, help="seconds per program run"),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _pipeline(work: Path, workers: int | None, ray: str | None, progress: bool | None, **settings: Any) -> Any:
    import os

    from .pipeline import Pipeline

    return Pipeline(work, _settings(work, **settings), workers or os.cpu_count() or 1, ray, progress)


def _stage(fn: Any) -> None:
    from .collect import CollectError
    from .export import ExportError
    from .pipeline import PipelineError

    try:
        fn()
    except (PipelineError, CollectError, ExportError) as e:
        raise click.ClickException(str(e)) from None


def _summary(p: Any) -> None:
    report = p.report()
    stages = ", ".join(f"{k} {v.get('computed', 0)} computed/{v.get('cached', 0)} cached"
                       for k, v in sorted(report.get("stages", {}).items()))
    click.echo(f"{report.get('units', 0)} units -> {report.get('rows', 0)} pairs; {stages}", err=True)
    for reason, n in sorted(report.get("rejections", {}).items(), key=lambda kv: -kv[1]):
        click.echo(f"  rejected {n:5d}  {reason}", err=True)


@cli.command()
@click.argument("sources", nargs=-1, required=True)
@click.option("--licence", default=None, help="licence for sources that do not name one")
@click.option("-I", "--include", "include", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="a folder searched for headers the folder and git sources include, as nvcc's -I (repeatable)")
@pipeline_options
def collect(sources: tuple[str, ...], licence: str | None, include: tuple[Path, ...], work: Path, **kw: Any) -> None:
    """Units from folders, git+URL, hf:DATASET, synth:N:SEED[:DOMAINS], hecbench:SRC[:NAMES]."""
    p = _pipeline(work, **kw)
    _stage(lambda: click.echo(f"{len(p.collect(list(sources), licence, include))} units in {work / 'units.jsonl'}", err=True))


def _per_unit(name: str, method: str) -> Any:
    @pipeline_options
    def command(work: Path, **kw: Any) -> None:
        p = _pipeline(work, **kw)
        _stage(getattr(p, method))
        if method == "verify":
            _summary(p)
        else:
            counts = p.counts.get(name, {})
            click.echo(f"{name}: {counts.get('computed', 0)} computed, {counts.get('cached', 0)} from the store", err=True)

    command.__name__ = method
    command.__doc__ = {"translate": "CUDA -> HIP through cass-cc's translator chain.",
                       "build": "nvcc for each --sm (SASS); clang for gfx1100 (RDNA3).",
                       "extract": "SASS and RDNA3 per kernel; lifter pairs.",
                       "verify": "Prove lifted kernels on the gfx1100 emulator; run both programs on an NVIDIA GPU; "
                                 "label every pair with its level."}[method]
    return cli.command(name=method)(command)


for _name, _method in (("translate", "translate"), ("build-nvidia", "build"), ("extract", "extract"), ("verify", "verify")):
    _per_unit(_name, _method)


def _dedup_settings(threshold: float | None, eval_paths: tuple[str, ...], eval_names: Path | None) -> Any:
    from .dedup import DedupSettings

    names: tuple[str, ...] = ()
    if eval_names is not None:
        try:
            names = tuple(eval_names.read_text().split())
        except OSError as e:
            raise click.ClickException(f"{eval_names}: {e.strerror or e}") from None
    return DedupSettings(threshold=threshold or DedupSettings.threshold, eval_globs=eval_paths, eval_names=names)


@cli.command()
@click.option("-w", "--work", type=click.Path(file_okay=False, path_type=Path), default=Path("work"), show_default=True)
@click.option("--threshold", type=click.FloatRange(0, 1), default=None, help="MinHash Jaccard for near duplicates (0.85)")
@click.option("--eval", "eval_paths", multiple=True, help="evaluation sources to decontaminate against (folders/globs)")
@click.option("--eval-names", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="file of HeCBench dev program names")
def dedup(work: Path, threshold: float | None, eval_paths: tuple[str, ...], eval_names: Path | None) -> None:
    """Exact and near duplicates; decontamination against evaluation suites."""
    from .pipeline import Pipeline, run_dedup

    p = Pipeline(work)
    _stage(lambda: run_dedup(p, _dedup_settings(threshold, eval_paths, eval_names)))
    d = p.report().get("dedup", {})
    click.echo(f"kept {d.get('units_kept')} of {d.get('units_in')} units, {d.get('rows_kept')} rows; "
               f"removed: {d.get('removed')} (list: {work / 'removed.jsonl'})", err=True)


@cli.command()
@click.option("-w", "--work", type=click.Path(file_okay=False, path_type=Path), default=Path("work"), show_default=True)
@click.option("--validation", type=click.FloatRange(0, 1), default=0.05, show_default=True)
@click.option("--test", type=click.FloatRange(0, 1), default=0.05, show_default=True)
@click.option("--seed", default="cass-data", show_default=True)
def split(work: Path, validation: float, test: float, seed: str) -> None:
    """train/validation/test grouped by origin (and near-duplicate families)."""
    from .pipeline import Pipeline, run_split
    from .split import SplitSettings

    p = Pipeline(work)
    _stage(lambda: run_split(p, SplitSettings(validation=validation, test=test, seed=seed)))
    click.echo(f"split: {p.report().get('split')}", err=True)


@cli.command("export")
@click.option("-w", "--work", type=click.Path(file_okay=False, path_type=Path), default=Path("work"), show_default=True)
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True)
@click.option("--tokenizer", default=None, help="tokenizer.json, a model folder or a cached Hub id (default: Qwen2.5-Coder)")
@click.option("--shard-rows", type=click.IntRange(min=1), default=5000, show_default=True)
@click.option("--name", default="cass-data pairs", show_default=True)
@click.option("--push-to-hub", "hub", default=None, metavar="REPO", help="upload the export as a dataset repository")
def export_cmd(work: Path, output: Path, tokenizer: str | None, shard_rows: int, name: str, hub: str | None) -> None:
    """Parquet shards, a dataset card and a token-length histogram."""
    from .export import DEFAULT_TOKENIZER, ExportError, push_to_hub
    from .pipeline import Pipeline, run_export

    p = Pipeline(work)
    try:
        info = run_export(p, output, tokenizer or DEFAULT_TOKENIZER, shard_rows, name)
    except ExportError as e:
        raise click.ClickException(str(e)) from None
    except Exception as e:
        from .pipeline import PipelineError

        if isinstance(e, PipelineError):
            raise click.ClickException(str(e)) from None
        raise
    click.echo(f"exported {info['rows']} rows to {output}", err=True)
    if hub:
        click.echo(push_to_hub(output, hub), err=True)


@cli.command()
@click.argument("recipe", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--ray", default=None, metavar="ADDRESS", help="overrides the recipe's ray")
@click.option("-j", "--workers", type=click.IntRange(min=1), default=None, help="overrides the recipe's workers")
@click.option("--progress/--no-progress", default=None)
def run(recipe: Path, ray: str | None, workers: int | None, progress: bool | None) -> None:
    """The whole chain from a TOML recipe."""
    from .recipe import RecipeError, load
    from .runner import run_recipe

    try:
        r = load(recipe)
    except RecipeError as e:
        raise click.ClickException(str(e)) from None
    if ray:
        r.ray = ray
    if workers:
        r.workers = workers
    _stage(lambda: run_recipe(r, progress))


cli.add_command(hostile)


@cli.group()
def fuzz() -> None:
    """Random differential testing: generated kernels, nvcc's answers on a GPU, cass-cc's paths here."""


@fuzz.command("truth")
@click.option("--seed", required=True)
@click.option("--batches", required=True, metavar="FIRST:END", help="batch numbers (20 kernels each)")
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path), required=True)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 4, show_default=True)
@click.option("--arch", default="sm_90", show_default=True)
@click.option("--pack", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="also write the results as one .tar.gz for `check` elsewhere")
def fuzz_truth(seed: str, batches: str, out: Path, jobs: int, arch: str, pack: Path | None) -> None:
    """Build the batches with nvcc and run them on this machine's NVIDIA GPU (the truth)."""
    from .fuzz import truth

    truth.run(out, seed, batches, None, jobs, arch, pack_to=pack)


@fuzz.command("check")
@click.argument("truth", type=click.Path(exists=True, path_type=Path))
@click.option("-w", "--work", type=click.Path(file_okay=False, path_type=Path), default=Path(".fuzz"), show_default=True,
              help="where an archive is unpacked")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--paths", default="lifter,rules,simt", show_default=True)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="check only the first N batches")
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="JSONL of every kernel's outcome per path (default: WORK/report.jsonl)")
@click.option("--resume", is_flag=True, help="skip the batches the report already holds (a run cut off goes on)")
def fuzz_check(truth: Path, work: Path, jobs: int, paths: str, limit: int | None, report: Path | None,
               resume: bool) -> None:
    """Compare cass-cc's paths with a truth (a folder of batches or the .tar.gz `truth --pack` wrote)."""
    from .fuzz.check import PATHS
    from .fuzz.run import check_all, finished, unpack

    chosen = tuple(p for p in paths.split(",") if p)
    bad = [p for p in chosen if p not in PATHS]
    if bad:
        raise click.BadParameter(f"unknown path {bad[0]!r} (known: {', '.join(PATHS)})", param_hint="--paths")
    if truth.is_file():
        folders = unpack(truth, work / truth.name.split(".")[0])
    else:
        folders = sorted(p.parent for p in truth.glob("*/meta.json"))
    if not folders:
        raise click.ClickException(f"{truth}: no batches (folders with meta.json)")
    folders = folders[:limit] if limit else folders
    report = report or work / "report.jsonl"
    report.parent.mkdir(parents=True, exist_ok=True)
    if resume:
        done = finished(report)
        metas = {f: json.loads((f / "meta.json").read_text()) for f in folders}
        folders = [f for f in folders if (metas[f]["seed"], metas[f]["batch"]) not in done]
        click.echo(f"resuming: {len(done)} batches already in {report}, {len(folders)} to check", err=True)
    summary = check_all(folders, chosen, jobs, report, lambda line: click.echo(line, err=True))
    for r in summary.pop("differs"):
        click.echo(f"{r['seed']}:{r['index']} {r['path']} {r['outcome']}: {r['detail'][:300]}")
    click.echo(json.dumps(summary, indent=1))


@fuzz.command("reduce")
@click.argument("case", metavar="SEED:INDEX")
@click.option("--path", "suspect", required=True, help="the path that differs (lifter, rules, simt)")
@click.option("--against", "reference", required=True, help="a path that agreed with the truth")
@click.option("--max-tests", type=click.IntRange(min=1), default=300, show_default=True)
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="the case folder to write (case.json, fz.cu; see cass_data/fuzz/cases.py)")
def fuzz_reduce(case: str, suspect: str, reference: str, max_tests: int, output: Path) -> None:
    """Shrink generated kernel SEED:INDEX while PATH keeps differing from AGAINST."""
    import shutil

    from .fuzz.batch import inputs
    from .fuzz.gen import generate
    from .fuzz.reduce import differs_between, reduce

    seed, _, index = case.rpartition(":")
    if not seed or not index.isdigit():
        raise click.BadParameter("expected SEED:INDEX", param_hint="CASE")
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    k = generate(seed, int(index))
    test = differs_between(suspect, reference, inputs(seed, int(index)), nvcc)
    from .fuzz.cases import file_case

    def save(best) -> None:  # type: ignore[no-untyped-def]
        file_case(best, case, suspect, f"against {reference}: (reduction under way)", output)

    try:
        small, tests = reduce(k, test, max_tests, lambda line: click.echo(line, err=True), save)
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    note = test(small).note
    file_case(small, case, suspect, f"against {reference}: {note}", output)
    click.echo(f"{output}: size {k.size()} -> {small.size()} in {tests} tests")


def main(argv: list[str] | None = None) -> int:
    from cass_cc.click_main import run_click

    return run_click(cli, argv, "cass-data")


if __name__ == "__main__":
    sys.exit(main())
