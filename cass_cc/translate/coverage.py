"""Generate the coverage document (Markdown): the inventory of CUDA's names, then the mapping tables.

    python -m cass_cc.translate.coverage [-o docs/coverage.md]

Part 1, from cass_cc/inventory/data (names.tsv, statuses.tsv): per group, kind and header, how many
of CUDA's public names work, are served, refused or fail through cass-cc, and every name that fails
in the runtime/device/math groups. Part 2, from `mappings/*.tsv`: per family, row counts by status,
then every row (CUDA name, HIP name, kind, status, HIP version). The checked-in docs/coverage.md
must equal this output (tests/translate/test_coverage.py).
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ..click_main import run_click
from . import mappings

STATUS_ORDER = ("supported", "deprecated", "removed", "unsupported")


def family_counts() -> dict[str, dict[str, int]]:
    """Family -> status -> number of rows (every status present, zeros included)."""
    return {
        family: {status: sum(1 for row in rows if row.status == status) for status in STATUS_ORDER}
        for family, rows in mappings.rows_by_family().items()
    }


def _cell(text: str) -> str:
    return f"`{text}`" if text else ""


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def inventory_counts() -> dict[str, dict[str, dict[str, int]]]:
    """{"group"|"kind"|"header": {value: {status: n}}} over the inventory (names without a status: "none")."""
    from ..inventory import data

    status_of = {s.key: s.status for s in data.statuses()}
    out: dict[str, dict[str, dict[str, int]]] = {"group": {}, "kind": {}, "header": {}}
    for n in data.names():
        status = status_of.get(n.key, "none")
        for axis, value in (("group", n.group), ("kind", n.kind), ("header", n.header)):
            out[axis].setdefault(value, {s: 0 for s in (*data.STATUSES, "none")})[status] += 1
    return out


def _status_table(title: str, rows: dict[str, dict[str, int]], order: list[str]) -> list[str]:
    from ..inventory.data import STATUSES

    lines = [f"| {title} | names | works | served | refused | fails | works+served |", "|---|---:|---:|---:|---:|---:|---:|"]
    for value in order:
        c = rows[value]
        total = sum(c.values())
        cells = " | ".join(f"{c[s]} ({_pct(c[s], total)})" for s in STATUSES)
        lines.append(f"| {value} | {total} | {cells} | {_pct(c['works'] + c['served'], total)} |")
    return lines


def _gap_rows(names: list, statuses: dict, top: int = 25) -> list[str]:
    import re

    clusters: dict[tuple[str, str, str], list[str]] = {}
    for n in names:
        s = statuses.get(n.key)
        if s is not None and s.status == "fails":
            reason = re.sub(r"'[^']*'", "X", s.reason)
            clusters.setdefault((n.header, n.kind, reason), []).append(f"{n.scope}::{n.name}" if n.scope else n.name)
    ranked = sorted(clusters.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:top]
    return [f"| {len(v)} | {h} | {k} | {r.replace('|', '/')} | `{v[0]}` |" for (h, k, r), v in ranked]


def render_inventory() -> list[str]:
    from ..inventory import data

    names = data.names()
    statuses = {s.key: s for s in data.statuses()}
    counts = inventory_counts()
    groups = [g for g in data.GROUPS if g in counts["group"]]
    target = {s: sum(counts["group"][g][s] for g in data.TARGET_GROUPS if g in counts["group"]) for s in (*data.STATUSES, "none")}
    total_target = sum(target.values())
    lines = [
        "## CUDA's public names through cass-cc (the inventory)",
        "",
        "Names from CUDA 13's and CUDA 12.9's own headers (`python -m cass_cc.inventory.extract`), each used",
        "once in generated code compiled for gfx1100 on HIP 5.2 through cass-cc (`python -m cass_cc.translate.status`;",
        "cass_cc/inventory/README.md). works: translates and compiles; served: compiles through something",
        "cass-cc provides (prelude, shim, rewrite); refused: cass-cc says why with a message naming it;",
        "fails: a gap.",
        "",
        f"**runtime, device, math, fp16 and bf16 names: {target['works'] + target['served']} of {total_target} work or are served "
        f"({_pct(target['works'] + target['served'], total_target)}); {target['refused']} refused, {target['fails']} fail"
        + (f", {target['none']} without a status" if target["none"] else "") + ".**",
        "",
        *_status_table("group", counts["group"], groups),
        "",
        *_status_table("kind", counts["kind"], [k for k in data.KINDS if k in counts["kind"]]),
        "",
        "### Per header",
        "",
        *_status_table("header", counts["header"], sorted(counts["header"], key=lambda h: (groups.index(data.group_of(h)) if data.group_of(h) in groups else 99, h))),
        "",
        "### Largest gaps (names that fail, all groups, by header and first error)",
        "",
        "| names | header | kind | first error (names quoted as X) | e.g. |",
        "|---:|---|---|---|---|",
        *_gap_rows(names, statuses),
        "",
        "### Names that fail (runtime, device, math, fp16, bf16)",
        "",
        "| name | kind | header | first error |",
        "|---|---|---|---|",
    ]
    for n in names:
        s = statuses.get(n.key)
        if s is not None and s.status == "fails" and n.group in data.TARGET_GROUPS:
            shown = f"{n.scope}::{n.name}" if n.scope else n.name
            lines.append(f"| `{shown}` | {n.kind} | {n.header} | {s.reason.replace('|', '/')} |")
    return lines


def render() -> str:
    by_family = mappings.rows_by_family()
    counts = family_counts()
    lines = [
        "# CUDA -> HIP coverage",
        "",
        "Generated by `python -m cass_cc.translate.coverage -o docs/coverage.md` from",
        "`cass_cc/inventory/data/*.tsv` and `cass_cc/translate/mappings/*.tsv`; do not edit by hand.",
        "",
        *render_inventory(),
        "",
        "## Mapping tables",
        "",
        "HIP version: the lowest HIP that has the name (empty: any HIP 5.x). unsupported: HIP has no",
        "counterpart (or none known).",
        "",
        "### Summary",
        "",
        "| family | rows | " + " | ".join(STATUS_ORDER) + " |",
        "|---|---:|" + "---:|" * len(STATUS_ORDER),
    ]
    for family, by_status in counts.items():
        total = sum(by_status.values())
        lines.append(f"| {family} | {total} | " + " | ".join(str(by_status[s]) for s in STATUS_ORDER) + " |")
    grand = {s: sum(c[s] for c in counts.values()) for s in STATUS_ORDER}
    lines.append(f"| **all** | {sum(grand.values())} | " + " | ".join(str(grand[s]) for s in STATUS_ORDER) + " |")
    for family, rows in by_family.items():
        lines += ["", f"### {family}", "", "| CUDA | HIP | kind | status | HIP version |", "|---|---|---|---|---|"]
        for row in sorted(rows, key=lambda r: (r.kind, r.cuda_name)):
            version = ".".join(map(str, row.hip_version)) if row.hip_version else ""
            lines.append(f"| {_cell(row.cuda_name)} | {_cell(row.hip_name)} | {row.kind} | {row.status} | {version} |")
    return "\n".join(lines) + "\n"


@click.command(help=__doc__.splitlines()[0])
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="write here instead of stdout")
def command(output: Path | None) -> int:
    text = render()
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "python -m cass_cc.translate.coverage")


if __name__ == "__main__":
    raise SystemExit(main())
