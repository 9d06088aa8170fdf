"""Which files of a tree `cass-cc port` translates, rewrites, copies or skips."""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .buildfiles import build_file_kind

# Always translated: CUDA files (their text needs the HIP runtime header nvcc included implicitly).
CUDA_SUFFIXES = (".cu", ".cuh")
# Translated when they use CUDA (translate.base.uses_cuda_text), else left as they are.
HOST_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".inl", ".cpp", ".cc", ".cxx", ".c")
SOURCE_SUFFIXES = CUDA_SUFFIXES + HOST_SUFFIXES
# Version-control folders are not part of the ported tree.
SKIP_DIRS = frozenset({".git", ".hg", ".svn"})
BACKUP_SUFFIX = ".cuda-orig"  # --inplace keeps the original beside the file
# The record of what a port wrote (writes.py), at the top of the tree it wrote: never ported itself.
MANIFEST = ".cass-port-manifest.json"


@dataclass(frozen=True)
class Entry:
    rel: str  # path relative to the tree, with '/'
    # "source", "make", "cmake", "shell", "other"; "link" (a symbolic link, file or folder);
    # "skipped" (not a regular file: a FIFO, socket, device; or gone before it was looked at);
    # "unlisted" (a folder that could not be read)
    kind: str
    warning: str = ""  # why it is skipped or unlisted; what is odd about a link


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    for test, name in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a regular file"


def classify(rel: str, build_files: bool) -> str:
    name = PurePosixPath(rel).name
    if name.endswith(BACKUP_SUFFIX):
        return "other"
    if name.endswith(SOURCE_SUFFIXES):
        return "source"
    kind = build_file_kind(rel) if build_files else None
    return kind or "other"


def walk(root: Path, build_files: bool, skip: Path | None = None) -> list[Entry]:
    """Every file under `root`, sorted; symbolic links are listed, never followed. Each name is
    looked at with lstat and never opened here: a FIFO named `k.cu` is a "skipped" entry, since
    reading one blocks until a writer comes (and a device may never end)."""
    entries: list[Entry] = []
    real_root = root.resolve()

    def unlisted(e: OSError) -> None:  # os.walk drops a folder it cannot read without a word
        rel = Path(e.filename).relative_to(root).as_posix() if e.filename else "."
        entries.append(Entry(rel, "unlisted", f"cannot list the folder: {e.strerror}"))

    for folder, dirs, files in os.walk(root, onerror=unlisted):
        here = Path(folder)
        rel_dir = here.relative_to(root)
        kept = []
        for d in sorted(dirs):
            path = here / d
            if d in SKIP_DIRS or (skip is not None and path == skip):
                continue
            if path.is_symlink():
                entries.append(_link(path, (rel_dir / d).as_posix(), real_root))
            else:
                kept.append(d)
        dirs[:] = kept
        for name in sorted(files):
            rel = (rel_dir / name).as_posix()
            if rel == MANIFEST:
                continue
            entries.append(_entry(here / name, rel, build_files, real_root))
    entries.sort(key=lambda e: e.rel)
    return entries


def _entry(path: Path, rel: str, build_files: bool, real_root: Path) -> Entry:
    try:
        mode = os.lstat(path).st_mode
    except OSError as e:
        return Entry(rel, "skipped", f"cannot look at it: {e.strerror}; skipped")  # gone since the folder was listed
    if stat.S_ISLNK(mode):
        return _link(path, rel, real_root)
    if not stat.S_ISREG(mode):
        return Entry(rel, "skipped", f"{file_kind(mode)}, not a regular file; skipped")
    return Entry(rel, classify(rel, build_files))


def _link(path: Path, rel: str, real_root: Path) -> Entry:
    """A symbolic link, with what is odd about it: a port recreates it as it is, so a link that
    dangles, loops or leads out of the tree says so (its target is not ported with the tree)."""
    try:
        target = os.readlink(path)
    except OSError as e:
        return Entry(rel, "skipped", f"cannot read the symbolic link: {e.strerror}; skipped")
    try:
        resolved = path.resolve(strict=True)
    except FileNotFoundError:
        return Entry(rel, "link", f"symbolic link to {target}, which does not exist")
    except (RuntimeError, OSError):  # a loop: RuntimeError before Python 3.13, OSError(ELOOP) since
        return Entry(rel, "link", f"symbolic link to {target}, a loop of links")
    if resolved != real_root and real_root not in resolved.parents:
        return Entry(rel, "link", f"symbolic link to {target}, outside the tree (not ported with it)")
    return Entry(rel, "link")


def is_inside(inner: Path, outer: Path) -> bool:
    """Whether `inner` is `outer` or below it (both resolved)."""
    inner, outer = inner.resolve(), outer.resolve()
    return inner == outer or outer in inner.parents
