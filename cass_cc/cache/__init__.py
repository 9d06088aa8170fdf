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

The cache never fails a build (disk.py): a damaged database is moved aside and rebuilt,
a locked or read-only one is skipped for the run, a damaged entry is a miss. `clear`
removes everything cass-cc keeps under the cache folder (OWNED), model answers too.
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
# Everything cass-cc writes under the cache folder, with its writer: `cache clear` removes
# these and nothing else (the folder may be shared). tests/hostile/test_cache.py checks
# that a build leaves nothing else there.
OWNED = (
    "devlibs",  # toolchain/devlibs.py: patched device libraries
    "hip",  # translated text, content-addressed (this module)
    "hipnv",  # hipnv/folder.py
    "hits", "misses",  # counters (this module)
    "index",  # hit index (this module)
    "model",  # model answers, verdicts, weight digests (model/store.py)
    "plugins",  # toolchain/llvmfix.py
    "shadow",  # translated header trees (driver/headers.py)
    "toolkit",  # the shim CUDA toolkit (toolkit.py)
    "tools.json",  # tool versions (toolchain/tool.py)
    "translations",  # the translation store (this module)
)
# A .hip file's name is its text's SHA-256: an index entry naming anything else is garbage.
_HEX = frozenset("0123456789abcdef")


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
        """The translation store (opened on a miss only: a hit reads its index file)."""
        if self._db is None:
            from ..diskstore import DiskStore

            self._db = DiskStore(self.root / "translations")
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
            translation = _translation(entry) if entry is not None else None
            if translation is None and entry is not None:
                self.db.delete(k)  # not an entry this module wrote
            if translation is not None:
                try:
                    hit = translation, self._materialise(translation.text)
                    self._write_index(k, entry, hit[1])
                except OSError:
                    hit = None  # the files cannot be written here: the caller translates again
        self._count("hits" if hit else "misses")
        if hit is None and self.require_hit:
            raise CacheMiss(k)
        return hit

    def _get_indexed(self, k: str) -> tuple[Translation, Path] | None:
        try:
            entry = json.loads(self._index_file(k).read_bytes())
            if not (isinstance(entry["hip"], str) and len(entry["hip"]) == 64 and _HEX.issuperset(entry["hip"])):
                return None  # a name that is no digest could point anywhere (../../x)
            path = self._hip_file(entry["hip"])
            text = path.read_text(encoding="utf-8")
        except (OSError, ValueError, KeyError, TypeError):
            return None
        translation = _translation(dict(entry, text=text))
        if translation is None:
            return None
        # checked on every hit: the .hip file is the one its name (its digest) says, and the index
        # entry is this key's (not another entry's copied or moved here); else the entry goes
        if entry.get("key") != k or sha256_hex(text) != entry["hip"]:
            self._drop(k, path if sha256_hex(text) != entry["hip"] else None)
            return None
        return translation, path

    def _drop(self, k: str, bad_file: Path | None) -> None:
        """Forget a damaged entry (and a .hip file whose text is not its digest's)."""
        self._index_file(k).unlink(missing_ok=True)
        self.db.delete(k)
        if bad_file is not None:
            bad_file.unlink(missing_ok=True)

    def put(self, k: str, t: Translation) -> Path:
        """Store `t`; returns its .hip file. Raises OSError when the cache folder cannot
        hold the file (read-only, full): the caller writes the text elsewhere."""
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
        files = [f for f in hip_dir.rglob("*.hip") if f.is_file()] if hip_dir.is_dir() else []
        return {
            "entries": self.db.count(),
            "hits": self._counter("hits"),
            "misses": self._counter("misses"),
            "db_bytes": self.db.volume(),
            "hip_files": len(files),
            "hip_bytes": sum(f.stat().st_size for f in files),
        }

    def clear(self) -> int:
        """Remove everything in OWNED; returns the entries the translation and model stores held."""
        import shutil

        from ..diskstore import DiskStore

        n = self.db.clear() + DiskStore(self.root / "model").clear()
        for name in OWNED:
            path = self.root / name
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    path.unlink()
                except FileNotFoundError:
                    pass
                except OSError as e:
                    from .. import log

                    log.warning(f"{path}: cannot remove: {e.strerror}")
        return n


def _translation(entry: Any) -> Translation | None:
    """The Translation an entry holds; None for anything put() did not write (garbage)."""
    try:
        t = Translation(
            text=entry["text"],
            translator=entry["translator"],
            diagnostics=tuple(Diagnostic(*d) for d in entry["diagnostics"]),
            unsupported=tuple(entry["unsupported"]),
        )
    except (KeyError, TypeError, ValueError):
        return None
    fine = (isinstance(t.text, str) and isinstance(t.translator, str) and all(isinstance(u, str) for u in t.unsupported)
            and all(isinstance(d.line, int) and isinstance(d.column, int) and isinstance(d.severity, str)
                    and isinstance(d.message, str) for d in t.diagnostics))
    return t if fine else None
