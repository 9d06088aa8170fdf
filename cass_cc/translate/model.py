"""The model translator: a CASS model in the translator chain, cached and validated.

    chain = model, rules        (the default once --cass-model or --cass-model-endpoint is set)

For a `.cu` file the rules translate first. With `model-when=unsupported` (default) the
model is asked only when the rules report something they cannot serve (inline PTX,
unknown APIs); with `always`, for every file. `model-scope=file` (default) sends the
whole file, split into consecutive top-level pieces when it is too long for the model
(answers joined in order); `function` sends only the top-level definitions holding the
lines the rules flagged and puts each answer in place of its definition in the rules
translation. Headers and host files are left to the rules. A model trained on bodies
(`model-answer=body`, or `cass_answer: "body"` in its config.json: cass-train's
data.answer = "body") answers a file without the rules' prelude, and the rules' prelude and
`#line 1` of the same file go before its answer.

Every answer is checked before it is used: it must not add host side effects the source
does not have (a process, a file, a socket, a library: hostcalls.py), and it is compiled
for the build's targets with the build's own flags (the driver's command line,
cass_cc/driver/commands.py); model output is never executed natively. Where nvcc is found
(`model-check=auto`; or `emulator`) its kernels must also compute, on the gfx1100 emulator, what the CUDA
file's kernels lifted from their SASS compute (cass_cc/driver/emucheck.py; the verdict key holds
the CUDA file's digest). An answer that fails a check (or has no ```amd fence) raises
TranslationError, so the chain falls back to the rules with a one-line warning. Answers
and verdicts are cached (cass_cc/model/store.py), a rejected answer's too: asking again
would get the same answer.
A model that could not be asked (ModelError: an endpoint down, a time-out, a reply too
large) raises TranslationUnavailable: nothing is cached, and the next build asks again.
"""
from __future__ import annotations

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, Sequence

from ..model import ModelError
from ..model.prompts import PROMPT_VERSION, SOURCE
from ..model.settings import ModelSettings
from ..model.split import Piece, definition, group, pieces, text_of
from ..model.store import Store, answer_key, verdict_key
from ..toolchain.tool import ToolTimeout, run_tool
from ..util import sha256_hex
from .base import Target, Translation, TranslationDeclined, TranslationError, TranslationUnavailable, Translator
from .hostcalls import added, describe
from .prelude import split_prelude

# Files the model translates: translation units. Headers are compiled only as part of one.
MODEL_SUFFIXES = (".cu",)
# Share of max_new_tokens an input piece may use: a translation is about as long as its input.
ANSWER_ROOM = 0.8


class Validator(Protocol):
    key: str  # names the compile that checks answers (targets, flags, compiler)

    def prepare(self, filename: str) -> Any:
        """Per-file set-up that must run in order (the driver's translated-header trees)."""
        ...

    def check(self, text: str, filename: str, prepared: Any = None) -> str | None:
        """None when `text` compiles as `filename` would; else the first error, one line."""
        ...


@dataclass
class Plan:
    """What one file sends to the model and how the answers are put together."""

    filename: str
    prompts: list[str]
    replaced: list[Piece] = field(default_factory=list)  # function scope: definitions replaced
    rules_text: str = ""  # function scope: the rules translation the answers go into
    head: str = ""  # file scope: the rules' prelude and #line 1, put before answers that are bodies


