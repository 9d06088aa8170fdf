"""Training examples from the recipe's sources: a cass_data export (a folder of Parquet
shards and its dataset card), Parquet or JSONL files, or a Hugging Face dataset (hf:ORG/NAME).

A row gives a source example when its CUDA and HIP columns are both non-empty, an
assembly example when its SASS and RDNA3 columns are; a task column, when the table has
one, picks which (cass_data's `cuda-hip`, `sass-rdna3`, `sass-rdna3-lifted`; recipe.TASK_VALUES).
A level column filters by verification level when data.levels names some. Rows belong to
a split by a split column, else by their file's name (`data/train-00000-of-00002.parquet`,
`validation.jsonl`, or a folder named after the split), else to `train`.

Prompts and answers come from cass_cc.model.prompts, the module cass-cc's model
translator asks with, so training and inference cannot disagree.
"""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from cass_cc.model.prompts import ASSEMBLY, SOURCE, Format
from cass_cc.translate.prelude import split_prelude

from .recipe import TASK_VALUES, Columns, Data, RecipeError, Source

FORMATS = {"source": SOURCE, "assembly": ASSEMBLY}
# task -> (input column, output column) as attribute names of Columns
SIDES = {"source": ("cuda", "hip"), "assembly": ("sass", "rdna3")}


@dataclass(frozen=True)
class Example:
    task: str
    prompt: str
    answer: str
    origin: str
    source: str


@dataclass
class SourceCount:
    name: str
    rows: int = 0
    examples: dict[str, int] = field(default_factory=dict)  # task -> examples (before weighting)
    weighted: int = 0  # examples per epoch after the weight
    validation: int = 0
    card: dict[str, Any] = field(default_factory=dict)  # split -> rows, from the dataset card's YAML
    card_counts: str = ""  # the dataset card's "## Counts" section (markdown)


def answer_text(fmt: Format, code: str) -> str:
    """The answer the model learns: the code in the format's answer fence, exactly what
    fmt.extract() gives back (the body always ends in a newline)."""
    body = code if code.endswith("\n") else code + "\n"
    return f"```{fmt.answer_fence}\n{body}```"


def make_example(task: str, code_in: str, code_out: str, origin: str, source: str, answer: str = "whole") -> Example:
    """The prompt holds the input exactly as cass-cc sends a file (Format.prompt of its text);
    with answer="body" a source answer leaves out the rules' prelude (cass-cc adds it back)."""
    fmt = FORMATS[task]
    if task == "source" and answer == "body":
        code_out = split_prelude(code_out)[1]
    return Example(task, fmt.prompt(code_in), answer_text(fmt, code_out), origin, source)


# ---- reading tables -------------------------------------------------------------------

def _files(src: Source) -> list[tuple[Path, str]]:
    """(file, kind) for a local source; kind is parquet or jsonl."""
    p = Path(src.path)
    if not p.exists():
        raise RecipeError(f"{src.path}: no such file or folder (data.sources)")
    kinds = {".parquet": "parquet", ".jsonl": "jsonl", ".json": "jsonl"}
    if p.is_file():
        kind = src.format if src.format in ("parquet", "jsonl") else kinds.get(p.suffix)
        if kind is None:
            raise RecipeError(f"{src.path}: not a .parquet or .jsonl file (set format)")
        return [(p, kind)]
    found = []
    for suffix, kind in (("*.parquet", "parquet"), ("*.jsonl", "jsonl")):
        if src.format in ("auto", kind):
            found += [(f, kind) for f in sorted(p.rglob(suffix)) if not any(part.startswith(".") for part in f.relative_to(p).parts)]
    if not found:
        raise RecipeError(f"{src.path}: no .parquet or .jsonl files in this folder")
    return found


def _file_split(path: Path, root: Path) -> str | None:
    """The split a file's name gives (HF layout: data/train-00000-of-00002.parquet)."""
    stem = path.name.split(".")[0]
    head = stem.split("-")[0]
    for name in (head, stem):
        if name in ("train", "validation", "valid", "val", "test", "dev"):
            return name
    rel = path.relative_to(root).parts[:-1] if path.is_relative_to(root) else ()
    for part in reversed(rel):
        if part in ("train", "validation", "valid", "val", "test", "dev"):
            return part
    return None


