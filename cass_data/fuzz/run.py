"""Checking many batches: unpack a truth archive, check each batch in a worker, append every
kernel's outcome to a JSONL report, and summarise (kernels/hour, outcomes per path, defects per
1,000 kernels).
"""
from __future__ import annotations

import json
import tarfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable

from . import batch as batchmod


def unpack(tar: Path, into: Path) -> list[Path]:
    """The archive's batches as folders, their sources and inputs regenerated (meta.json says which)."""
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tar) as t:
        for m in t.getmembers():
            if not m.isfile() or "/" not in m.name or ".." in m.name or m.name.startswith("/"):
                raise SystemExit(f"{tar}: unexpected member {m.name!r}")
        t.extractall(into, filter="data")
    folders = sorted(p.parent for p in into.glob("*/meta.json"))
    for f in folders:
        if not (f / "fz.cu").exists():
            meta = json.loads((f / "meta.json").read_text())
            batchmod.write(f, meta["seed"], meta["batch"], meta["size"])
            if json.loads((f / "meta.json").read_text())["sha256"] != meta["sha256"]:
                (f / "meta.json").write_text(json.dumps(meta) + "\n")  # keep the truth's digest: check refuses
    return folders


def _check(args: tuple[Path, tuple[str, ...]]) -> list[dict[str, Any]]:
    from .check import check_batch

    return check_batch(*args)


def finished(report: Path, size: int = batchmod.SIZE) -> set[tuple[str, int]]:
    """(seed, batch) of every batch the report already holds whole; a line cut off by a killed run
    is dropped from the file, so that the records appended next start on a line of their own."""
    if not report.exists():
        return set()
    text = report.read_text()
    if text and not text.endswith("\n"):
        text = text[:text.rfind("\n") + 1]
        report.write_text(text)
    indices: dict[tuple[str, int], set[int]] = {}
    for line in text.splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        indices.setdefault((r["seed"], r["index"] // size), set()).add(r["index"])
    return {b for b, seen in indices.items() if len(seen) == size}


def check_all(folders: list[Path], paths: tuple[str, ...], jobs: int, report: Path,
              progress: Callable[[str], None]) -> dict[str, Any]:
    start = time.time()
    counts: Counter[tuple[str, str]] = Counter()
    kernels = 0
    differs: list[dict[str, Any]] = []
    with report.open("a") as out, ProcessPoolExecutor(jobs) as pool:
        for i, recs in enumerate(pool.map(_check, [(f, paths) for f in folders])):
            for r in recs:
                out.write(json.dumps(r) + "\n")
                counts[(r["path"], r["outcome"])] += 1
                if r["outcome"] in ("differs", "fault"):
                    differs.append(r)
            out.flush()
            kernels += len({r["index"] for r in recs})
            elapsed = time.time() - start
            progress(f"[{i + 1}/{len(folders)}] {kernels} kernels, {kernels * 3600 / max(elapsed, 1e-9):.0f}/hour; "
                     + ", ".join(f"{p} {o} {n}" for (p, o), n in sorted(counts.items()) if o != "same"))
    elapsed = time.time() - start
    return {"kernels": kernels, "seconds": round(elapsed, 1), "kernels_per_hour": round(kernels * 3600 / max(elapsed, 1e-9)),
            "counts": {f"{p} {o}": n for (p, o), n in sorted(counts.items())}, "differs": differs}
