"""Top-level pieces of a CUDA file, so a file too long for the model's context can go
to it one function (or a few) at a time, and single functions can be swapped.

A piece is a run of whole lines ending where a top-level declaration or definition
ends: a line whose last code character is `}` or `;` outside every brace, bracket and
parenthesis. Comments, blank lines and preprocessor lines before a definition belong to
it. Braces in comments, literals and directives (a multi-line `#define`) do not count.
A namespace or `extern "C" { }` block is one piece.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence


@dataclass(frozen=True)
class Piece:
    first_line: int  # 1-based, inclusive
    last_line: int  # inclusive
    text: str  # the lines, each with its line break

    def holds(self, line: int) -> bool:
        return self.first_line <= line <= self.last_line


def _line_ends(source: str) -> list[bool]:
    """For every line: does a top-level declaration or definition end on it?"""
    ends: list[bool] = []
    depth = 0  # (), [] and {} together
    last = ""  # last code character on this line
    i, n = 0, len(source)
    at_line_start = True
    while i < n:
        c = source[i]
        if c == "\n":
            ends.append(depth == 0 and last in ("}", ";"))
            last, at_line_start = "", True
            i += 1
            continue
        if at_line_start and c in " \t":
            i += 1
            continue
        if at_line_start and c == "#":  # a directive, with its continuation lines
            while i < n and source[i] != "\n":
                if source[i] == "\\" and source.startswith("\n", i + 1):
                    ends.append(False)
                    i += 2
                    continue
                if source.startswith("/*", i):
                    close = source.find("*/", i + 2)
                    close = n if close < 0 else close + 2
                    ends.extend([False] * source.count("\n", i, close))
                    i = close
                    continue
                i += 1
            continue
        at_line_start = False
        if source.startswith("//", i):
            while i < n and source[i] != "\n":
                i += 1
            continue
        if source.startswith("/*", i):
            close = source.find("*/", i + 2)
            close = n if close < 0 else close + 2
            ends.extend([False] * source.count("\n", i, close))
            i = close
            continue
        if c == "R" and source.startswith('"', i + 1) and not (i and (source[i - 1].isalnum() or source[i - 1] == "_")):
            paren = source.find("(", i + 2)
            if paren > 0:
                close = source.find(")" + source[i + 2 : paren] + '"', paren)
                close = n if close < 0 else close + len(source[i + 2 : paren]) + 2
                ends.extend([False] * source.count("\n", i, close))
                i, last = close, '"'
                continue
        if c in "\"'":
            j = i + 1
            while j < n and source[j] != c and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            i, last = j + 1, c
            continue
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth = max(0, depth - 1)
        if not c.isspace():
            last = c
        i += 1
    if not source.endswith("\n"):
        ends.append(True)
    return ends


def pieces(source: str) -> list[Piece]:
    """The file as consecutive pieces; joining their texts gives `source` back."""
    lines = source.splitlines(keepends=True)
    ends = _line_ends(source)
    out: list[Piece] = []
    first = 1
    for number, line_text in enumerate(lines, 1):
        if number - 1 < len(ends) and ends[number - 1] or number == len(lines):
            out.append(Piece(first, number, "".join(lines[first - 1 : number])))
            first = number + 1
    return out


def definition(piece: Piece) -> Piece:
    """`piece` without its leading blank, `//` comment and preprocessor lines (the includes
    and macros before a definition stay where they are when the definition is replaced)."""
    lines = piece.text.splitlines(keepends=True)
    skip, continued = 0, False
    for line in lines[:-1]:
        stripped = line.strip()
        if not (continued or not stripped or stripped.startswith(("#", "//"))):
            break
        continued = stripped.startswith("#") and stripped.endswith("\\") or continued and stripped.endswith("\\")
        skip += 1
    return Piece(piece.first_line + skip, piece.last_line, "".join(lines[skip:]))


def group(items: Sequence[Piece], budget: int, count: Callable[[str], int]) -> list[list[Piece]]:
    """Consecutive pieces joined while their texts fit `budget` (as `count` measures);
    a piece larger than the budget goes alone (the model may then fail on it)."""
    groups: list[list[Piece]] = []
    current: list[Piece] = []
    used = 0
    for p in items:
        size = count(p.text)
        if current and used + size > budget:
            groups.append(current)
            current, used = [], 0
        current.append(p)
        used += size
    if current:
        groups.append(current)
    return groups


def text_of(group_: Sequence[Piece]) -> str:
    return "".join(p.text for p in group_)
