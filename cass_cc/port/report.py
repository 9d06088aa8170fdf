"""What `cass-cc port` did, per file and per API family: the text report, JSON, stats table and CSV."""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any

# statuses
TRANSLATED, UNCHANGED, FAILED = "translated", "unchanged", "failed"


@dataclass
class FileResult:
    path: str  # relative to the source tree, with '/'
    kind: str  # "source", "make", "cmake"
    status: str = UNCHANGED
    renamed: dict[str, dict[str, int]] = field(default_factory=dict)  # family -> CUDA name -> occurrences
    unsupported: dict[str, int] = field(default_factory=dict)  # CUDA name -> occurrences in the input
    unsupported_family: dict[str, str] = field(default_factory=dict)  # CUDA name -> family ("unknown" if none)
    diagnostics: list[str] = field(default_factory=list)  # "path:line:col: severity: message"
    rewrites: list[str] = field(default_factory=list)  # build files: "line N: old -> new"
    error: str = ""  # why it failed

    @property
    def renamed_total(self) -> int:
        return sum(sum(names.values()) for names in self.renamed.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kind": self.kind,
            "status": self.status,
            "renamed": self.renamed,
            "renamed_total": self.renamed_total,
            "unsupported": {n: {"count": c, "family": self.unsupported_family.get(n, "unknown")} for n, c in self.unsupported.items()},
            "diagnostics": self.diagnostics,
            "rewrites": self.rewrites,
            "error": self.error or None,
        }


@dataclass
class Report:
    source: str
    output: str | None  # None for --examine
    mode: str  # "output", "inplace", "examine"
    target: dict[str, Any]
    translator: str
    files: list[FileResult] = field(default_factory=list)
    copied: int = 0  # other files mirrored into the output
    # (path, why): left out (a FIFO, socket, device; gone mid-walk) or odd links recreated as they are
    skipped: list[tuple[str, str]] = field(default_factory=list)

    @property
    def failed(self) -> list[FileResult]:
        return [f for f in self.files if f.status == FAILED]

    def counts(self) -> dict[str, int]:
        sources = [f for f in self.files if f.kind == "source"]
        builds = [f for f in self.files if f.kind != "source"]
        return {
            "sources": len(sources),
            "translated": sum(f.status == TRANSLATED for f in sources),
            "unchanged": sum(f.status == UNCHANGED for f in sources),
            "failed": sum(f.status == FAILED for f in self.files),
            "build_files": len(builds),
            "build_files_rewritten": sum(f.status == TRANSLATED for f in builds),
            "copied": self.copied,
        }

    def stats(self) -> dict[str, dict[str, int]]:
        """Family -> converted (occurrences renamed), names (distinct), unsupported (occurrences), files."""
        rows: dict[str, dict[str, Any]] = {}

        def row(family: str) -> dict[str, Any]:
            return rows.setdefault(family, {"converted": 0, "names": set(), "unsupported": 0, "files": set()})

        for f in self.files:
            for family, names in f.renamed.items():
                r = row(family)
                r["converted"] += sum(names.values())
                r["names"].update(names)
                r["files"].add(f.path)
            for name, count in f.unsupported.items():
                r = row(f.unsupported_family.get(name, "unknown"))
                r["unsupported"] += count
                r["files"].add(f.path)
        return {
            family: {"converted": r["converted"], "names": len(r["names"]), "unsupported": r["unsupported"], "files": len(r["files"])}
            for family, r in sorted(rows.items())
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "output": self.output,
            "mode": self.mode,
            "target": self.target,
            "translator": self.translator,
            "summary": self.counts(),
            "stats": self.stats(),
            "files": [f.to_json() for f in self.files],
            "skipped": [{"path": path, "reason": why} for path, why in self.skipped],
        }

    def json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2, sort_keys=False) + "\n"


STATS_COLUMNS = ("family", "converted", "names", "unsupported", "files")


def _stats_rows(report: Report) -> list[list[Any]]:
    stats = report.stats()
    rows: list[list[Any]] = [[family, *(s[c] for c in STATS_COLUMNS[1:])] for family, s in stats.items()]
    files = {f.path for f in report.files if f.renamed or f.unsupported}
    total = ["total", sum(s["converted"] for s in stats.values()), sum(s["names"] for s in stats.values()),
             sum(s["unsupported"] for s in stats.values()), len(files)]
    return rows + [total]


def stats_table(report: Report) -> str:
    rows = [list(STATS_COLUMNS)] + [[str(v) for v in r] for r in _stats_rows(report)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(STATS_COLUMNS))]
    lines = [
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths))).rstrip()
        for r in rows
    ]
    return "\n".join(lines) + "\n"


def stats_csv(report: Report) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STATS_COLUMNS)
    writer.writerows(_stats_rows(report))
    return out.getvalue()


def one_line(text: str) -> str:
    """`text` with control characters escaped: a file named `a\nb.cu` still gives one report line."""
    return "".join(c.encode("unicode_escape").decode() if c != "\t" and (ord(c) < 32 or ord(c) == 127) else c for c in text)


def _families(f: FileResult) -> str:
    parts = [f"{family} {sum(names.values())}" for family, names in sorted(f.renamed.items())]
    return f" ({', '.join(parts)})" if parts else ""


def text_report(report: Report, quiet: bool = False) -> str:
    """Translated and failed files (quiet: failed only) with their warnings, then a summary line."""
    lines: list[str] = []
    for f in report.files:
        noteworthy = f.status != UNCHANGED or f.diagnostics or f.unsupported or f.rewrites
        if not noteworthy or (quiet and f.status != FAILED):
            continue
        if f.status == FAILED:
            lines.append(f"failed      {f.path}: {f.error}")
        elif f.kind == "source":
            lines.append(f"{f.status:<11} {f.path}: {f.renamed_total} names renamed{_families(f)}")
        else:
            lines.append(f"{'rewritten' if f.status == TRANSLATED else 'unchanged':<11} {f.path}")
        lines += [f"  {d}" for d in f.diagnostics]
        if f.unsupported:
            names = ", ".join(f"{n} ({f.unsupported_family.get(n, 'unknown')})" for n in f.unsupported)
            lines.append(f"  unsupported, left as is: {names}")
        lines += [f"  {r}" for r in f.rewrites]
    # even with -q: the ported tree lacks these, or holds links that lead nowhere it has
    lines += [f"warning     {path}: {why}" for path, why in report.skipped]
    c = report.counts()
    verb = "would be" if report.mode == "examine" else "were"
    lines.append(
        f"cass-cc port: {c['sources']} source files: {c['translated']} translated, {c['unchanged']} unchanged, "
        f"{c['failed']} failed; {c['build_files_rewritten']} of {c['build_files']} build files rewritten"
        + (f"; {c['copied']} other files copied" if report.mode == "output" else "")
        + (f"; {len(report.skipped)} warnings" if report.skipped else "")
        + (f" (examined: nothing {verb} written)" if report.mode == "examine" else "")
    )
    return "\n".join(one_line(line) for line in lines) + "\n"
