"""One evaluation: translate the suite, compile for gfx1100, run on NVIDIA where a GPU is, and keep
one record per program in a cache named by the suite version and the translator's identity.

    records = evaluate(Settings(translator="rules", suite=load(), jobs=2, cache=Path(...)))

The cache is content-addressed and written atomically:
    <cache>/results/<suite version>/<run key>/<program>.json   the program's record
    <cache>/compile/<hash of HIP text, file name, compiler>.json  a gfx1100 compile verdict
so an interrupted run resumes where it stopped, two translators that give the same text for a
program share its compile, and nothing half-written is ever read. `fresh=True` recomputes.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from cass_cc.util import atomic_write_text, sha256_hex

from cass_cc.toolchain.found import Found

from .build import Compiled, compile_hip

RECORD_VERSION = "eval-1"  # part of every run key: change it when records change meaning


@dataclass
class Settings:
    translator: str
    suite: Any
    task: str = "source"
    jobs: int = 1
    cache: Path | None = None
    fresh: bool = False
    run: bool | None = None  # None: when an NVIDIA GPU is present
    arch: str = "sm_80"  # the NVIDIA build of both sides for execution
    sms: tuple[int, ...] = (80,)  # assembly task
    repeat: int = 3
    options: Any = None  # translators.Options
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    progress: Callable[[str], None] | None = None


# ---------------------------------------------------------------- cache

def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


ASSEMBLY_TOOLS = ("nvcc", "nvdisasm", "cuobjdump", "opt", "llc", "llvm-mc", "ld.lld")


def compile_key(text: str, filename: str, include_dirs: tuple[str, ...], tools: Found) -> str:
    return sha256_hex("gfx1100", text, filename, *include_dirs, tools.clang, str(tools.hip_version), tools.device_libs)


def cached_compile(cache: Path | None, text: str, filename: str, include_dirs: tuple[str, ...], tools: Found) -> Compiled:
    if not tools.clang or cache is None:
        return compile_hip(text, filename, include_dirs, tools)
    path = cache / "compile" / (compile_key(text, filename, include_dirs, tools) + ".json")
    hit = _load_json(path)
    if isinstance(hit, dict) and "ok" in hit:
        return Compiled(bool(hit["ok"]), str(hit.get("error", "")), float(hit.get("seconds", 0.0)))
    result = compile_hip(text, filename, include_dirs, tools)
    atomic_write_text(path, json.dumps({"ok": result.ok, "error": result.error, "seconds": round(result.seconds, 3)}))
    return result


# ---------------------------------------------------------------- source task, one program

@dataclass
class Job:
    program: Any
    text: str | None
    translate_error: str
    tools: Found
    verify_tools: Any
    cache: Path | None
    record_path: Path | None
    arch: str
    repeat: int
    translator: str


def _port_tree(program: Any, texts: dict[str, str], dest: Path) -> None:
    """A HeCBench-like folder with its .cu files replaced by their translations and its Makefile's
    nvcc lines rewritten for hipcc (cass-cc port's Makefile rules)."""
    from cass_cc.port.buildfiles import build_file_kind, rewrite_build_file

    shutil.copytree(program.path, dest, symlinks=True)
    for rel, text in texts.items():
        (dest / rel).write_text(text, encoding="utf-8", errors="surrogateescape")
    for f in dest.rglob("*"):
        if f.is_file() and build_file_kind(str(f.relative_to(dest))) is not None:
            new, _ = rewrite_build_file(str(f.relative_to(dest)), f.read_text(errors="surrogateescape"), ["gfx1100"])
            f.write_text(new, errors="surrogateescape")


def score_source(job: Job) -> dict[str, Any]:
    """Compile (and run) one program's translation; the record, also written to the cache."""
    from .execute import run_pair

    p = job.program
    start = time.monotonic()
    rec: dict[str, Any] = {"program": p.name, "domain": p.domain, "features": list(p.features), "needs": p.needs,
                           "task": "source", "translator": job.translator, "translated": job.text is not None,
                           "translate_error": job.translate_error, "compiled": None, "compile_error": "",
                           "ran": None, "passed": None, "run_outcome": "not-run", "exec_error": "",
                           "runtime_ratio": None, "memory_ratio": None}
    if job.text is not None:
        rec["hip_sha256"] = sha256_hex(job.text)
        if p.kind == "tree":
            texts = json.loads(job.text)
            results = [cached_compile(job.cache, t, rel, (str(p.path),), job.tools) for rel, t in texts.items()]
            bad = [(rel, r) for (rel, _), r in zip(texts.items(), results) if not r.ok]
            rec["compiled"] = not bad if job.tools.clang else None
            rec["compile_error"] = f"{bad[0][0]}: {bad[0][1].error}" if bad else ("" if job.tools.clang else results[0].error)
        else:
            c = cached_compile(job.cache, job.text, p.path.name, job.tools.extra_cuda_includes, job.tools)
            rec["compiled"] = c.ok if job.tools.clang else None
            rec["compile_error"] = c.error
        if job.verify_tools is not None:
            with tempfile.TemporaryDirectory(prefix=f"cass-eval-{p.name}.") as tmp:
                if p.kind == "tree":
                    translation = str(Path(tmp) / "ported")
                    _port_tree(p, json.loads(job.text), Path(translation))
                else:
                    translation = str(Path(tmp) / (p.path.stem + ".hip"))
                    Path(translation).write_text(job.text, encoding="utf-8", errors="surrogateescape")
                ex = run_pair(p, translation, job.verify_tools, job.arch, str(Path(tmp) / "work"), job.repeat,
                              include_dirs=job.tools.extra_cuda_includes)
            rec.update(ran=ex.ran, passed=ex.passed, run_outcome=ex.outcome, exec_error=ex.error,
                       original_passed=ex.original_passed, runtime_ratio=ex.runtime_ratio, memory_ratio=ex.memory_ratio,
                       timing=ex.timing)
        else:
            rec["exec_error"] = "not run: no NVIDIA GPU here"
    rec["seconds"] = round(time.monotonic() - start, 3)
    if job.record_path is not None:
        atomic_write_text(job.record_path, json.dumps(rec, sort_keys=True))
    return rec


# ---------------------------------------------------------------- assembly task, one program

@dataclass
class AsmJob:
    program: Any
    sms: tuple[int, ...]
    asm_tools: Any
    tools: Found
    cache: Path | None
    record_path: Path | None
    reference_text: str | None  # the rules translation, compiled for gfx1100 as the emulator's reference
    model: Any
    translator: str


def score_assembly(job: AsmJob) -> dict[str, Any]:
    from .assembly import assemble_program
    from .build import compile_hip

    p = job.program
    start = time.monotonic()
    kernels: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix=f"cass-eval-asm-{p.name}.") as tmp:
        reference = None
        if p.emu and job.reference_text is not None and job.tools.clang:
            reference = Path(tmp) / "reference.co"
            c = compile_hip(job.reference_text, p.path.name, job.tools.extra_cuda_includes, job.tools, keep=reference, device_only=True)
            if not c.ok:
                reference = None
        for sm in job.sms:
            for r in assemble_program(p, sm, job.asm_tools, Path(tmp) / f"sm_{sm}", job.model, reference):
                kernels.append(r.to_json())
    rec = {"program": p.name, "domain": p.domain, "features": list(p.features), "task": "assembly",
           "translator": job.translator, "kernels": kernels, "seconds": round(time.monotonic() - start, 3)}
    if job.record_path is not None:
        atomic_write_text(job.record_path, json.dumps(rec, sort_keys=True))
    return rec


