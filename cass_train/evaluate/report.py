"""Tables from records: per domain and in total, as markdown, CSV and JSON, a bar chart, and every
failure with its first error line.

Source task columns: programs, translated, compiled for gfx1100 (compile accuracy), ran and
passed on NVIDIA (execution accuracy; '-' when nothing ran), geometric-mean runtime and
peak-memory ratios (translation / original) over the programs that passed.
Assembly task columns: kernels, translated, assembled (llvm-mc), linked, equivalent on the
emulator, and how many were checked there.
"""
from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any, Sequence

from cass_cc.util import atomic_write_bytes, atomic_write_text


def _geomean(values: list[float]) -> float | None:
    vals = [v for v in values if v and v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100.0 * n / d:.1f}%)" if d else "-"


def source_rows(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault(r["domain"], []).append(r)
    rows = []
    for domain in sorted(groups) + ["total"]:
        rs = list(records) if domain == "total" else groups[domain]
        ran = [r for r in rs if r.get("ran") is not None]
        rows.append({
            "domain": domain, "programs": len(rs),
            "translated": sum(bool(r["translated"]) for r in rs),
            "compiled": sum(r.get("compiled") is True for r in rs),
            "compile_checked": sum(r.get("compiled") is not None for r in rs),
            "ran": len(ran), "passed": sum(r.get("passed") is True for r in rs),
            "runtime_ratio": _geomean([r["runtime_ratio"] for r in rs if r.get("passed") and r.get("runtime_ratio")]),
            "memory_ratio": _geomean([r["memory_ratio"] for r in rs if r.get("passed") and r.get("memory_ratio")]),
        })
    for row in rows:
        row["compile_accuracy"] = row["compiled"] / row["programs"] if row["compile_checked"] else None
        row["execution_accuracy"] = row["passed"] / row["programs"] if row["ran"] else None
    return rows


def assembly_rows(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault(r["domain"], []).extend(r["kernels"])  # a program whose cubin failed counts as one kernel ("*")
    rows = []
    every = [k for ks in groups.values() for k in ks]
    for domain in sorted(groups) + ["total"]:
        ks = every if domain == "total" else groups[domain]
        rows.append({
            "domain": domain, "kernels": len(ks), "translated": sum(k["translated"] for k in ks),
            "assembled": sum(k["assembled"] for k in ks), "linked": sum(k["linked"] for k in ks),
            "checked": sum(k["equivalent"] is not None for k in ks), "equivalent": sum(k["equivalent"] is True for k in ks),
        })
    for row in rows:
        row["assembly_accuracy"] = row["assembled"] / row["kernels"] if row["kernels"] else None
    return rows


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def markdown(rows: list[dict[str, Any]], task: str) -> str:
    if task == "source":
        head = ["domain", "programs", "translated", "compiled gfx1100", "passed on NVIDIA", "runtime ratio", "memory ratio"]
        body = [[r["domain"], str(r["programs"]), str(r["translated"]),
                 _pct(r["compiled"], r["programs"]) if r["compile_checked"] else "not compiled",
                 _pct(r["passed"], r["programs"]) if r["ran"] else "not run",
                 _fmt(r["runtime_ratio"]), _fmt(r["memory_ratio"])] for r in rows]
    else:
        head = ["domain", "kernels", "translated", "assembled", "linked", "equivalent (checked)"]
        body = [[r["domain"], str(r["kernels"]), str(r["translated"]), _pct(r["assembled"], r["kernels"]), str(r["linked"]),
                 f"{r['equivalent']} ({r['checked']})" if r["checked"] else "not run"] for r in rows]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for b in body:
        if b[0] == "total":
            b = [f"**{c}**" for c in b]
        lines.append("| " + " | ".join(b) + " |")
    return "\n".join(lines) + "\n"


def to_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else v) for k, v in r.items()})
    return out.getvalue()


def failures(records: Sequence[dict[str, Any]], task: str) -> list[dict[str, str]]:
    """Every failure with its first error line, in suite order."""
    out = []
    for r in records:
        if task == "assembly":
            for k in r["kernels"]:
                if not k["assembled"] or k["equivalent"] is False:
                    out.append({"program": r["program"], "kernel": k["demangled"], "sm": str(k["sm"]), "stage":
                                "translate" if not k["translated"] else ("assemble" if not k["assembled"] else "equivalence"),
                                "error": k["error"]})
            continue
        if not r["translated"]:
            out.append({"program": r["program"], "stage": "translate", "error": r["translate_error"]})
        elif r.get("compiled") is False:
            out.append({"program": r["program"], "stage": "compile gfx1100", "error": r["compile_error"]})
        if r.get("passed") is False:
            out.append({"program": r["program"], "stage": "run on NVIDIA", "error": r.get("exec_error", "")})
        if r.get("original_passed") is False:
            out.append({"program": r["program"], "stage": "CUDA original on NVIDIA (a suite or machine problem)",
                        "error": "the original did not print PASS"})
    return out


def chart(rows: list[dict[str, Any]], task: str, title: str, path: Path) -> bool:
    """A bar chart of the accuracies per domain (PNG); False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    labels = [r["domain"] for r in rows]
    if task == "source":
        series = []
        if any(r["compile_checked"] for r in rows):
            series.append(("compile (gfx1100)", [r["compile_accuracy"] or 0.0 for r in rows]))
        if any(r["ran"] for r in rows):
            series.append(("execution (NVIDIA)", [r["execution_accuracy"] or 0.0 for r in rows]))
        if not series:
            series = [("translated", [r["translated"] / r["programs"] if r["programs"] else 0.0 for r in rows])]
    else:
        series = [("assembled", [r["assembly_accuracy"] or 0.0 for r in rows]),
                  ("equivalent", [r["equivalent"] / r["kernels"] if r["kernels"] else 0.0 for r in rows])]
    fig, ax = plt.subplots(figsize=(max(8, 0.6 * len(labels) + 2), 4.5))
    width = 0.8 / len(series)
    for i, (name, values) in enumerate(series):
        ax.bar([x + i * width for x in range(len(labels))], [100 * v for v in values], width, label=name)
    ax.set_xticks([x + width * (len(series) - 1) / 2 for x in range(len(labels))])
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("%")
    ax.set_ylim(0, 105)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    atomic_write_bytes(path, buf.getvalue())
    return True


def write_all(records: Sequence[dict[str, Any]], task: str, out: Path, meta: dict[str, Any]) -> list[dict[str, Any]]:
    """results.jsonl, table.md, table.csv, summary.json, failures.md and chart.png under `out`."""
    rows = source_rows(records) if task == "source" else assembly_rows(records)
    fails = failures(records, task)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "results.jsonl", "".join(json.dumps(r, sort_keys=True) + "\n" for r in records))
    atomic_write_text(out / "table.md", markdown(rows, task))
    atomic_write_text(out / "table.csv", to_csv(rows))
    atomic_write_text(out / "summary.json", json.dumps({**meta, "task": task, "rows": rows, "failures": fails}, indent=1) + "\n")
    lines = [f"# Failures ({len(fails)})", ""]
    lines += [f"- {f['program']}" + (f" / {f['kernel']} (sm_{f['sm']})" if "kernel" in f else "") + f" [{f['stage']}]: {f['error']}"
              for f in fails]
    atomic_write_text(out / "failures.md", "\n".join(lines) + "\n")
    chart(rows, task, f"{meta.get('translator', '')} on {meta.get('suite', '')} ({task})", out / "chart.png")
    return rows
