"""Results as a table and a one-line summary (JSON lines come from Result.to_json)."""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from .runner import Result


def _side(r: Result, which: str) -> str:
    side = getattr(r, which)
    if not side.built:
        return "not built" if side.build_log or which == "translation" else "-"
    if side.run is None:
        return "built"
    verdict = side.run.verdict
    return side.run.status + (f" {verdict}" if verdict else "")


def table(results: Sequence[Result]) -> str:
    rows = [("case", "level", "gfx1100", "original", "translation", "why")]
    for r in results:
        amd = "-" if r.amd is None else "yes" if r.amd else "no"
        rows.append((r.name, r.level, amd, _side(r, "original"), _side(r, "translation"), "; ".join(r.reasons)[:100]))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row[:5], widths)) + "  " + row[5] for row in rows)


def summary_line(results: Sequence[Result]) -> str:
    levels = Counter(r.level for r in results)
    parts = [f"{n} {level}" for level, n in sorted(levels.items(), key=lambda kv: -kv[1])]
    return f"cass-cc verify: {len(results)} case(s): " + ", ".join(parts)
