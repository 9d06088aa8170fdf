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

MAKEFILE_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile"})
CMAKE_NAMES = frozenset({"CMakeLists.txt"})

Rewrite = tuple[int, str]  # (1-based line, "what -> what")


def build_file_kind(rel: str) -> str | None:
    """'make', 'cmake' or None for a path relative to the tree."""
    name = PurePosixPath(rel).name
    if name in MAKEFILE_NAMES or name.endswith(".mk"):
        return "make"
    if name in CMAKE_NAMES or name.endswith(".cmake"):
        return "cmake"
    return None


def rewrite_build_file(rel: str, text: str, archs: list[str]) -> tuple[str, list[Rewrite]]:
    if build_file_kind(rel) == "make":
        return rewrite_makefile(text, archs)
    return rewrite_cmake(text, archs, mark_sources=PurePosixPath(rel).name in CMAKE_NAMES)


# ---- Makefiles -------------------------------------------------------------------------------

# nvcc flag (one word) -> replacement words ([] drops it). `ARCH` stands for the targets.
_ONE_WORD: dict[str, list[str]] = {
    "--use_fast_math": ["-ffast-math"], "-use_fast_math": ["-ffast-math"], "--use-fast-math": ["-ffast-math"],
    "-rdc=true": ["-fgpu-rdc"], "--relocatable-device-code=true": ["-fgpu-rdc"],
    "-rdc=false": [], "--relocatable-device-code=false": [],
    "-dc": ["-fgpu-rdc", "-c"], "--device-c": ["-fgpu-rdc", "-c"],
    "-lcudart": [], "-lcudart_static": [], "-lcuda": [], "-lcudadevrt": [],
    "-lcublas": ["-lhipblas"], "-lcurand": ["-lhiprand"], "-lcufft": ["-lhipfft"],
    "-lcusparse": ["-lhipsparse"], "-lcusolver": ["-lhipsolver"],
    "--expt-relaxed-constexpr": [], "-expt-relaxed-constexpr": [],
    "--extended-lambda": [], "-extended-lambda": [], "--expt-extended-lambda": [], "-expt-extended-lambda": [],
    "-lineinfo": ["-gline-tables-only"], "--generate-line-info": ["-gline-tables-only"],
    "-G": ["-g"], "--device-debug": ["-g"],
    "-cudart=shared": [], "-cudart=static": [], "--cudart=shared": [], "--cudart=static": [],
}
# Flags taking the next word (or `=value`) whose pair is dropped: hipcc picks clang itself.
_DROP_WITH_VALUE = ("-ccbin", "--compiler-bindir", "-Xptxas", "--ptxas-options", "-maxrregcount", "--maxrregcount", "-code", "--gpu-code")
_ARCH_FLAGS = ("-arch", "--gpu-architecture", "-gencode", "--generate-code")
_HOST_FLAGS = ("-Xcompiler", "--compiler-options")
_NVCC_WORD = re.compile(r"^(?:.*/)?nvcc$")  # nvcc, $(CUDA_PATH)/bin/nvcc, /usr/local/cuda/bin/nvcc


def _flag_value(words: list[str], i: int, flag: str) -> tuple[str | None, int]:
    """The value of `flag` at words[i] (`-f=v`, `-fv` not accepted) and how many words it spans."""
    word = words[i]
    if word == flag:
        return (words[i + 1], 2) if i + 1 < len(words) else (None, 1)
    if word.startswith(flag + "="):
        return word[len(flag) + 1 :], 1
    return None, 0


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def word_edits(words: list[str], archs: list[str]) -> list[tuple[int, int, list[str]]]:
    """nvcc words -> hipcc words as edits (index, words replaced, new words; [] drops them).
    Unknown words are left alone."""
    edits: list[tuple[int, int, list[str]]] = []
    arch_done = False
    i = 0
    while i < len(words):
        word = words[i]
        span = 1
        new: list[str] | None = None
        if _NVCC_WORD.match(word):
            new = ["hipcc"]
        elif word in _ONE_WORD:
            new = list(_ONE_WORD[word])
        elif word in ("-x", "--x") and i + 1 < len(words) and words[i + 1] == "cu":
            new, span = ["-x", "hip"], 2
        else:
            for flag in _ARCH_FLAGS + _HOST_FLAGS + _DROP_WITH_VALUE + ("-Xlinker", "--linker-options", "--default-stream"):
                value, span = _flag_value(words, i, flag)
                if not span:
                    continue
                if flag in _ARCH_FLAGS:
                    # every target flag of a line becomes the AMD targets, once
                    new = [] if arch_done else [f"--offload-arch={a}" for a in archs]
                    arch_done = True
                elif value is None:
                    new = None  # a flag ending its line: leave it for the user to see
                elif flag in _HOST_FLAGS:
                    new = [w for w in _unquote(value).split(",") if w]
                elif flag in ("-Xlinker", "--linker-options"):
                    new = ["-Wl," + _unquote(value)]
                elif flag == "--default-stream":
                    new = [f"-fgpu-default-stream={value}"]
                else:
                    new = []
                break
            else:
                span = 1
        if new is not None:
            edits.append((i, span, new))
        i += span
    return edits


def translate_words(words: list[str], archs: list[str]) -> tuple[list[str], list[str]]:
    """nvcc words -> hipcc words, and what changed ("old -> new")."""
    out = list(words)
    changes = []
    for i, span, new in reversed(word_edits(words, archs)):
        out[i : i + span] = new
        changes.append(_describe(words[i : i + span], new))
    return out, changes[::-1]


def _describe(old: list[str], new: list[str]) -> str:
    return f"{' '.join(old)} -> {' '.join(new) if new else '(dropped)'}"


_WORD_SPLIT = re.compile(r"(\s+)")


def _code_and_comment(line: str) -> tuple[str, str]:
    """Split a make line at its first unescaped `#`."""
    m = re.search(r"(?<!\\)#", line)
    return (line[: m.start()], line[m.start() :]) if m else (line, "")


def _rewrite_line(code: str, archs: list[str]) -> tuple[str, list[str]]:
    """Edit the words of one line in place: spacing elsewhere on the line is kept."""
    parts = _WORD_SPLIT.split(code)  # words at even indexes (maybe ""), whitespace at odd ones
    positions = [n for n in range(0, len(parts), 2) if parts[n]]
    words = [parts[n] for n in positions]
    edits = word_edits(words, archs)
    for i, span, new in reversed(edits):
        first, last = positions[i], positions[i + span - 1]
        if new:
            parts[first : last + 1] = [" ".join(new)]
        elif i > 0:
            parts[first - 1 : last + 1] = []  # the words and the space before them
        else:
            parts[first : last + 2] = []  # a line's first words and the space after them
    line = "".join(parts)
    return (line if line.strip() else ""), [_describe(words[i : i + span], new) for i, span, new in edits]


def rewrite_makefile(text: str, archs: list[str]) -> tuple[str, list[Rewrite]]:
    if not any(_NVCC_WORD.match(w) for line in text.splitlines() for w in _code_and_comment(line)[0].split()):
        return text, []
    out: list[str] = []
    rewrites: list[Rewrite] = []
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        code, comment = _code_and_comment(body)
        new_code, changes = _rewrite_line(code, archs)
        out.append(new_code + comment + ending)
        rewrites += [(number, c) for c in changes]
    return "".join(out), rewrites
