"""The content-addressed result store: one JSON file per (stage, input, settings, tool versions).

    store = Store(Path("work/store"))
    key = stage_key("build", input_key, settings)      # sha256 of everything that changes the result
    store.get(key) -> dict | None;  store.put(key, record)

A record is written atomically (a temporary file renamed into place), so a killed run leaves
either the whole record or nothing; a rerun with nothing changed finds every key and does no work.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cass_cc.util import atomic_write_text


def digest(value: Any) -> str:
    """sha256 of a JSON value, written canonically (sorted keys, no spaces)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stage_key(stage: str, version: int, input_key: str, settings: Any) -> str:
    return digest(["cass-data", stage, version, input_key, settings])


class Store:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key[2:]}.json"

    def has(self, key: str) -> bool:
        return self.path(key).is_file()

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            text = self.path(key).read_text(encoding="utf-8")
        except OSError:
            return None
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            return None  # cannot happen with atomic writes; treat as missing and recompute
        return value if isinstance(value, dict) else None

    def put(self, key: str, record: dict[str, Any]) -> None:
        p = self.path(key)
        p.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(p, json.dumps(record, sort_keys=True, ensure_ascii=False))
