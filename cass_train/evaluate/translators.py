"""The translators an evaluation can score, behind one interface:

    t = make_translator("rules" | "model:ID_OR_PATH" | "endpoint:URL" | "hipify-perl" | "outputs:FILE.jsonl", options)
    t.identity()                                  # names everything that changes its output
    t.translate_many([(name, source, filename)])  # -> {name: Translated(text or None, error)}

- rules: cass-cc's built-in translator (cass_cc.translate, as the driver and `cass-cc port` use it).
- model:ID_OR_PATH / endpoint:URL: a CASS-format model through cass_cc/model, asked for every
  file (model-when=always) with the whole file as the prompt. Its answer is scored as it is:
  no fallback to the rules and no compile check before scoring (that is what is measured).
- hipify-perl: AMD's hipify-perl script (a path from --hipify-perl or CASS_HIPIFY_PERL; never
  shipped with the project), run with perl on each file.
- outputs:FILE.jsonl: translations made elsewhere, one JSON object a line:
  {"name": PROGRAM, "hip": TEXT} ("translation" or "output" are accepted for "hip"; {"name": PROGRAM,
  "error": WHY} where the translator gave no text); for a
  program of a HeCBench-like tree, one line per .cu file, named "PROGRAM/FILE".
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

Item = tuple[str, str, str]  # (program name, CUDA source, file name)


class EvalError(Exception):
    """A translator or suite that cannot be used; one line, naming the file or setting."""


@dataclass(frozen=True)
class Translated:
    text: str | None
    error: str = ""  # first line of why there is no text


@dataclass
class Options:
    hipify_perl: str = ""
    model_max_tokens: int = 4096
    model_name: str = ""  # endpoint: the served model's name (empty: the server's first)
    model_batch_size: int = 16
    cache: Path | None = None  # where model answers are kept (cass_cc/model/store.py)
    hip_version: tuple[int, int] = (5, 2)
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:300]
    return text.strip()[:300]


class RulesTranslator:
    name = "rules"

    def __init__(self, options: Options) -> None:
        from cass_cc.translate import LazyRules, Target

        self.target = Target(hip_version=options.hip_version, wave_size=32)
        self.rules = LazyRules()

    def identity(self) -> str:
        return f"{self.rules.identity()}|{self.target.key()}"

    def translate_many(self, items: Sequence[Item]) -> dict[str, Translated]:
        from cass_cc.translate import TranslationError

        out: dict[str, Translated] = {}
        for name, source, filename in items:
            try:
                out[name] = Translated(self.rules.translate(source, filename, self.target).text)
            except TranslationError as e:
                out[name] = Translated(None, _first_line(str(e)))
        return out


class ModelTranslator:
    """A CASS-format model: every file is one prompt (split in pieces only when too long)."""

    def __init__(self, spec: str, endpoint: bool, options: Options) -> None:
        from cass_cc.model.settings import Generation, ModelSettings
        from cass_cc.model.store import Store
        from cass_cc.translate import LazyRules, Target
        from cass_cc.translate.model import ModelTranslator as Impl

        if endpoint:
            settings = ModelSettings(model=options.model_name, endpoint=spec, when="always", scope="file",
                                     generation=Generation(max_new_tokens=options.model_max_tokens),
                                     batch_size=options.model_batch_size)
        else:
            settings = ModelSettings(model=spec, when="always", scope="file",
                                     generation=Generation(max_new_tokens=options.model_max_tokens),
                                     batch_size=options.model_batch_size)
        self.target = Target(hip_version=options.hip_version, wave_size=32)
        store_root = options.cache
        try:
            import diskcache  # noqa: F401  (the answers store; without it answers live for this run)
        except ImportError:
            store_root = None
        self.impl = Impl(settings, LazyRules(), Store(store_root))
        self.label = spec

    def identity(self) -> str:
        from cass_cc.translate import TranslationError

        try:
            return self.impl.identity()
        except TranslationError as e:
            raise EvalError(f"model {self.label}: {e}") from None

    def translate_many(self, items: Sequence[Item]) -> dict[str, Translated]:
        from cass_cc.translate import TranslationError

        plans: dict[str, Any] = {}
        out: dict[str, Translated] = {}
        for name, source, filename in items:
            try:
                plans[name] = self.impl.plan(source, filename, self.target)
            except TranslationError as e:
                out[name] = Translated(None, _first_line(str(e)))
        prompts = sorted({p for plan in plans.values() for p in plan.prompts})
        try:
            answers = dict(zip(prompts, self.impl.answers(prompts))) if prompts else {}
        except TranslationError as e:
            raise EvalError(f"model {self.label}: {_first_line(str(e))}") from None
        for name, plan in plans.items():
            try:
                out[name] = Translated(self.impl.assemble(plan, [answers[p] for p in plan.prompts]))
            except TranslationError as e:
                out[name] = Translated(None, _first_line(str(e)))
        return out


class HipifyPerl:
    """AMD's hipify-perl, run as `perl SCRIPT FILE` (it prints the HIP source on stdout)."""

    def __init__(self, options: Options) -> None:
        script = options.hipify_perl or options.env.get("CASS_HIPIFY_PERL", "")
        if not script:
            raise EvalError("hipify-perl: give the script's path with --hipify-perl PATH or CASS_HIPIFY_PERL")
        path = Path(script)
        if not path.is_file():
            raise EvalError(f"{script}: no such hipify-perl script (--hipify-perl / CASS_HIPIFY_PERL)")
        self.perl = shutil.which("perl", path=options.env.get("PATH"))
        if not self.perl:
            raise EvalError("hipify-perl needs perl on PATH")
        self.script = path
        self.digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]

    def identity(self) -> str:
        return f"hipify-perl:{self.digest}"

    def _one(self, item: Item) -> tuple[str, Translated]:
        name, source, filename = item
        with tempfile.TemporaryDirectory(prefix="cass-eval-hipify-") as tmp:
            src = Path(tmp) / Path(filename).name
            src.write_text(source, encoding="utf-8", errors="surrogateescape")
            proc = subprocess.run([self.perl, str(self.script), "-quiet-warnings", str(src)], capture_output=True,
                                  text=True, errors="replace", cwd=tmp, timeout=300)
        if proc.returncode != 0 or not proc.stdout.strip():
            return name, Translated(None, "hipify-perl: " + _first_line(proc.stderr or f"exit {proc.returncode}, no output"))
        return name, Translated(proc.stdout)

    def translate_many(self, items: Sequence[Item]) -> dict[str, Translated]:
        with ThreadPoolExecutor(max_workers=max(1, min(8, os.cpu_count() or 1))) as pool:
            return dict(pool.map(self._one, items))


