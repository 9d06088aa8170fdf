"""The stages over a work folder. Each per-unit stage reads the previous stage's results from the
store, computes only the keys it does not find, and writes `<work>/<stage>.jsonl` (one line a
unit: id, key, ok, reason) when it is done:

    units.jsonl  translate.jsonl  build-nvidia.jsonl  build-amd.jsonl  extract.jsonl  verify.jsonl
    pairs.jsonl (rows before dedup)  dedup.jsonl + removed.jsonl  split.jsonl  report.json
"""
from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from cass_cc.util import atomic_write_text

from .context import Context, Settings, attach_runner, make_context
from .pool import run_jobs
from .stages import VERSIONS
from .store import Store, digest, stage_key


class PipelineError(Exception):
    pass


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    atomic_write_text(path, "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows))


def read_jsonl(path: Path, what: str) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        raise PipelineError(f"{path}: missing; run `cass-data {what}` first") from None
    try:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as e:
        raise PipelineError(f"{path}: not JSON lines ({e})") from None


@dataclass
class Pipeline:
    work: Path
    settings: Settings = field(default_factory=Settings)
    workers: int = max(1, (os.cpu_count() or 2))
    ray: str | None = None
    progress: bool | None = None
    _ctx: Context | None = None

    def __post_init__(self) -> None:
        self.work = Path(self.work)
        self.store = Store(self.work / "store")
        self.counts: dict[str, Counter[str]] = {}

    @property
    def ctx(self) -> Context:
        if self._ctx is None:
            self._ctx = make_context(self.settings, self.work)
            if self.settings.execute != "never":
                attach_runner(self._ctx)
        return self._ctx

    # ---------------------------------------------------------------- collect
    def collect(self, sources: list[str], licence: str | None = None, include: Sequence[Path] = ()) -> list[dict[str, Any]]:
        from .collect import collect

        units: dict[str, dict[str, Any]] = {}
        for unit in collect(sources, self.work, licence, include):
            units.setdefault(unit["id"], unit)  # the first source that names an id wins
        rows = [units[k] for k in sorted(units)]
        write_jsonl(self.work / "units.jsonl", rows)
        return rows

    def units(self) -> list[dict[str, Any]]:
        return read_jsonl(self.work / "units.jsonl", "collect")

    # ---------------------------------------------------------------- per-unit stages
    def _run(self, stage: str, items: list[tuple[dict[str, Any], str, str, tuple[Any, ...]]]) -> dict[str, dict[str, Any]]:
        """items: (unit, key, stage function, arguments). Returns unit id -> result."""
        results: dict[str, dict[str, Any]] = {}
        todo: list[tuple[dict[str, Any], str, str, tuple[Any, ...]]] = []
        for unit, key, fn, args in items:
            hit = self.store.get(key)
            if hit is None:
                todo.append((unit, key, fn, args))
            else:
                results[unit["id"]] = hit
        count = self.counts.setdefault(stage, Counter())
        count["cached"] += len(items) - len(todo)
        count["computed"] += len(todo)

        def done(i: int, result: dict[str, Any]) -> None:
            if not result.get("internal"):
                self.store.put(todo[i][1], result)

        computed = run_jobs([(fn, args) for _, _, fn, args in todo], self.workers, self.ray, stage, self.progress, done)
        for (unit, _, _, _), result in zip(todo, computed):
            results[unit["id"]] = result
        manifest = []
        for unit, key, _, _ in items:
            r = results[unit["id"]]
            manifest.append({"id": unit["id"], "key": key, "ok": bool(r.get("ok")), "reason": r.get("reason", "")})
        write_jsonl(self.work / f"{stage}.jsonl", manifest)
        return results

    def _load(self, stage: str) -> dict[str, tuple[str, dict[str, Any]]]:
        out = {}
        for line in read_jsonl(self.work / f"{stage}.jsonl", stage.split("-")[0]):
            record = self.store.get(line["key"])
            if record is None:
                raise PipelineError(f"{self.work / (stage + '.jsonl')}: {line['id']} has no stored result; rerun `cass-data {stage.split('-')[0]}`")
            out[line["id"]] = (line["key"], record)
        return out

    def _key(self, stage: str, input_key: Any, *tools: str, **extra: Any) -> str:
        return stage_key(stage, VERSIONS[stage], digest(input_key), {**self.ctx.ident(*tools), **extra})

    def translate(self) -> None:
        ctx = self.ctx
        items = [(u, self._key("translate", u["content"], "translator", hip=list(ctx.hip_version)), "translate", (u, ctx))
                 for u in self.units()]
        self._run("translate", items)

    def build(self) -> None:
        ctx = self.ctx
        units = self.units()
        items = [(u, self._key("build-nvidia", u["content"], "nvcc", sms=list(ctx.settings.sms)), "build_nvidia", (u, ctx))
                 for u in units]
        self._run("build-nvidia", items)
        translated = self._load("translate")
        amd = []
        for u in units:
            tkey, t = translated[u["id"]]
            if not t.get("ok"):
                continue
            amd.append((u, self._key("build-amd", tkey, "clang", "hip", "llvm-mc", skip=ctx.settings.skip_amd), "build_amd",
                        (u, t["hip"], ctx)))
        self._run("build-amd", amd)

    def extract(self) -> None:
        ctx = self.ctx
        nvidia, amd = self._load("build-nvidia"), self._load("build-amd")
        items = []
        for u in self.units():
            nkey, n = nvidia[u["id"]]
            if not n.get("ok"):
                continue
            akey, a = amd.get(u["id"], ("", None))
            items.append((u, self._key("extract", [nkey, akey], "cuobjdump", "nvdisasm", "lifter", "opt", "llc", "llvm-mc",
                                       lift=ctx.settings.lift), "extract", (n, a, ctx)))
        self._run("extract", items)

    def prove(self) -> dict[str, dict[str, Any]]:
        """Lifted kernels beside clang's on the gfx1100 emulator, per unit with both (prove.py)."""
        ctx = self.ctx
        items = []
        if ctx.settings.prove:
            nvidia, amd, extracted = self._load("build-nvidia"), self._load("build-amd"), self._load("extract")
            for u in self.units():
                if u["id"] not in extracted or not amd.get(u["id"], ("", {}))[1].get("ok"):
                    continue
                ekey, e = extracted[u["id"]]
                if not any(p["task"] == "sass-rdna3-lifted" for p in e.get("pairs", [])):
                    continue
                items.append((u, self._key("prove", ekey, "llvm-mc", "ld.lld", "emu"), "prove",
                              (u, nvidia[u["id"]][1], amd[u["id"]][1], e, ctx)))
        return self._run("prove", items)

    def verify(self) -> None:
        """Execution where a GPU is here; then every unit's rows with the highest level reached."""
        proved = self.prove()
        ctx = self.ctx
        translated, nvidia = self._load("translate"), self._load("build-nvidia")
        execute = ctx.settings.execute != "never" and ctx.gpu
        items = []
        if execute:
            for u in self.units():
                tkey, t = translated[u["id"]]
                if t.get("ok") and nvidia[u["id"]][1].get("ok") and u["kind"] != "kernel":
                    run_arch = ctx.settings.run_arch or ctx.settings.sms[-1]
                    items.append((u, self._key("verify", [tkey, u["content"]], "nvcc", "hipnv", "runner", arch=run_arch,
                                               timeout=ctx.settings.run_timeout), "verify", (u, t["hip"], ctx)))
        results = self._run("verify", items)
        self.assemble(results, execute, proved)

    # ---------------------------------------------------------------- rows
    def assemble(self, verified: dict[str, dict[str, Any]], executed_here: bool,
                 proved: dict[str, dict[str, Any]] | None = None) -> None:
        ctx = self.ctx
        translated, nvidia = self._load("translate"), self._load("build-nvidia")
        amd, extracted = self._load("build-amd"), self._load("extract")
        rows: list[dict[str, Any]] = []
        reasons: Counter[str] = Counter()
        kernel_misses: Counter[str] = Counter()
        levels: Counter[str] = Counter()
        proof: Counter[str] = Counter()
        toolchain = json.dumps(dict(sorted(ctx.identity.items())), sort_keys=True)
        for u in self.units():
            uid = u["id"]
            t = translated[uid][1]
            n = nvidia[uid][1]
            a = amd.get(uid, ("", {"ok": False, "reason": "not translated"}))[1]
            v = verified.get(uid)
            pr = (proved or {}).get(uid)
            for stage, r in (("translate", t), ("build-nvidia", n), ("build-amd", a), ("prove", pr), ("verify", v)):
                if r is not None and not r.get("ok"):
                    reasons[f"{stage}: {r.get('reason')}"] += 1
            if not t.get("ok") or not n.get("ok"):
                continue
            e = extracted.get(uid, ("", {"pairs": [], "misses": {}}))[1]
            for why, k in e.get("misses", {}).items():
                kernel_misses[why] += k
            ran_ok = bool(v and v.get("ok"))
            program_level = "executed" if ran_ok else ("compiled" if a.get("ok") else None)
            base = {"origin": u["origin"], "domain": u["domain"], "licence": u["licence"], "unit": uid,
                    "path": u["path"], "toolchain": toolchain, "gfx1100": bool(a.get("ok")) if a.get("reason") != "gfx1100 side skipped" else None,
                    "verify": _verify_note(v, executed_here)}
            if program_level:
                for rel in sorted(r for r in u["files"] if r.endswith(".cu")):
                    rows.append(_row(base, task="cuda-hip", level=program_level, cuda=u["files"][rel], hip=t["hip"][rel],
                                     file=rel, translator=t["translator"]))
            for p in e.get("pairs", []):
                if p["task"] == "sass-rdna3":
                    if not program_level or not a.get("ok"):
                        continue
                    level, translator = program_level, f"{t['translator']} + {ctx.identity.get('clang', 'clang')}"
                    note = base["verify"]
                else:
                    level, note = _proof(pr, p, proof)
                    if level is None:
                        continue
                    translator = ctx.identity.get("lifter", "lifter")
                rows.append(_row(base, task=p["task"], level=level, sass=p["sass"], rdna3=p["rdna3"], sm=p["sm"],
                                 kernel=p["kernel"], file=p["file"], translator=translator, verify=note))
        rows.sort(key=lambda r: r["id"])
        for r in rows:
            levels[f"{r['task']}: {r['level']}"] += 1
        write_jsonl(self.work / "pairs.jsonl", rows)
        report = {"units": len(translated), "rows": len(rows), "levels": dict(sorted(levels.items())),
                  "rejections": dict(sorted(reasons.items())), "kernel_misses": dict(sorted(kernel_misses.items())),
                  "proof": dict(sorted(proof.items())),
                  "stages": {k: dict(v) for k, v in self.counts.items()}, "executed_here": executed_here,
                  "settings": self.settings.to_json()}
        atomic_write_text(self.work / "report.json", json.dumps(report, indent=1, sort_keys=True) + "\n")

    def rows(self) -> list[dict[str, Any]]:
        return read_jsonl(self.work / "pairs.jsonl", "verify")

    def report(self) -> dict[str, Any]:
        try:
            return json.loads((self.work / "report.json").read_text())
        except (OSError, json.JSONDecodeError):
            return {}

    def update_report(self, **parts: Any) -> None:
        report = self.report()
        report.update(parts)
        atomic_write_text(self.work / "report.json", json.dumps(report, indent=1, sort_keys=True) + "\n")


COLUMNS = ("id", "task", "origin", "domain", "cuda", "hip", "sass", "sm", "rdna3", "kernel", "level", "split",
           "toolchain", "translator", "licence", "unit", "path", "file", "gfx1100", "verify")


def _row(base: dict[str, Any], **fields: Any) -> dict[str, Any]:
    row = {c: None for c in COLUMNS}
    row.update(base)
    row.update(fields)
    key = [row["unit"], row["task"], row.get("file"), row.get("kernel"), row.get("sm")]
    row["id"] = hashlib.sha256(json.dumps(key).encode()).hexdigest()[:20]
    return row


def _proof(pr: dict[str, Any] | None, pair: dict[str, Any], counts: Counter[str]) -> tuple[str | None, str]:
    """A lifted pair's level and note from the prove stage (None: rejected), counted by outcome."""
    from .prove import pair_key

    if pr is None:
        counts["compiled: no clang-built kernel to compare with"] += 1
        return "compiled", "emulator: not run (no clang-built kernel of the translation)"
    if not pr.get("ok"):
        counts[f"compiled: {pr.get('reason')}"] += 1
        return "compiled", f"emulator: not run ({pr.get('reason')})"
    r = pr["pairs"].get(pair_key(pair))
    if r is None:
        counts["compiled: no clang-built kernel to compare with"] += 1
        return "compiled", "emulator: not run (kernel not in clang's code)"
    if r["outcome"] == "proven":
        counts["proven"] += 1
        return "proven", f"emulator: {r['detail']}"
    if r["outcome"] == "differs":
        counts[f"rejected: {r['reason']}"] += 1
        return None, ""
    counts[f"compiled: {r['reason']}"] += 1
    detail = f": {r['detail']}" if r.get("detail") else ""
    return "compiled", f"emulator: not proven ({r['reason']}{detail})"[:500]


def _verify_note(v: dict[str, Any] | None, executed_here: bool) -> str:
    if v is None:
        return "not run (no NVIDIA GPU)" if not executed_here else "not run"
    if v.get("ok"):
        return f"ran and agreed ({v.get('original_verdict') or 'no verdict'})"
    return f"{v.get('reason')}"


# -------------------------------------------------------------------- whole-data stages

def run_dedup(p: Pipeline, s: Any) -> None:
    from .dedup import dedup_rows, dedup_units

    units = {u["id"]: u for u in p.units()}
    rows = p.rows()
    with_rows = sorted({r["unit"] for r in rows})
    kept, removed, _ = dedup_units([units[i] for i in with_rows], s)
    keep = set(kept)
    rows = [r for r in rows if r["unit"] in keep]
    rows, removed_rows = dedup_rows(rows)
    write_jsonl(p.work / "dedup.jsonl", [{"id": r["id"]} for r in rows])
    write_jsonl(p.work / "removed.jsonl", removed + removed_rows)
    p.update_report(dedup={"units_in": len(with_rows), "units_kept": len(kept), "rows_kept": len(rows),
                           "removed": dict(Counter(r["reason"] for r in removed + removed_rows))})


def run_split(p: Pipeline, s: Any) -> None:
    from .dedup import minhash, normalise, unit_text
    from .split import assign

    kept = {line["id"] for line in read_jsonl(p.work / "dedup.jsonl", "dedup")}
    rows = [r for r in p.rows() if r["id"] in kept]
    units = {u["id"]: u for u in p.units()}
    used = [units[i] for i in sorted({r["unit"] for r in rows})]
    hashes = {u["id"]: minhash(normalise(unit_text(u))) for u in used}
    where = assign(used, hashes, s)
    write_jsonl(p.work / "split.jsonl", [{"id": r["id"], "split": where[r["unit"]]} for r in rows])
    p.update_report(split=dict(Counter(where[r["unit"]] for r in rows)))


def final_rows(p: Pipeline) -> list[dict[str, Any]]:
    split = {line["id"]: line["split"] for line in read_jsonl(p.work / "split.jsonl", "split")}
    rows = []
    for r in p.rows():
        if r["id"] in split:
            rows.append({**r, "split": split[r["id"]]})
    return rows


def run_export(p: Pipeline, out: Path, tokenizer: str, shard_rows: int = 5000, name: str = "cass-data pairs") -> dict[str, Any]:
    from .export import export

    try:
        removed = read_jsonl(p.work / "removed.jsonl", "dedup")
    except PipelineError:
        removed = []
    return export(final_rows(p), Path(out), p.report(), removed, tokenizer, shard_rows, name)
