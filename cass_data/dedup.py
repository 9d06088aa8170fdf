"""`dedup`: decontamination against evaluation suites, exact duplicates (normalised text) and
near duplicates (MinHash LSH, datasketch) among units; then exact duplicates among rows (the
same kernel compiled from two files). Every removal is listed with its reason.

Normalised text: comments dropped, every run of whitespace one space. Near duplicates: Jaccard
similarity of 5-token shingles of that text, estimated by MinHash (128 permutations) and found
by LSH at `threshold`; of a cluster the unit with the smallest id stays.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

NUM_PERM = 128
SHINGLE = 5
_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+(?:\.\d*)?|\S")


@dataclass(frozen=True)
class DedupSettings:
    threshold: float = 0.85  # near duplicates within the data
    eval_threshold: float = 0.7  # near copies of an evaluation task (stricter: lower similarity removes)
    eval_globs: tuple[str, ...] = ()  # evaluation sources (files or folders of .cu/.cpp/.hip)
    eval_names: tuple[str, ...] = ()  # HeCBench dev program names: <name>-cuda/-hip folders, hecbench/<name>


def normalise(text: str) -> str:
    from cass_cc.translate.lexer import tokenize

    body = "".join(t.text for t in tokenize(text) if t.kind != "comment")
    return " ".join(body.split())


def unit_text(unit: dict[str, Any]) -> str:
    return "\n".join(unit["files"][r] for r in sorted(unit["files"]) if r.endswith((".cu", ".cuh", ".h", ".hpp")))


def minhash(text: str) -> Any:
    from datasketch import MinHash

    tokens = _TOKEN.findall(text)
    m = MinHash(num_perm=NUM_PERM, seed=1)
    grams = {" ".join(tokens[i:i + SHINGLE]) for i in range(max(1, len(tokens) - SHINGLE + 1))}
    m.update_batch([g.encode("utf-8") for g in sorted(grams)])
    return m


def eval_sources(globs: Iterable[str]) -> dict[str, str]:
    files: dict[str, str] = {}
    for pattern in globs:
        base = Path(pattern)
        found = sorted(base.rglob("*")) if base.is_dir() else sorted(Path().glob(pattern)) if not base.is_absolute() \
            else sorted(Path("/").glob(pattern.lstrip("/")))
        for p in found:
            if p.is_file() and p.suffix in (".cu", ".cuh", ".hip", ".cpp", ".h"):
                try:
                    files[str(p)] = p.read_text(errors="replace")
                except OSError:
                    continue
    return files


def _named(unit: dict[str, Any], names: set[str]) -> str | None:
    if unit["origin"].startswith("hecbench/") and unit["origin"].split("/", 1)[1] in names:
        return unit["origin"].split("/", 1)[1]
    for part in unit["path"].split("/"):
        for suffix in ("-cuda", "-hip", "-sycl", "-omp"):
            if part.endswith(suffix) and part[: -len(suffix)] in names:
                return part[: -len(suffix)]
    return None


def dedup_units(units: list[dict[str, Any]], s: DedupSettings) -> tuple[list[str], list[dict[str, Any]], dict[str, Any]]:
    """(kept unit ids, removals [{id, reason, detail}], minhashes by id for the split's grouping)."""
    from datasketch import MinHashLSH

    removed: list[dict[str, Any]] = []
    names = set(s.eval_names)
    texts = {u["id"]: normalise(unit_text(u)) for u in units}
    hashes = {uid: minhash(t) for uid, t in texts.items()}
    alive = []
    evals = eval_sources(s.eval_globs)
    eval_hashes = {path: minhash(normalise(t)) for path, t in evals.items()}
    eval_exact = {hashlib.sha256(normalise(t).encode()).hexdigest(): p for p, t in evals.items()}
    eval_lsh = MinHashLSH(threshold=s.eval_threshold, num_perm=NUM_PERM)
    for path, m in eval_hashes.items():
        eval_lsh.insert(path, m)
    for u in sorted(units, key=lambda u: u["id"]):
        uid = u["id"]
        name = _named(u, names)
        if name:
            removed.append({"id": uid, "reason": "decontamination: evaluation program name", "detail": name})
            continue
        exact = eval_exact.get(hashlib.sha256(texts[uid].encode()).hexdigest())
        if exact:
            removed.append({"id": uid, "reason": "decontamination: copy of an evaluation source", "detail": exact})
            continue
        near = sorted(eval_lsh.query(hashes[uid]))
        if near:
            j = max(hashes[uid].jaccard(eval_hashes[p]) for p in near)
            if j >= s.eval_threshold:
                removed.append({"id": uid, "reason": "decontamination: near copy of an evaluation source",
                                "detail": f"{near[0]} (Jaccard ~{j:.2f})"})
                continue
        alive.append(uid)
    seen: dict[str, str] = {}
    kept_exact = []
    for uid in alive:
        digest = hashlib.sha256(texts[uid].encode()).hexdigest()
        if digest in seen:
            removed.append({"id": uid, "reason": "exact duplicate (normalised)", "detail": seen[digest]})
        else:
            seen[digest] = uid
            kept_exact.append(uid)
    lsh = MinHashLSH(threshold=s.threshold, num_perm=NUM_PERM)
    kept = []
    for uid in kept_exact:  # sorted: the smallest id of a cluster stays
        near = sorted(lsh.query(hashes[uid]))
        best = max(((hashes[uid].jaccard(hashes[o]), o) for o in near), default=(0.0, ""))
        if best[0] >= s.threshold:
            removed.append({"id": uid, "reason": "near duplicate (MinHash)", "detail": f"{best[1]} (Jaccard ~{best[0]:.2f})"})
            continue
        lsh.insert(uid, hashes[uid])
        kept.append(uid)
    return kept, removed, hashes


def dedup_rows(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Rows whose (task, input, output) are the same once normalised: the first by id stays."""
    seen: dict[str, str] = {}
    kept, removed = [], []
    for r in sorted(rows, key=lambda r: r["id"]):
        src = r["cuda"] if r["task"] == "cuda-hip" else _asm_norm(r["sass"] or "")
        dst = r["hip"] if r["task"] == "cuda-hip" else _asm_norm(r["rdna3"] or "")
        key = hashlib.sha256("\0".join([r["task"], r.get("sm") or "", normalise(src) if r["task"] == "cuda-hip" else src,
                                        normalise(dst) if r["task"] == "cuda-hip" else dst]).encode()).hexdigest()
        if key in seen:
            removed.append({"id": r["id"], "reason": f"exact duplicate row ({r['task']})", "detail": seen[key]})
        else:
            seen[key] = r["id"]
            kept.append(r)
    return kept, removed


def _asm_norm(text: str) -> str:
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())
