"""Small file helpers shared by the driver, the cache and the toolchain."""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator


def sha256_hex(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8", "surrogateescape") if isinstance(p, str) else p)
        h.update(b"\0")
    return h.hexdigest()


@contextmanager
def atomic_path(final: str | os.PathLike[str]) -> Iterator[str]:
    """Yield a temporary name beside `final`; rename it over `final` only on success.

    A build interrupted or failed half way never leaves a truncated output that a
    later `make` would take for up to date.
    """
    final = Path(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
    os.close(fd)
    # Tools (clang, ld, ar) create the output themselves; some refuse an existing empty file.
    os.unlink(tmp)
    try:
        yield tmp
        os.replace(tmp, final)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            f.write(data)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """UTF-8; bytes a source held that were not UTF-8 (kept as surrogates) are written back as they were."""
    atomic_write_bytes(path, text.encode("utf-8", "surrogateescape"))


def atomic_folder(folder: Path, fill: Callable[[Path], None]) -> Path:
    """Make `folder` by filling a temporary sibling with `fill(work)` and renaming it into
    place, so a parallel build never sees it half made. If a parallel run made it first,
    theirs stands (callers name folders by a hash of their content)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    try:
        fill(work)
        try:
            os.rename(work, folder)
        except OSError:
            pass  # made by a parallel run first: the same content
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return folder