class ModelTranslator:
    name = "model"

    def __init__(self, settings: ModelSettings, rules: Translator, store: Store,
                 validator: Validator | None = None, backend: Any = None) -> None:
        self.settings = settings
        self.rules = rules
        self.store = store
        self.validator = validator
        self._backend = backend
        self._identity = ""
        self._overhead_tokens = -1

    @property
    def backend(self) -> Any:
        if self._backend is None:
            from ..model.backend import make_backend

            self._backend = make_backend(self.settings, self.store)
        return self._backend

    def identity(self) -> str:
        if not self._identity:
            s = self.settings
            answer = "" if s.answer == "auto" else f"-{s.answer}"  # auto: the backend identity names the config
            self._identity = f"model-{PROMPT_VERSION}-{self.backend_identity()}-{s.generation.key()}-{s.when}-{s.scope}{answer}"
        return self._identity

    def backend_identity(self) -> str:
        try:
            return str(self.backend.identity())
        except ModelError as e:  # a model folder that is not one, a download that failed
            raise TranslationUnavailable(str(e)) from None

    # ---- one file ----------------------------------------------------------------

    def translate(self, source: str, filename: str, target: Target) -> Translation:
        plan = self.plan(source, filename, target)
        text = self.assemble(plan, self.answers(plan.prompts))
        self.check(text, filename, target, source)
        return Translation(text=text, translator=self.identity())

    def plan(self, source: str, filename: str, target: Target) -> Plan:
        """Raises TranslationDeclined when the rules should serve this file alone."""
        if not filename.endswith(MODEL_SUFFIXES):
            raise TranslationDeclined("the model translates .cu files only")
        s = self.settings
        rules = self.rules.translate(source, filename, target)
        if s.when == "unsupported" and not rules.unsupported:
            raise TranslationDeclined("the rules translate all of it")
        try:
            if s.scope == "function":
                return self._plan_functions(source, filename, rules)
            budget = self._budget()
            head = split_prelude(rules.text)[0]
            if len(SOURCE.prompt(source).encode("utf-8")) <= budget or self._code_tokens(source) <= budget:
                return Plan(filename, [SOURCE.prompt(source)], head=head)
            groups = group(pieces(source), budget, self._code_tokens)
            return Plan(filename, [SOURCE.prompt(text_of(g)) for g in groups], head=head)
        except ModelError as e:
            raise TranslationUnavailable(str(e)) from None

    def _plan_functions(self, source: str, filename: str, rules: Translation) -> Plan:
        from .base import uses_cuda_text

        found = [definition(p) for p in pieces(source)]
        if self.settings.when == "always":
            chosen = [p for p in found if uses_cuda_text(p.text.encode("utf-8", "surrogateescape"))]
        else:
            lines = {d.line for d in rules.diagnostics if d.severity in ("warning", "error")}
            chosen = [p for p in found if any(p.holds(n) for n in lines)]
        if not chosen:
            raise TranslationDeclined("no definition for the model")
        return Plan(filename, [SOURCE.prompt(p.text) for p in chosen], chosen, rules.text)

    def _budget(self) -> int:
        """Tokens of code one prompt may carry: the prompt and its answer must fit the
        context, and the answer (about as long as the code) must fit max_new_tokens."""
        backend, new = self.backend, self.settings.generation.max_new_tokens
        budget = min(int(new * ANSWER_ROOM), backend.context_length() - new - self._overhead())
        if budget <= 0:
            raise ModelError(
                f"{backend.label}: a context of {backend.context_length()} tokens leaves no room for code "
                f"with max_new_tokens={new}"
            )
        return budget

    def _overhead(self) -> int:
        """Tokens of the prompt and chat template around the code."""
        if self._overhead_tokens < 0:
            self._overhead_tokens = int(self.backend.count_tokens(SOURCE.prompt("")))
        return self._overhead_tokens

    def _code_tokens(self, code: str) -> int:
        return max(0, int(self.backend.count_tokens(SOURCE.prompt(code))) - self._overhead())

    def assemble(self, plan: Plan, answers: Sequence[str]) -> str:
        bodies = []
        for n, answer in enumerate(answers):
            body = SOURCE.extract(answer)
            if body is None:
                where = f" (piece {n + 1} of {len(answers)})" if len(answers) > 1 else ""
                raise TranslationError(f"{self.backend.label}'s answer{where} has no closed ```amd fence")
            bodies.append(body)
        if not plan.replaced:
            return (plan.head if self.answer_format() == "body" else "") + "".join(bodies)
        return splice(plan.rules_text, plan.filename, plan.replaced, bodies)

    def answer_format(self) -> str:
        """"body" when answers leave out the prelude (the rules' is put before them), else "whole"."""
        if self.settings.answer != "auto":
            return self.settings.answer
        ask = getattr(self.backend, "answer_format", None)
        try:
            return str(ask()) if ask is not None else "whole"
        except ModelError as e:
            raise TranslationUnavailable(str(e)) from None

    def check(self, text: str, filename: str, target: Target, source: str) -> None:
        """Raises TranslationError unless `text` (the answers put together) adds no host side
        effect to `source` and compiles as `filename` would."""
        extra = added(source, text)
        if extra:
            raise TranslationError(f"{self.backend.label}'s answer adds host calls the source does not make: {describe(extra)}")
        if self.validator is None:
            raise TranslationError("model answers are used only where they can be compiled first (a cass-cc build)")
        key = self._verdict_key(text, filename, target, source)
        verdict = self.store.get(key)
        if not _is_verdict(verdict):  # missing, or not what this module stores (a damaged entry)
            error = self.validator.check(text, filename)
            verdict = {"ok": error is None, "error": error or ""}
            self.store.set(key, verdict)
        if not verdict["ok"]:
            raise TranslationError(f"{self.backend.label}'s answer {verdict['error']}")

    def _verdict_key(self, text: str, filename: str, target: Target, source: str) -> str:
        """The source is part of it: with model-check=emulator the CUDA file is the truth."""
        assert self.validator is not None
        return verdict_key(text, filename, target.key(), f"{self.validator.key}|{sha256_hex(source)}")

    # ---- answers, cached, batched ------------------------------------------------

    def answers(self, prompts: Sequence[str]) -> list[str]:
        """The model's answer to each prompt: cached ones from the store, the others
        generated together (batched on a GPU, in flight together for an endpoint)."""
        gen = self.settings.generation
        identity = self.backend_identity()
        keys = [answer_key(identity, gen, p) for p in prompts]
        found = [a if isinstance(a, str) else None for a in map(self.store.get, keys)]
        missing = sorted({p for p, a in zip(prompts, found) if a is None})
        if missing:
            try:
                fresh = dict(zip(missing, self.backend.generate(missing, gen)))
            except ModelError as e:  # nothing answered: nothing stored, the next build asks again
                raise TranslationUnavailable(str(e)) from None
            for p, answer in fresh.items():
                self.store.set(answer_key(identity, gen, p), answer)
            found = [a if a is not None else fresh[p] for p, a in zip(prompts, found)]
        return [str(a) for a in found]

    def prefetch(self, items: Sequence[tuple[str, str]], target: Target, jobs: int = 0) -> dict[str, str]:
        """Translate many (source, filename) ahead of a build: every prompt they need in
        one batched generation, then every answer compiled in parallel. Returns
        filename -> 'model', 'rules' or 'rules (<why>)', as a later translate() will
        decide it (answers and verdicts are then in the store)."""
        plans: dict[str, Plan] = {}
        outcome: dict[str, str] = {}
        sources = {filename: source for source, filename in items}
        for source, filename in items:
            try:
                plans[filename] = self.plan(source, filename, target)
            except TranslationDeclined:
                outcome[filename] = "rules"
            except TranslationError as e:
                outcome[filename] = f"rules ({e})"
        prompts = [p for plan in plans.values() for p in plan.prompts]
        try:
            answers = iter(self.answers(prompts))
        except TranslationError as e:
            return {**outcome, **{f: f"rules ({e})" for f in plans}}
        texts: dict[str, str] = {}
        for filename, plan in plans.items():
            mine = [next(answers) for _ in plan.prompts]
            try:
                texts[filename] = self.assemble(plan, mine)
            except TranslationError as e:
                outcome[filename] = f"rules ({e})"
        if self.validator is None:
            return {**outcome, **{f: "rules (no compiler to check answers)" for f in texts}}
        todo = {f: t for f, t in texts.items()
                if not added(sources[f], t) and not _is_verdict(self.store.get(self._verdict_key(t, f, target, sources[f])))}
        prepared = {f: self.validator.prepare(f) for f in todo}  # in order: shares the driver's state
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            errors = dict(zip(todo, pool.map(lambda f: self.validator.check(todo[f], f, prepared[f]), todo)))  # type: ignore[union-attr]
        for f, error in errors.items():
            self.store.set(self._verdict_key(todo[f], f, target, sources[f]), {"ok": error is None, "error": error or ""})
        for f, t in texts.items():
            try:
                self.check(t, f, target, sources[f])
                outcome[f] = "model"
            except TranslationError as e:
                outcome[f] = f"rules ({e})"
        return outcome