def _read_table(path: Path, kind: str, wanted: set[str]) -> list[dict[str, Any]]:
    if kind == "parquet":
        import pyarrow.parquet as pq

        try:
            schema = pq.read_schema(path)
            cols = [c for c in schema.names if c in wanted]
            return list(pq.read_table(path, columns=cols).to_pylist())
        except Exception as e:  # pyarrow raises several types for a broken file
            raise RecipeError(f"{path}: cannot read Parquet: {_one_line(e)}") from None
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    row = json.loads(line)
                    if not isinstance(row, dict):
                        raise ValueError(f"line {n} is not a JSON object")
                    rows.append({k: v for k, v in row.items() if k in wanted})
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise RecipeError(f"{path}: cannot read JSONL: {_one_line(e)}") from None
    return rows


def _hub_rows(src: Source, split: str, wanted: set[str]) -> list[dict[str, Any]] | None:
    name = src.path.removeprefix("hf:")
    try:
        import datasets
    except ImportError:
        raise RecipeError(f"{src.path}: reading a Hugging Face dataset needs `datasets` (pip install 'cass-cc[train]')") from None
    try:
        names = datasets.get_dataset_split_names(name)
    except Exception as e:
        raise RecipeError(f"{src.path}: cannot open the dataset: {_one_line(e)}") from None
    if split not in names:
        return None
    ds = datasets.load_dataset(name, split=split)
    keep = [c for c in ds.column_names if c in wanted]
    return list(ds.select_columns(keep).to_list())


def read_rows(src: Source, columns: Columns, split: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The rows of `split` in `src` and the names of the tables read (for messages)."""
    wanted = set(vars(columns).values())
    if src.format == "hub" or src.path.startswith("hf:"):
        rows = _hub_rows(src, split, wanted)
        return rows or [], [src.path]
    out: list[dict[str, Any]] = []
    files = _files(src)
    root = Path(src.path)
    for path, kind in files:
        by_name = _file_split(path, root) if root.is_dir() else None
        table = _read_table(path, kind, wanted)
        for row in table:
            row_split = row.get(columns.split) or by_name or "train"
            if _same_split(str(row_split), split):
                out.append(row)
    return out, [str(f) for f, _ in files]


def _same_split(a: str, b: str) -> bool:
    alias = {"valid": "validation", "val": "validation", "dev": "validation"}
    return alias.get(a, a) == alias.get(b, b)


def row_examples(row: dict[str, Any], columns: Columns, tasks: Iterable[str], source: str,
                 task_values: dict[str, str] | None = None, levels: Iterable[str] = (), answer: str = "whole") -> list[Example]:
    values = {**TASK_VALUES, **(task_values or {})}
    declared = row.get(columns.task)
    kind = values.get(str(declared)) if declared else None
    if declared and kind == "":
        return []  # a task value mapped to "": skipped
    levels = set(levels)
    if levels and str(row.get(columns.level) or "") not in levels:
        return []
    origin = str(row.get(columns.origin) or "")
    out = []
    for task in tasks:
        if kind is not None and kind != task:
            continue
        a, b = (getattr(columns, side) for side in SIDES[task])
        code_in, code_out = row.get(a), row.get(b)
        if isinstance(code_in, str) and isinstance(code_out, str) and code_in.strip() and code_out.strip():
            out.append(make_example(task, code_in, code_out, origin, source, answer))
    return out


def dataset_card(src: Source) -> tuple[dict[str, Any], str]:
    """What the source's dataset card (README.md beside its data) says it holds: split sizes
    from a Hugging Face YAML header (dataset_info.splits[].num_examples), and the card's
    "## Counts" section as written (cass_data's export: per task, domain, level, split)."""
    if src.path.startswith("hf:") or src.format == "hub":
        return {}, ""
    p = Path(src.path)
    folder = p if p.is_dir() else p.parent
    card = next((f / "README.md" for f in (folder, folder.parent) if (f / "README.md").is_file()), None)
    if card is None:
        return {}, ""
    text = card.read_text(errors="replace")
    return _yaml_split_counts(text), _section(text, "## Counts")


def _section(text: str, heading: str) -> str:
    lines = text.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip().lower() == heading.lower())
    except StopIteration:
        return ""
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[start + 1:end]).strip()


