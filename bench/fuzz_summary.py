"""Summarise `cass-data fuzz check` reports (JSONL) as a markdown table for bench/results.

    python3 bench/fuzz_summary.py REPORT.jsonl [--label TEXT] [--hours H] > bench/results/fuzz_NAME.md

Per path: kernels checked, same, differs, fault, refused, gap; differences and faults per 1,000
kernels; then every kernel that differed or faulted with its seed:index (the reproducer:
`cass-data fuzz reduce SEED:INDEX --path PATH --against OTHER`).
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict

import click

from cass_cc.click_main import run_click


@click.command(context_settings={"help_option_names": ["-h", "--help"]})  # -h as well: bench/_cli.py's CONTEXT
@click.argument("reports", nargs=-1, required=True)
@click.option("--label", default="")
@click.option("--hours", type=float, default=0.0, help="wall time of the check, for kernels/hour")
def command(reports: tuple[str, ...], label: str, hours: float) -> None:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    kernels: set[tuple[str, int]] = set()
    bad: list[dict] = []
    for path in reports:
        for line in open(path, encoding="utf-8"):
            r = json.loads(line)
            kernels.add((r["seed"], r["index"]))
            counts[r["path"]][r["outcome"]] += 1
            if r["outcome"] in ("differs", "fault"):
                bad.append(r)
    n = len(kernels)
    print(f"# cass-data fuzz: {label or ', '.join(reports)}\n")
    rate = f", {n / hours:.0f} kernels/hour" if hours else ""
    print(f"{n} kernels{rate}.\n")
    print("| path | checked | same | differs | fault | refused | gap | differs+fault per 1,000 |")
    print("|---|---|---|---|---|---|---|---|")
    for p in sorted(counts):
        c = counts[p]
        checked = sum(c.values())
        per = 1000 * (c["differs"] + c["fault"]) / max(checked, 1)
        print(f"| {p} | {checked} | {c['same']} | {c['differs']} | {c['fault']} | {c['refused']} | {c['gap']} | {per:.1f} |")
    if bad:
        print("\n## Kernels that differ or fault (reproducers)\n")
        for r in sorted(bad, key=lambda r: (r["seed"], r["index"], r["path"])):
            print(f"- `{r['seed']}:{r['index']}` {r['path']} {r['outcome']}: {r['detail'][:160]}")


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/fuzz_summary.py")


if __name__ == "__main__":
    raise SystemExit(main())
