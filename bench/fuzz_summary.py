"""Summarise `cass-data fuzz check` reports (JSONL) as a markdown table for bench/results.

    python3 bench/fuzz_summary.py REPORT.jsonl [--label TEXT] [--hours H] > bench/results/fuzz_NAME.md

Per path: kernels checked, same, differs, fault, refused, gap; differences and faults per 1,000
kernels; then every kernel that differed or faulted with its seed:index (the reproducer:
`cass-data fuzz reduce SEED:INDEX --path PATH --against OTHER`).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--label", default="")
    ap.add_argument("--hours", type=float, default=0.0, help="wall time of the check, for kernels/hour")
    args = ap.parse_args()
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    kernels: set[tuple[str, int]] = set()
    bad: list[dict] = []
    for path in args.reports:
        for line in open(path, encoding="utf-8"):
            r = json.loads(line)
            kernels.add((r["seed"], r["index"]))
            counts[r["path"]][r["outcome"]] += 1
            if r["outcome"] in ("differs", "fault"):
                bad.append(r)
    n = len(kernels)
    print(f"# cass-data fuzz: {args.label or ', '.join(args.reports)}\n")
    rate = f", {n / args.hours:.0f} kernels/hour" if args.hours else ""
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


if __name__ == "__main__":
    main()