def _json_lines(path: str) -> tuple[str, list[tuple[int, Any]]]:
    """(digest of the file, [(line number, parsed value)]) of a JSON-lines file; errors name the line."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise EvalError(f"{path}: cannot read: {e.strerror}") from None
    rows = []
    for number, line in enumerate(data.decode("utf-8", "surrogateescape").splitlines(), 1):
        if line.strip():
            try:
                rows.append((number, json.loads(line)))
            except ValueError:
                raise EvalError(f"{path}:{number}: not a JSON object") from None
    return hashlib.sha256(data).hexdigest()[:16], rows


class Outputs:
    """Translations computed elsewhere, read from a JSON-lines file."""

    def __init__(self, path: str) -> None:
        self.digest, rows = _json_lines(path)
        self.texts: dict[str, str] = {}
        self.errors: dict[str, str] = {}  # {"name": ..., "error": ...}: the translator gave no text, and why
        for number, row in rows:
            try:
                name = str(row.get("name") or row.get("program") or row["id"])
                if "error" in row and not any(k in row for k in ("hip", "translation", "output")):
                    self.errors[name] = _first_line(str(row["error"])) or "the translator gave no text"
                    continue
                text = next(row[k] for k in ("hip", "translation", "output") if k in row)
            except (KeyError, StopIteration, AttributeError):
                raise EvalError(f"{path}:{number}: not a JSON object with 'name' and 'hip' (or 'error')") from None
            if not isinstance(text, str):
                raise EvalError(f"{path}:{number}: 'hip' is not a string")
            self.texts[name] = text

    def identity(self) -> str:
        return f"outputs:{self.digest}"

    def translate_many(self, items: Sequence[Item]) -> dict[str, Translated]:
        return {name: Translated(self.texts[name]) if name in self.texts
                else Translated(None, self.errors.get(name, "no translation in the outputs file")) for name, _, _ in items}


class RecordedAnswers:
    """A model's answers given elsewhere, as a model backend: one JSON object a line,
    {"prompt_sha256": HEX, "answer": TEXT}, looked up by the digest of the prompt cass-cc would send.
    The assembly task's `outputs:FILE.jsonl` (answers made on a GPU machine for prompts written
    here, bench/smollm2.py); a prompt without an answer is an error, not an empty answer."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.digest, rows = _json_lines(path)
        self.answers: dict[str, str] = {}
        for number, row in rows:
            try:
                key, answer = str(row["prompt_sha256"]), row["answer"]
            except (KeyError, TypeError):
                raise EvalError(f"{path}:{number}: not a JSON object with 'prompt_sha256' and 'answer'") from None
            if not isinstance(answer, str):
                raise EvalError(f"{path}:{number}: 'answer' is not a string")
            self.answers[key] = answer

    def identity(self) -> str:
        return f"outputs:{self.digest}"

    def generate(self, prompts: list[str], generation: Any) -> list[str]:
        from cass_cc.model import ModelError

        keys = [hashlib.sha256(p.encode("utf-8", "surrogateescape")).hexdigest() for p in prompts]
        missing = sum(1 for k in keys if k not in self.answers)
        if missing:
            raise ModelError(f"{self.path}: no answer for {missing} of {len(keys)} prompts (made from other SASS?)")
        return [self.answers[k] for k in keys]


def make_translator(spec: str, options: Options) -> Any:
    kind, sep, rest = spec.partition(":")
    if spec == "rules":
        return RulesTranslator(options)
    if spec == "hipify-perl" or kind == "hipify-perl":
        if rest:
            options.hipify_perl = rest
        return HipifyPerl(options)
    if kind == "model" and rest:
        return ModelTranslator(rest, False, options)
    if kind == "endpoint" and rest:
        return ModelTranslator(rest, True, options)
    if kind == "outputs" and rest:
        return Outputs(rest)
    raise EvalError(f"unknown translator '{spec}' (rules, model:ID_OR_PATH, endpoint:URL, hipify-perl, outputs:FILE.jsonl)")