# ---------------------------------------------------------------- the run

def code_identity(task: str) -> str:
    """The evaluator's own code (and, for the assembly task, the emulator's): records made by
    other code are not reused."""
    here = Path(__file__).resolve().parent
    files = [here / f"{m}.py" for m in ("assembly", "build", "engine", "execute", "translators")]  # not the report
    if task == "assembly":
        files += sorted((here.parents[1] / "cass_cc" / "emu").glob("*.py"))
    return sha256_hex(*(f.read_bytes() for f in files))[:16]


def run_key(settings: Settings, identity: str) -> str:
    parts = [RECORD_VERSION, settings.task, identity, code_identity(settings.task)]
    if settings.task == "source":
        parts += [settings.arch, f"run={settings.run}", f"repeat={settings.repeat}"]
    else:
        parts += ["sms=" + ",".join(map(str, settings.sms))]
    return sha256_hex(*parts)[:16]


def results_folder(settings: Settings, identity: str) -> Path | None:
    if settings.cache is None:
        return None
    return settings.cache / "results" / settings.suite.version / run_key(settings, identity)


def _say(settings: Settings, text: str) -> None:
    if settings.progress is not None:
        settings.progress(text)


def _pool_map(fn: Callable[[Any], dict[str, Any]], jobs: list[Any], n: int, settings: Settings) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if n <= 1 or len(jobs) <= 1:
        for j in jobs:
            out.append(fn(j))
            _say(settings, f"{out[-1]['program']}: done ({len(out)}/{len(jobs)})")
        return out
    with ProcessPoolExecutor(max_workers=n) as pool:
        for rec in pool.map(fn, jobs):
            out.append(rec)
            _say(settings, f"{rec['program']}: done ({len(out)}/{len(jobs)})")
    return out


