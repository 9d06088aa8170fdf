"""`cass-data run RECIPE.toml`: the whole chain from one file.

    work = "work"                      # the work folder (store, manifests)
    output = "dataset"                 # the exported dataset
    sources = ["corpus/", "synth:500:1", "hecbench:/tmp/hecfull/src:names.txt", "git+https://...", "hf:path"]
    include = ["corpus/common"]        # folders searched for headers the folder and git sources include (-I)
    licence = "MIT"                    # for sources that do not say
    workers = 2                        # processes (default: the CPU count)
    ray = ""                           # a Ray address, or "local"
    stages = ["collect", "translate", "build", "extract", "verify", "dedup", "split", "export"]

    [settings]                         # context.Settings: sms, translator, lift, execute, timeouts, skip_amd
    sms = ["sm_80", "sm_90"]
    [dedup]                            # dedup.DedupSettings (threshold, eval_threshold, eval_globs, eval_names_file)
    [split]                            # split.SplitSettings (validation, test, seed, group_threshold)
    [export]                           # tokenizer, shard_rows, name, push_to_hub

Relative paths are taken from the recipe's folder.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .context import Settings
from .dedup import DedupSettings
from .split import SplitSettings

ALL_STAGES = ("collect", "translate", "build", "extract", "verify", "dedup", "split", "export")


class RecipeError(Exception):
    pass


@dataclass
class Recipe:
    work: Path
    output: Path
    sources: list[str]
    include: list[Path] = field(default_factory=list)
    licence: str | None = None
    workers: int | None = None
    ray: str | None = None
    stages: tuple[str, ...] = ALL_STAGES
    settings: Settings = field(default_factory=Settings)
    dedup: DedupSettings = field(default_factory=DedupSettings)
    split: SplitSettings = field(default_factory=SplitSettings)
    tokenizer: str = ""
    shard_rows: int = 5000
    name: str = "cass-data pairs"
    push_to_hub: str = ""


def _typed(cls: Any, table: dict[str, Any], path: Path, section: str) -> Any:
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise RecipeError(f"{path}: [{section}] has unknown key(s) {', '.join(unknown)} (known: {', '.join(known)})")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in table.items()}
    return cls(**values)


def _source(text: str, base: Path) -> str:
    """Relative paths in a source are the recipe folder's."""
    if text.startswith(("git+", "synth:")):
        return text
    for prefix in ("hecbench:", "hf:", ""):
        if text.startswith(prefix):
            parts = text[len(prefix):].split(":")
            if prefix == "hf:" and not (base / parts[0]).exists():
                return text  # a Hub name
            resolved = [str(base / q) if q and not Path(q).is_absolute() and not (prefix == "hf:" and i) else q
                        for i, q in enumerate(parts)]
            return prefix + ":".join(resolved)
    return text


def _folders(data: dict[str, Any], base: Path, path: Path) -> list[Path]:
    """`include`: folders, relative to the recipe's (collect checks that they exist, as it does sources)."""
    folders = data.get("include", [])
    if not isinstance(folders, list) or not all(isinstance(d, str) for d in folders):
        raise RecipeError(f"{path}: include must be a list of folder names")
    return [base / d for d in folders]


def load(path: Path) -> Recipe:
    try:
        data = tomllib.loads(path.read_text())
    except OSError as e:
        raise RecipeError(f"{path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise RecipeError(f"{path}: not TOML ({e})") from None
    base = path.resolve().parent
    top = {"work", "output", "sources", "include", "licence", "workers", "ray", "stages", "settings", "dedup", "split", "export"}
    unknown = sorted(set(data) - top)
    if unknown:
        raise RecipeError(f"{path}: unknown key(s) {', '.join(unknown)}")
    if not data.get("sources") and "collect" in data.get("stages", ALL_STAGES):
        raise RecipeError(f"{path}: `sources` is empty")
    stages = tuple(data.get("stages", ALL_STAGES))
    bad = [s for s in stages if s not in ALL_STAGES]
    if bad:
        raise RecipeError(f"{path}: unknown stage(s) {', '.join(bad)} (stages: {', '.join(ALL_STAGES)})")
    dedup = dict(data.get("dedup", {}))
    names_file = dedup.pop("eval_names_file", None)
    if names_file:
        p = base / names_file
        try:
            dedup["eval_names"] = p.read_text().split()
        except OSError as e:
            raise RecipeError(f"{path}: eval_names_file {p}: {e.strerror or e}") from None
    if "eval_globs" in dedup:
        dedup["eval_globs"] = [str(base / g) if not Path(g).is_absolute() else g for g in dedup["eval_globs"]]
    export = dict(data.get("export", {}))
    known_export = {"tokenizer", "shard_rows", "name", "push_to_hub"}
    if set(export) - known_export:
        raise RecipeError(f"{path}: [export] has unknown key(s) {', '.join(sorted(set(export) - known_export))}")
    tokenizer = export.get("tokenizer", "")
    if tokenizer and (base / tokenizer).exists():
        tokenizer = str(base / tokenizer)
    return Recipe(work=base / data.get("work", "work"), output=base / data.get("output", "dataset"),
                  sources=[_source(s, base) for s in data.get("sources", [])], include=_folders(data, base, path),
                  licence=data.get("licence"),
                  workers=data.get("workers"), ray=data.get("ray") or None, stages=stages,
                  settings=_typed(Settings, data.get("settings", {}), path, "settings"),
                  dedup=_typed(DedupSettings, dedup, path, "dedup"),
                  split=_typed(SplitSettings, data.get("split", {}), path, "split"),
                  tokenizer=tokenizer, shard_rows=int(export.get("shard_rows", 5000)),
                  name=export.get("name", "cass-data pairs"), push_to_hub=export.get("push_to_hub", ""))
