"""The translation cache: CUDA source + everything that changes its translation -> HIP source.

Entries live in a diskcache (SQLite, safe for many processes, so `make -j` is fine);
the HIP text is also written, content-addressed and atomically, to `hip/<hash>.hip`
so clang can read it without another copy. Keys name the source bytes, its file name
(the HIP text carries `#line` directives naming it), the translator's identity and
the target (HIP version, wave size): see `key()`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..translate.base import Diagnostic, Translation
from ..util import atomic_write_text, sha256_hex

SCHEMA = "1"


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

            self._db = diskcache.Cache(str(self.root / "translations"), statistics=True)
        return self._db

    def hip_path(self, text: str) -> Path:
        digest = sha256_hex(text)
        return self.root / "hip" / digest[:2] / f"{digest}.hip"

    def get(self, k: str) -> tuple[Translation, Path] | None:
        entry = self.db.get(k)
        if entry is None:
            if self.require_hit:
                raise CacheMiss(k)
            return None
        translation = Translation(
            text=entry["text"],
            translator=entry["translator"],
            diagnostics=tuple(Diagnostic(*d) for d in entry["diagnostics"]),
            unsupported=tuple(entry["unsupported"]),
        )
        return translation, self._materialise(translation.text)

    def put(self, k: str, t: Translation) -> Path:
        self.db.set(
            k,
            {
                "text": t.text,
                "translator": t.translator,
                "diagnostics": [(d.line, d.column, d.severity, d.message) for d in t.diagnostics],
                "unsupported": list(t.unsupported),
            },
        )
        return self._materialise(t.text)

    def _materialise(self, text: str) -> Path:
        path = self.hip_path(text)
        if not path.is_file():
            atomic_write_text(path, text)
        return path

    def stats(self) -> dict[str, int]:
        hits, misses = self.db.stats()
        hip_dir = self.root / "hip"
        files = list(hip_dir.rglob("*.hip")) if hip_dir.is_dir() else []
        return {
            "entries": len(self.db),
            "hits": hits,
            "misses": misses,
            "db_bytes": self.db.volume(),
            "hip_files": len(files),
            "hip_bytes": sum(f.stat().st_size for f in files),
        }

    def clear(self) -> int:
        import shutil

        n = self.db.clear()
        self.db.stats(reset=True)
        shutil.rmtree(self.root / "hip", ignore_errors=True)
        shutil.rmtree(self.root / "shadow", ignore_errors=True)  # translated header trees (driver/headers.py)
        return n