def _sources(program: Any) -> list[tuple[str, str, str]]:
    """(item name, CUDA text, file name) for each file to translate."""
    if program.kind == "tree":
        return [(f"{program.name}/{rel}", (program.path / rel).read_text(errors="surrogateescape"), rel) for rel in program.sources]
    return [(program.name, program.source(), program.path.name)]


def evaluate(settings: Settings) -> tuple[list[dict[str, Any]], str, Path | None]:
    """(records in suite order, translator identity, results folder)."""
    from .translators import Options, make_translator

    options = settings.options or Options()
    tools = Found.find(settings.env)
    options.hip_version = tools.hip_version
    if options.cache is None and settings.cache is not None:
        options.cache = settings.cache
    if settings.task == "assembly":
        return _evaluate_assembly(settings, options, tools)
    translator = make_translator(settings.translator, options)
    identity = translator.identity()
    folder = results_folder(settings, identity)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / "identity.json", json.dumps({"translator": settings.translator, "identity": identity,
                                                                "suite": settings.suite.name, "version": settings.suite.version}))
    records: dict[str, dict[str, Any]] = {}
    todo = []
    for p in settings.suite.programs:
        path = folder / f"{p.name}.json" if folder is not None else None
        hit = _load_json(path) if path is not None and not settings.fresh else None
        if isinstance(hit, dict) and hit.get("program") == p.name:
            records[p.name] = hit
        else:
            todo.append(p)
    if todo:
        _say(settings, f"{settings.translator}: {len(settings.suite.programs) - len(todo)} cached, {len(todo)} to do")
    verify_tools = None
    if todo:
        verify_tools = _verify_tools(settings)
    items = [it for p in todo for it in _sources(p)]
    translated = translator.translate_many(items) if items else {}
    jobs = []
    for p in todo:
        if p.kind == "tree":
            parts = {rel: translated[f"{p.name}/{rel}"] for rel in p.sources}
            errors = [f"{rel}: {t.error}" for rel, t in parts.items() if t.text is None]
            text = None if errors else json.dumps({rel: t.text for rel, t in parts.items()})
            error = errors[0] if errors else ""
        else:
            t = translated[p.name]
            text, error = t.text, t.error
        jobs.append(Job(p, text, error, tools, verify_tools, settings.cache, folder / f"{p.name}.json" if folder else None,
                        settings.arch, settings.repeat, settings.translator))
    for rec in _pool_map(score_source, jobs, settings.jobs, settings):
        records[rec["program"]] = rec
    return [records[p.name] for p in settings.suite.programs], identity, folder