def _yaml_split_counts(text: str) -> dict[str, Any]:
    if not text.startswith("---"):
        return {}
    end = text.find("\n---", 3)
    if end < 0:
        return {}
    try:
        import yaml

        meta = yaml.safe_load(text[3:end]) or {}
    except Exception:
        return {}
    info = meta.get("dataset_info") if isinstance(meta, dict) else None
    infos = info if isinstance(info, list) else [info] if isinstance(info, dict) else []
    counts: dict[str, Any] = {}
    for item in infos:
        for s in (item or {}).get("splits") or []:
            if isinstance(s, dict) and "name" in s and "num_examples" in s:
                counts[str(s["name"])] = s["num_examples"]
    return counts


# ---- the examples of a recipe ---------------------------------------------------------

@dataclass
class Examples:
    train: list[Example]
    validation: list[Example]
    counts: list[SourceCount]


def load_examples(data: Data) -> Examples:
    tasks = ("source", "assembly") if data.task == "both" else (data.task,)
    rng = random.Random(data.seed)
    train: list[Example] = []
    validation: list[Example] = []
    counts = []
    fraction = _fraction(data.validation)
    for src in data.sources:
        name = src.name or src.path
        card, card_counts = dataset_card(src)
        count = SourceCount(name, card=card, card_counts=card_counts)
        rows, files = read_rows(src, data.columns, src.split)
        _check_columns(rows, data.columns, tasks, name, files)
        count.rows = len(rows)
        mine = [e for row in rows for e in row_examples(row, data.columns, tasks, name, data.task_values, data.levels, data.answer)]
        for task in tasks:
            count.examples[task] = sum(e.task == task for e in mine)
        if fraction is not None:
            held = [e for e in mine if _held_out(e, fraction, data.seed)]
            mine = [e for e in mine if not _held_out(e, fraction, data.seed)]
            validation += held
            count.validation = len(held)
        elif data.validation and not _same_split(data.validation, src.split):
            vrows, _ = read_rows(src, data.columns, data.validation)
            held = [e for row in vrows for e in row_examples(row, data.columns, tasks, name, data.task_values, data.levels, data.answer)]
            validation += held
            count.validation = len(held)
        weighted = _weighted(mine, src.weight, rng)
        count.weighted = len(weighted)
        train += weighted
        counts.append(count)
    if not train:
        raise RecipeError(f"no training examples for task {data.task!r} in {', '.join(s.path for s in data.sources)}")
    if len(validation) > data.max_validation:
        validation = rng.sample(validation, data.max_validation)
    return Examples(train, validation, counts)


def _check_columns(rows: list[dict[str, Any]], columns: Columns, tasks: tuple[str, ...], name: str, files: list[str]) -> None:
    if not rows:
        return
    present = set().union(*(r.keys() for r in rows[:100]))
    usable = [t for t in tasks if all(getattr(columns, s) in present for s in SIDES[t])]
    if not usable:
        need = " or ".join("+".join(getattr(columns, s) for s in SIDES[t]) for t in tasks)
        raise RecipeError(f"{files[0] if len(files) == 1 else name}: no columns {need} (map them with [data.columns])")


def _fraction(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    if not 0 < value < 1:
        raise RecipeError(f"data.validation: a fraction must be between 0 and 1, not {text}")
    return value


def _held_out(e: Example, fraction: float, seed: int) -> bool:
    """By origin (a program family or repository never spans train and validation)."""
    key = e.origin or e.prompt
    h = int.from_bytes(hashlib.sha256(f"{seed}\0{key}".encode()).digest()[:8], "big")
    return h / 2**64 < fraction


def _weighted(examples: list[Example], weight: float, rng: random.Random) -> list[Example]:
    whole, part = int(weight), weight - int(weight)
    out = examples * whole
    if part > 0:
        out += rng.sample(examples, round(part * len(examples)))
    return out


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return (text[:300] + "...") if len(text) > 300 else text or type(e).__name__