def _is_verdict(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("ok"), bool) and isinstance(value.get("error"), str)


def splice(rules_text: str, filename: str, replaced: Sequence[Piece], bodies: Sequence[str]) -> str:
    """The rules translation with the lines of each replaced definition swapped for the
    model's answer, and a #line after each so later lines keep their numbers."""
    marker = f'#line 1 "{_escape(filename)}"\n'
    at = rules_text.find(marker)
    if at < 0:
        raise TranslationError("the rules translation has no #line marker to put model answers into")
    head, lines = rules_text[: at + len(marker)], rules_text[at + len(marker) :].splitlines(keepends=True)
    for piece, body in sorted(zip(replaced, bodies), key=lambda pb: -pb[0].first_line):
        resume = f'#line {piece.last_line + 1} "{_escape(filename)}"\n'
        lines[piece.first_line - 1 : piece.last_line] = [body, resume]
    return head + "".join(lines)


def _escape(filename: str) -> str:
    return filename.replace("\\", "\\\\").replace('"', '\\"')


def first_error(stderr: str, src: str, filename: str) -> str:
    lines = [line.replace(src, f"{filename} (model answer)") for line in stderr.splitlines()]
    first = next((line for line in lines if "error:" in line), next((line for line in lines if line.strip()), ""))
    return "does not compile (" + (first.strip() or "the compiler failed without a message") + ")"