def _verify_tools(settings: Settings) -> Any:
    """The runner's tools when programs will run (a GPU, or run forced); None otherwise."""
    if settings.run is False:
        return None
    try:
        from cass_cc.verify.runner import find_tools

        vt = find_tools(dict(settings.env), False, True if settings.run else None)
    except Exception as e:  # no nvcc: nothing can run
        _say(settings, f"execution not measured: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
        return None
    return vt if vt.gpu else None


def _evaluate_assembly(settings: Settings, options: Any, tools: Found) -> tuple[list[dict[str, Any]], str, Path | None]:
    from .translators import EvalError, RulesTranslator

    missing = [t for t in ASSEMBLY_TOOLS if not tools.has(t)]
    if missing:
        raise EvalError(f"the assembly task needs {', '.join(missing)}, not found here")
    asm_tools = tools
    model = None
    spec = settings.translator
    if spec in ("rules", "lifter"):
        from .assembly import __file__ as asm_file

        sass = Path(asm_file).resolve().parents[2] / "cass_cc" / "sass"
        lifter_files = sorted(sass.glob("*.py")) + sorted((sass / "runtime_ir").glob("*.ll"))  # the IR helpers lift too
        identity = "lifter:" + sha256_hex(*(f.read_bytes() for f in lifter_files))[:16]
    elif spec.startswith("model:") or spec.startswith("endpoint:"):
        from cass_cc.model.settings import Generation, ModelSettings
        from cass_cc.model.store import Store
        from cass_cc.translate.model import AssemblyModel

        kind, _, rest = spec.partition(":")
        ms = ModelSettings(model=rest if kind == "model" else options.model_name, endpoint=rest if kind == "endpoint" else "",
                           when="always", generation=Generation(max_new_tokens=options.model_max_tokens))
        model = AssemblyModel(ms, Store(options.cache), asm_tools.llvm_mc)
        identity = "asm-" + model._translator.identity()
    elif spec.startswith("outputs:"):
        from cass_cc.model.settings import ModelSettings
        from cass_cc.model.store import Store
        from cass_cc.translate.model import AssemblyModel

        from .translators import RecordedAnswers

        model = AssemblyModel(ModelSettings(model=spec, when="always"), Store(None), asm_tools.llvm_mc,
                              backend=RecordedAnswers(spec.partition(":")[2]))
        identity = "asm-" + model._translator.identity()
    else:
        raise EvalError(f"the assembly task takes 'rules' (the SASS lifter), model:ID_OR_PATH, endpoint:URL or "
                        f"outputs:FILE.jsonl (recorded answers), not '{spec}'")
    folder = results_folder(settings, identity)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    rules = RulesTranslator(options)
    records: dict[str, dict[str, Any]] = {}
    jobs = []
    for p in settings.suite.programs:
        if p.kind != "file":
            continue
        path = folder / f"{p.name}.json" if folder is not None else None
        hit = _load_json(path) if path is not None and not settings.fresh else None
        if isinstance(hit, dict) and hit.get("program") == p.name:
            records[p.name] = hit
            continue
        ref = rules.translate_many(_sources(p))[p.name].text if p.emu else None
        jobs.append(AsmJob(p, settings.sms, asm_tools, tools, settings.cache, path, ref, model, spec))
    n = 1 if model is not None else settings.jobs  # a local model is loaded once, in this process
    for rec in _pool_map(score_assembly, jobs, n, settings):
        records[rec["program"]] = rec
    return [records[p.name] for p in settings.suite.programs if p.name in records], identity, folder
