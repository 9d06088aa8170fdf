"""Which files of a tree `cass-cc port` translates, rewrites, copies or skips."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .buildfiles import build_file_kind

# Always translated: CUDA files (their text needs the HIP runtime header nvcc included implicitly).
CUDA_SUFFIXES = (".cu", ".cuh")
# Translated when they use CUDA (sources.uses_cuda_text), else left as they are.
HOST_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".inl", ".cpp", ".cc", ".cxx", ".c")
SOURCE_SUFFIXES = CUDA_SUFFIXES + HOST_SUFFIXES
# Version-control folders are not part of the ported tree.
SKIP_DIRS = frozenset({".git", ".hg", ".svn"})
BACKUP_SUFFIX = ".cuda-orig"  # --inplace keeps the original beside the file


@dataclass(frozen=True)
class Entry:
    rel: str  # path relative to the tree, with '/'
    kind: str  # "source", "make", "cmake", "other", "link" (a symbolic link, file or folder)


def classify(rel: str, build_files: bool) -> str:
    name = PurePosixPath(rel).name
    if name.endswith(BACKUP_SUFFIX):
        return "other"
    if name.endswith(SOURCE_SUFFIXES):
        return "source"
    kind = build_file_kind(rel) if build_files else None
    return kind or "other"


def walk(root: Path, build_files: bool, skip: Path | None = None) -> list[Entry]:
    """Every file under `root`, sorted; symbolic links are listed, never followed."""
    entries: list[Entry] = []
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        rel_dir = here.relative_to(root)
        kept = []
        for d in sorted(dirs):
            path = here / d
            if d in SKIP_DIRS or (skip is not None and path == skip):
                continue
            if path.is_symlink():
                entries.append(Entry((rel_dir / d).as_posix(), "link"))
            else:
                kept.append(d)
        dirs[:] = kept
        for name in sorted(files):
            rel = (rel_dir / name).as_posix()
            entries.append(Entry(rel, "link" if (here / name).is_symlink() else classify(rel, build_files)))
    entries.sort(key=lambda e: e.rel)
    return entries


def is_inside(inner: Path, outer: Path) -> bool:
    """Whether `inner` is `outer` or below it (both resolved)."""
    inner, outer = inner.resolve(), outer.resolve()
    return inner == outer or outer in inner.parents