# ---- assembly ------------------------------------------------------------------------


class AssemblyModel:
    """SASS -> RDNA3 assembly with a CASS assembly model (```cudaasm in, ```hipasm out),
    for the cubin path: every answer is assembled with llvm-mc for the target first."""

    def __init__(self, settings: ModelSettings, store: Store, llvm_mc: str, arch: str = "gfx1100",
                 backend: Any = None) -> None:
        self.settings = settings
        self.store = store
        self.llvm_mc = llvm_mc
        self.arch = arch
        self._translator = ModelTranslator(settings, rules=None, store=store, backend=backend)  # type: ignore[arg-type]

    def translate(self, sass: Sequence[str]) -> list[str | None]:
        """The validated RDNA3 assembly for each SASS text, None where the model failed."""
        from ..model.prompts import ASSEMBLY

        answers = self._translator.answers([ASSEMBLY.prompt(s) for s in sass])
        out: list[str | None] = []
        for answer in answers:
            body = ASSEMBLY.extract(answer)
            out.append(body if body is not None and self.assemble(body) is None else None)
        return out

    def assemble(self, text: str) -> str | None:
        key = verdict_key(text, "<asm>", self.arch, self.llvm_mc)
        verdict = self.store.get(key)
        if not _is_verdict(verdict):
            with tempfile.TemporaryDirectory(prefix="cass-cc-check-") as tmp:
                src = os.path.join(tmp, "answer.s")
                Path(src).write_text(text)
                argv = [self.llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={self.arch}", "--amdhsa-code-object-version=5",
                        "-filetype=obj", src, "-o", os.path.join(tmp, "answer.o")]
                try:
                    proc = run_tool(argv, text=True, errors="replace")
                except ToolTimeout as e:  # not cached: a slower machine may finish
                    return f"does not assemble ({e})"
            error = None if proc.returncode == 0 else first_error(proc.stderr, src, "assembly")
            verdict = {"ok": error is None, "error": error or ""}
            self.store.set(key, verdict)
        return None if verdict["ok"] else str(verdict["error"])


def model_translator(config: Any, env: Any, rules: Translator, validator: Validator | None = None) -> ModelTranslator:
    """The chain member for the `model` name, from the settings (translate/__init__.py)."""
    settings = ModelSettings.from_config(config)
    if not settings.configured:
        raise TranslationError(
            "the translator setting names 'model' but no model is configured: "
            "set --cass-model=ID_OR_PATH (CASS_MODEL) or --cass-model-endpoint=URL (CASS_MODEL_ENDPOINT)"
        )
    store = Store(None if config.no_cache else config.cache_path(env))
    return ModelTranslator(settings, rules, store, validator)
