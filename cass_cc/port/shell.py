"""Plain shell build scripts of a ported tree (`build.sh`: a few nvcc and gcc lines).

Only what is simple is rewritten: a line (with its `\\` continuations) is split into commands
(`&&`, `||`, `;`, `|`), and a command whose program is nvcc (`nvcc`, `.../bin/nvcc`, or `$NVCC` /
`${NVCC}` where the script set `NVCC=nvcc`) or a host compiler gets make.py's edits for that
program; `NVCC=/usr/local/cuda/bin/nvcc` becomes `NVCC=hipcc`; paths into the CUDA install
become `$ROCM_PATH`'s, which the script then defines after its `#!` line
(`ROCM_PATH=${ROCM_PATH:-<root>}`). Loops, functions and quoting beyond words are not parsed:
a line the rules do not recognise is left as it was.
"""
from __future__ import annotations

import re

from .make import (CUDA_RUNTIME_LIBS, HIP_HOST_FLAGS, HIP_RUNTIME_LIB, HOST_COMPILER, NVCC_WORD, Rewrite, Word,
                   _compiles, describe, path_edit, split_words, word_edits)

SHELL_SUFFIXES = (".sh", ".bash")
_ASSIGN = re.compile(r"^\s*(?:export\s+)?([A-Za-z_]\w*)=(\S*)\s*$")
_REF = re.compile(r"^\$(?:\{(\w+)\}|(\w+))$")
_SEPARATORS = frozenset({"&&", "||", ";", "|"})


def _make_refs(text: str) -> str:
    """`$(ROCM_PATH)` in make.py's output -> the shell's `${ROCM_PATH}`."""
    return text.replace("$(ROCM_PATH)", "${ROCM_PATH}")


def rewrite_shell(text: str, archs: list[str], rocm_root: str = "/opt/rocm") -> tuple[str, list[Rewrite]]:
    if not any(NVCC_WORD.match(w.text) for line in text.splitlines() if not line.lstrip().startswith("#")
               for w in split_words(line)):
        return text, []
    variables: dict[str, str] = {}
    out: list[str] = []
    rewrites: list[Rewrite] = []
    lines = text.splitlines(keepends=True)
    number = 0
    while number < len(lines):
        first = number
        while number < len(lines) and lines[number].rstrip("\r\n").endswith("\\"):
            number += 1
        number += 1
        chunk = "".join(lines[first:number])
        new, changes = _rewrite_line(chunk, archs, variables)
        out.append(new)
        rewrites += [(first + 1 + chunk.count("\n", 0, at), what) for at, what in changes]
    result = "".join(out)
    if "${ROCM_PATH}" in result and not re.search(r"^\s*(?:export\s+)?ROCM_PATH=", text, re.M):
        at = 1 if result.startswith("#!") else 0
        parts = result.splitlines(keepends=True)
        parts.insert(at, f"ROCM_PATH=${{ROCM_PATH:-{rocm_root}}}  # cass-cc port: HIP's install, for CUDA's include/ and lib/\n")
        result = "".join(parts)
        rewrites = [(n + 1 if n > at else n, what) for n, what in rewrites] + [(at + 1, f"added ROCM_PATH (default {rocm_root})")]
    return result, sorted(rewrites)


def _program(word: str, variables: dict[str, str]) -> str:
    ref = _REF.match(word)
    if ref is not None:
        word = variables.get(ref.group(1) or ref.group(2), "").split(" ")[0]
    if NVCC_WORD.match(word):
        return "nvcc"
    return "host" if HOST_COMPILER.match(word) else "other"


def _rewrite_line(text: str, archs: list[str], variables: dict[str, str]) -> tuple[str, list[tuple[int, str]]]:
    stripped = text.lstrip()
    if not stripped or stripped.startswith("#"):
        return text, []
    m = _ASSIGN.match(text.rstrip("\r\n"))
    if m is not None:
        name, value = m.group(1), m.group(2).strip("'\"")
        variables[name] = value
        if NVCC_WORD.match(value):
            start = m.start(2)
            return text[:start] + "hipcc" + text[m.end(2):], [(0, describe([m.group(2)], ["hipcc"]))]
        return text, []
    words = split_words(text)
    edits: list[tuple[Word, Word, list[str]]] = []
    command: list[Word] = []
    for w in [*words, None]:
        if w is not None and w.text not in _SEPARATORS:
            if w.text.startswith("#"):
                w = None  # a comment ends the line's commands
            else:
                command.append(w)
                continue
        if command:
            edits += _command_edits(command, archs, variables)
        command = []
        if w is None:
            break
    changes = []
    for first, last, new in sorted(edits, key=lambda e: e[0].start, reverse=True):
        start, end = first.start, last.end
        old = text[start:end]
        if not new:
            while start > 0 and text[start - 1] in " \t":
                start -= 1
        text = text[:start] + _make_refs(" ".join(new)) + text[end:]
        changes.append((text.count("\n", 0, start), describe(old.split(), [_make_refs(n) for n in new])))
    return text, changes[::-1]


def _command_edits(command: list[Word], archs: list[str], variables: dict[str, str]) -> list[tuple[Word, Word, list[str]]]:
    words = [w.text for w in command]
    program = _program(words[0], variables)
    edits: list[tuple[int, int, list[str]]] = []
    roots = {name for name in variables if re.match(r"CUDA_?(?:PATH|HOME|DIR|ROOT)$", name)}

    def path(w: str) -> str | None:
        return path_edit(re.sub(r"\$\{?(\w+)\}?", r"$(\1)", w), roots)

    if program == "nvcc":
        edits = word_edits(words, archs)
        if _REF.match(words[0]):
            edits = [e for e in edits if e[0] != 0]  # `$NVCC` stays: its assignment became hipcc
    elif program == "host":
        lib_done = False
        for i, w in enumerate(words):
            if w in CUDA_RUNTIME_LIBS:
                edits.append((i, 1, [] if lib_done else HIP_RUNTIME_LIB))
                lib_done = True
        if _compiles(words):
            has_include = any(path(w) == "-I$(ROCM_PATH)/include" for w in words)
            edits.append((0, 1, [words[0], *HIP_HOST_FLAGS[:1 if has_include else 2]]))
    taken = {k for i, span, _ in edits for k in range(i, i + span)}
    for i, w in enumerate(words):
        if i not in taken:
            new = path(w)
            if new is not None:
                edits.append((i, 1, [new]))
    return [(command[i], command[i + span - 1], new) for i, span, new in sorted(edits)]
