"""Build files of a ported tree: Makefiles (nvcc -> hipcc, nvcc flags -> hipcc's) and CMake
(the CUDA language -> HIP), so the ported tree builds without cass-cc.

Line and word based, and conservative: only spellings listed here change; each change is
reported as `(line, "old -> new")`. A Makefile that never names nvcc is left alone, so a
plain C Makefile beside a CUDA one keeps its `-G` or `-dc` flags.
"""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from .cmake import rewrite_cmake
from .make import MakeContext, rewrite_makefile, translate_words, word_edits  # noqa: F401 (this module's API)
from .shell import SHELL_SUFFIXES, rewrite_shell

MAKEFILE_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile"})
CMAKE_NAMES = frozenset({"CMakeLists.txt"})

Rewrite = tuple[int, str]  # (1-based line, "what -> what")


def build_file_kind(rel: str) -> str | None:
    """'make', 'cmake', 'shell' or None for a path relative to the tree."""
    name = PurePosixPath(rel).name
    if name in MAKEFILE_NAMES or name.endswith(".mk"):
        return "make"
    if name in CMAKE_NAMES or name.endswith(".cmake"):
        return "cmake"
    if name.endswith(SHELL_SUFFIXES):
        return "shell"
    return None


def rewrite_build_file(rel: str, text: str, archs: list[str], context: MakeContext | None = None,
                       kind: str | None = None) -> tuple[str, list[Rewrite]]:
    """`context`: what a make file's includes define; `kind`: "make" for a file only an
    `include` makes one (`make.config`)."""
    kind = kind or build_file_kind(rel)
    if kind == "make":
        return rewrite_makefile(text, archs, context)
    if kind == "shell":
        return rewrite_shell(text, archs, (context or MakeContext()).rocm_root)
    return rewrite_cmake(text, archs, mark_sources=PurePosixPath(rel).name in CMAKE_NAMES)


# ---- Makefiles: make.py ---------------------------------------------------------------------
