"""The translation cache: CUDA source + everything that changes its translation -> HIP source.

Entries live in a diskcache (SQLite, safe for many processes, so `make -j` is fine);
the HIP text is also written, content-addressed and atomically, to `hip/<hash>.hip`
so clang can read it without another copy. Keys name the source bytes, its file name
(the HIP text carries `#line` directives naming it), the translator's identity and
the target (HIP version, wave size): see `key()`.

A warm build asks for every file, so hits skip SQLite: each entry also has a small
`index/<key>.json` (the translator, diagnostics and the .hip file's digest), written
atomically after the .hip file, which a hit reads alone. Opening the diskcache costs
~20 ms and importing it ~12 ms a process, about 3% of a small file's compile. Hits and
misses are counted by appending one byte to `hits`/`misses` (O_APPEND: atomic under
`make -j`), so a hit writes nothing else.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..translate.base import Diagnostic, Translation
from ..util import atomic_write_text, sha256_hex

TYPE_CHECKING = False
if TYPE_CHECKING:  # importing typing costs every compile ~5 ms
    from typing import Any

SCHEMA = "1"
COUNTERS = ("hits", "misses")


class CacheMiss(Exception):
    """A miss while misses are errors (CASS_CACHE_REQUIRE_HIT=1)."""


def key(source: bytes, filename: str, translator: str, target: str) -> str:
    return sha256_hex(SCHEMA, source, filename, translator, target)


class TranslationCache:
    def __init__(self, root: Path, require_hit: bool = False):
        self.root = root
        self.require_hit = require_hit
        self._db: Any = None

    @property
    def db(self) -> Any:
        if self._db is None:
            import diskcache

            self._db = diskcache.Cache(str(self.root / "translations"))
        return self._db

    def _hip_file(self, digest: str) -> Path:
        return self.root / "hip" / digest[:2] / f"{digest}.hip"

    def hip_path(self, text: str) -> Path:
        return self._hip_file(sha256_hex(text))

    def _index_file(self, k: str) -> Path:
        return self.root / "index" / k[:2] / f"{k}.json"

    def _count(self, counter: str) -> None:
        try:
            fd = os.open(self.root / counter, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError:
            return  # a read-only cache still serves hits
        try:
            os.write(fd, b".")
        finally:
            os.close(fd)

    def get(self, k: str) -> tuple[Translation, Path] | None:
        hit = self._get_indexed(k)
        if hit is None:
            entry = self.db.get(k)  # an entry whose index file is gone (or from before there was one)
            if entry is not None:
                translation = _translation(entry)
                hit = translation, self._materialise(translation.text)
                self._write_index(k, entry, hit[1])
        self._count("hits" if hit else "misses")
        if hit is None and self.require_hit:
            raise CacheMiss(k)
        return hit

    def _get_indexed(self, k: str) -> tuple[Translation, Path] | None:
        try:
            entry = json.loads(self._index_file(k).read_bytes())
            path = self._hip_file(entry["hip"])
            text = path.read_text(encoding="utf-8")
        except (OSError, ValueError, KeyError, TypeError):
            return None
        # checked on every hit: the .hip file is the one its name (its digest) says, and the index
        # entry is this key's (not another entry's copied or moved here); else the entry goes
        if entry.get("key") != k or sha256_hex(text) != entry["hip"]:
            self._drop(k, path if sha256_hex(text) != entry["hip"] else None)
            return None
        return _translation(dict(entry, text=text)), path

    def _drop(self, k: str, bad_file: Path | None) -> None:
        """Forget a damaged entry (and a .hip file whose text is not its digest's)."""
        self._index_file(k).unlink(missing_ok=True)
        self.db.delete(k)
        if bad_file is not None:
            bad_file.unlink(missing_ok=True)

    def put(self, k: str, t: Translation) -> Path:
        entry = {
            "text": t.text,
            "translator": t.translator,
            "diagnostics": [(d.line, d.column, d.severity, d.message) for d in t.diagnostics],
            "unsupported": list(t.unsupported),
        }
        self.db.set(k, entry)
        path = self._materialise(t.text)
        self._write_index(k, entry, path)
        return path

    def _write_index(self, k: str, entry: dict[str, Any], path: Path) -> None:
        index = {name: value for name, value in entry.items() if name != "text"}
        index["hip"] = path.stem
        index["key"] = k
        atomic_write_text(self._index_file(k), json.dumps(index, sort_keys=True))

    def _materialise(self, text: str) -> Path:
        path = self.hip_path(text)
        if not path.is_file():
            atomic_write_text(path, text)
        return path

    def _counter(self, name: str) -> int:
        try:
            return (self.root / name).stat().st_size
        except OSError:
            return 0

    def stats(self) -> dict[str, int]:
        hip_dir = self.root / "hip"
        files = list(hip_dir.rglob("*.hip")) if hip_dir.is_dir() else []
        return {
            "entries": len(self.db),
            "hits": self._counter("hits"),
            "misses": self._counter("misses"),
            "db_bytes": self.db.volume(),
            "hip_files": len(files),
            "hip_bytes": sum(f.stat().st_size for f in files),
        }

    def clear(self) -> int:
        import shutil

        n = self.db.clear()
        for counter in COUNTERS:
            (self.root / counter).unlink(missing_ok=True)
        shutil.rmtree(self.root / "index", ignore_errors=True)
        shutil.rmtree(self.root / "hip", ignore_errors=True)
        shutil.rmtree(self.root / "shadow", ignore_errors=True)  # translated header trees (driver/headers.py)
        return n


def _translation(entry: dict[str, Any]) -> Translation:
    return Translation(
        text=entry["text"],
        translator=entry["translator"],
        diagnostics=tuple(Diagnostic(*d) for d in entry["diagnostics"]),
        unsupported=tuple(entry["unsupported"]),
    )
