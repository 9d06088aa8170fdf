"""The model cache: answers, validation verdicts, and digests of weight files.

A diskcache under `<cache folder>/model` (SQLite: safe for `make -j`), beside the
translation cache. Keys:

- answer:  prompt version, model identity (resolved revision or weights hash, with the
           tokenizer's), generation settings, prompt  ->  the raw answer text;
- verdict: the HIP text put together from answers, file name, target, validation
           flags  ->  ok, or the first compiler error (a failed answer stays failed);
- digest:  a file's path, size and mtime  ->  its SHA-256 (hashing weights once).

With the cache off (CASS_NO_CACHE) the same entries live in memory for one run. Only
what a model really answered is stored (a failed request stores nothing), and a damaged
or locked store never fails a build (cass_cc/diskstore.py); `cass-cc cache clear`
empties it with the translations.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from ..util import sha256_hex
from .prompts import PROMPT_VERSION
from .settings import Generation


def answer_key(identity: str, generation: Generation, prompt: str) -> str:
    return sha256_hex("answer", PROMPT_VERSION, identity, generation.key(), prompt)


def verdict_key(text: str, filename: str, target: str, validation: str) -> str:
    return sha256_hex("verdict", PROMPT_VERSION, text, filename, target, validation)


class Store:
    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._db: Any = None if root is not None else {}

    @property
    def db(self) -> Any:
        if self._db is None:
            from ..diskstore import DiskStore

            self._db = DiskStore(self.root / "model")  # type: ignore[operator]
        return self._db

    def get(self, key: str) -> Any:
        return self.db.get(key)

    def set(self, key: str, value: Any, expire: float | None = None) -> None:
        """`expire`: seconds the entry lives (kept for the run when the cache is off)."""
        if isinstance(self.db, dict):
            self.db[key] = value
        else:
            self.db.set(key, value, expire=expire)

    def file_digest(self, path: Path) -> str:
        """SHA-256 of a file, remembered by path, size and mtime (weights are gigabytes)."""
        st = path.stat()
        key = sha256_hex("digest", str(path.resolve()), str(st.st_size), str(st.st_mtime_ns))
        digest = self.get(key)
        if digest is None:
            h = hashlib.sha256()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 22), b""):
                    h.update(block)
            digest = h.hexdigest()
            self.set(key, digest)
        return str(digest)

    def folder_digest(self, folder: Path, names: list[str]) -> str:
        """One digest over the named files of `folder` (names sorted, content digests)."""
        parts = [f"{n}:{self.file_digest(folder / n)}" for n in sorted(names) if (folder / n).is_file()]
        return sha256_hex(*parts)


def stat_names(folder: Path, suffixes: tuple[str, ...]) -> list[str]:
    return sorted(e.name for e in os.scandir(folder) if e.is_file() and e.name.endswith(suffixes))
