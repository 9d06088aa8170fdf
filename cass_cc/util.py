"""Small file helpers shared by the driver, the cache and the toolchain."""
from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

# Every compile hashes its source for the cache key. hashlib's import loads OpenSSL (~4 ms,
# about 4% of a warm compile's own time); CPython's built-in SHA-256 gives the same digest.
try:
    from _sha256 import sha256  # CPython <= 3.11
except ImportError:  # pragma: no cover - other versions and implementations
    try:
        from _sha2 import sha256  # CPython >= 3.12
    except ImportError:
        from hashlib import sha256


def split_top_level(text: str, opens: str, closes: str) -> list[str]:
    """`text` split at the commas outside every bracket of `opens`/`closes`, each part stripped
    (empty trailing part dropped)."""
    parts: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        if ch in opens:
            depth += 1
        elif ch in closes:
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def first_line(e: BaseException) -> str:
    """An exception's first line (its type's name when it has none), at most 300 characters."""
    text = str(e).strip().splitlines()
    return (text[0] if text else type(e).__name__)[:300]


def sha256_hex(*parts: bytes | str) -> str:
    h = sha256()
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
    # A name no other process picks (pid and random bits); not created here, since tools
    # (clang, ld, ar) create the output themselves and some refuse an existing empty file.
    tmp = str(final.parent / f".{final.name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
    try:
        yield tmp
        os.replace(tmp, final)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def output_problem(final: str | os.PathLike[str]) -> str | None:
    """Why a user's output file `final` cannot be written, in the system's words, or None.

    For -o and the like: a folder there, a missing folder (nvcc does not make one, nor do
    we) or one we may not write in (found by creating and removing a probe file, which also
    catches what os.access misses as root: a read-only mount, /sys). Nothing is left behind.
    """
    final = Path(final)
    try:
        if final.is_dir():
            return os.strerror(errno.EISDIR)
    except OSError as e:  # a name too long, a loop of links
        return e.strerror or str(e)
    probe = final.parent / f".cass-probe.{os.getpid()}.{os.urandom(6).hex()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as e:
        return e.strerror or str(e)
    os.close(fd)
    os.unlink(probe)
    return None


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
    import shutil
    import tempfile

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
