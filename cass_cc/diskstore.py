"""A diskcache folder that a damaged, locked or read-only database cannot turn into a failed build.

Both stores under the cache folder (`translations`, the translation cache; `model`, the
model answers) are diskcache folders: a SQLite file, `cache.db`, and value files. What
can go wrong with them, and what happens:

- damaged: the file is not a SQLite database (random bytes), is truncated or malformed,
  or holds another program's tables (SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_ERROR "no such
  table/column"), or diskcache's own settings rows hold values it cannot use. The file is
  moved aside (`cache.db.damaged-<time>`, kept for a bug report) with a one-line warning,
  and a fresh store starts.
- unavailable: locked by another process past LOCK_WAIT, read-only, disk full, a folder
  that cannot be created (SQLITE_BUSY, SQLITE_READONLY, SQLITE_CANTOPEN, OSError, ...).
  The store is left alone for the rest of the run with a one-line warning: reads miss,
  writes are dropped, and the build goes on without the cache.
- one damaged entry (a value that does not unpickle): that entry is deleted and misses.

Anything else is a bug in cass-cc and is not caught here.
"""
from __future__ import annotations

import os
import pickle
import sqlite3
import time
from pathlib import Path

from . import log

TYPE_CHECKING = False
if TYPE_CHECKING:  # importing typing costs every compile ~5 ms
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")

# SQLite result codes meaning "this file is not a cache database we can use": rebuild it.
# SQLITE_ERROR is what a query against another schema gets ("no such table: Cache").
DAMAGED_CODES = frozenset({"SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_ERROR"})
# Seconds to wait for another process's lock. Writers under `make -j` hold it for
# milliseconds; diskcache's default (60 s) would hold every compile a minute per access
# when a stuck process keeps the database locked.
LOCK_WAIT = 5.0
# What unpickling a garbage value raises (pickle runs arbitrary constructors: these are the
# ones its own decoding raises on bytes that are not a pickle of ours).
UNPICKLE_ERRORS = (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError,
                   IndexError, KeyError)
# What opening a store whose Settings rows hold values diskcache cannot use raises.
SETTINGS_ERRORS = (KeyError, TypeError, ValueError)


class DiskStore:
    """get/set/delete/count/volume/clear on one diskcache folder, never raising for the
    store's own trouble (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._cache: Any = None
        self._off = ""  # why the store is unavailable for this run ("" while usable)

    @property
    def database(self) -> Path:
        return self.folder / "cache.db"

    def get(self, key: str) -> Any:
        """The value, or None on a miss (or when the store is unavailable)."""
        def read(cache: Any) -> Any:
            try:
                return cache.get(key)
            except UNPICKLE_ERRORS as e:  # one garbage value: forget it
                log.note(f"{self.folder}: dropping an entry that does not load ({type(e).__name__})")
                cache.delete(key)
                return None

        return self._do(read, None)

    def set(self, key: str, value: Any, expire: float | None = None) -> None:
        self._do(lambda cache: cache.set(key, value, expire=expire), None)

    def delete(self, key: str) -> None:
        self._do(lambda cache: cache.delete(key), None)

    def count(self) -> int:
        return int(self._do(len, 0))

    def volume(self) -> int:
        return int(self._do(lambda cache: cache.volume(), 0))

    def clear(self) -> int:
        """Remove the whole folder (entries, value files, damaged databases moved aside);
        returns how many entries were readable in it."""
        import shutil

        n = self.count() if self.database.exists() else 0
        self.close()
        shutil.rmtree(self.folder, ignore_errors=True)
        self._off = ""
        return n

    def close(self) -> None:
        if self._cache is not None:
            try:
                self._cache.close()
            except (sqlite3.Error, OSError):
                pass  # closing a damaged or vanished database: nothing left to save
            self._cache = None

    # ---- trouble -----------------------------------------------------------------

    def _open(self) -> Any:
        if self._cache is None:
            import diskcache

            try:
                self._cache = diskcache.Cache(str(self.folder), timeout=LOCK_WAIT)
            except SETTINGS_ERRORS as e:  # Settings rows with values of another program or version
                raise _Damaged(f"unusable settings ({type(e).__name__}: {e})") from None
        return self._cache

    def _do(self, op: Callable[[Any], T], fallback: T) -> T:
        import diskcache

        for attempt in range(2):  # a second time after moving a damaged database aside
            if self._off:
                return fallback
            try:
                return op(self._open())
            except _Damaged as e:
                why = str(e)
            except sqlite3.Error as e:
                if getattr(e, "sqlite_errorname", "") not in DAMAGED_CODES:
                    self._give_up(str(e))
                    return fallback
                why = str(e)
            except diskcache.Timeout:
                self._give_up(f"locked by another process for more than {LOCK_WAIT:g} s")
                return fallback
            except OSError as e:
                self._give_up(e.strerror or str(e))
                return fallback
            if attempt or not self._move_aside(why):
                self._give_up(why)
        return fallback

    def _move_aside(self, why: str) -> bool:
        """Rename the damaged database (and its journal files) so a fresh one starts."""
        self.close()
        aside = self.database.with_name(f"cache.db.damaged-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
        try:
            os.replace(self.database, aside)
        except FileNotFoundError:
            return True  # another process moved it already (make -j): use the fresh one
        except OSError:
            return False
        for journal in ("cache.db-wal", "cache.db-shm"):
            try:
                os.unlink(self.folder / journal)
            except OSError:
                pass  # not there (no WAL yet) or not ours to remove: SQLite copes
        log.warning(f"{self.database}: damaged cache database ({why}); moved to {aside.name}, starting a fresh one")
        return True

    def _give_up(self, why: str) -> None:
        self.close()
        self._off = why
        log.warning(f"{self.folder}: cache unavailable ({why}); going on without it")


class _Damaged(Exception):
    """The store opened, but with settings diskcache cannot use."""
