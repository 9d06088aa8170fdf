"""Lexing only the lines a translation can touch.

The rules act on few names (the mapping table's, CUDA-looking ones, a few keywords) and
most lines of a CUDA file hold none of them, yet lexing every line was most of the time a
translation took. `Windows` splits a source into logical lines (`lexer.line_ends`: one
regex match a line, no tokens), lexes only the lines around each use of such a name, and
gives the rules a token list in which each run of lines left unlexed (a gap) stands as two
`Edge` tokens. Reading anything of an edge (a rule scanning past the lines it was given:
back to the previous statement, on to a closing parenthesis) raises `Touched`; the caller
then lexes more lines on that side of that gap (`widen`) and starts the translation over.
So a translation never sees a token the whole-file token list would not have there, and its
output is the one the whole-file list gives.

A gap's left edge carries the gap's text as its output and the right edge none, so the
output texts still join to the source.

Triage: `RulesTranslator(windows=False)` lexes whole files; a difference between the two on
some input is a bug here or in `lexer.line_ends` (tests/translate/test_windows.py compares
them on every golden file and on random text).
"""
from __future__ import annotations

import bisect
import operator
from typing import Callable

from .lexer import Token, line_ends, tokenize_range

_TEXT = operator.itemgetter(1)

# Lines lexed on a gap's side when a rule runs into it, the first time and each time after;
# past MAX_WIDENINGS the whole file is lexed.
FIRST_WIDENING = 4
WIDENING_FACTOR = 4
MAX_WIDENINGS = 6
# Lines looked back over, from a line with a use, for one holding code.
BACK_LINES = 8


class Touched(Exception):
    """A rule read an edge: the lines on that side of the gap are needed."""

    def __init__(self, gap: int, before: bool) -> None:
        super().__init__(gap, before)
        self.gap = gap
        self.before = before  # the edge before the gap's text (a scan going forward)
        self.whole = False  # set by a rule that reads every token


class Edge:
    """Stands for one end of a run of unlexed lines; reading it raises Touched."""

    __slots__ = ("gap", "before", "fill")

    def __init__(self, gap: int, before: bool, fill: str) -> None:
        self.gap = gap
        self.before = before
        self.fill = fill  # the output text this entry starts with

    def __getattr__(self, name: str) -> object:  # kind, text, line, col, directive
        raise Touched(self.gap, self.before)

    def __getitem__(self, index: object) -> object:
        raise Touched(self.gap, self.before)


class Windows:
    """The lines of `text` lexed so far, as a token list with edges for the rest."""

    def __init__(self, text: str, uses: list[int], work_of: Callable[[list[Token]], list[int]]) -> None:
        """`uses`: positions of the names the rules may act on; `work_of(tokens)`: indices
        of the tokens of one line the rules must visit."""
        self.text = text
        self.work_of = work_of
        self.ends = ends = line_ends(text) if uses else [len(text)]
        self.starts = [0, *ends[:-1]]
        self.crlf = "\r" in text
        self.lexed: dict[int, tuple[list[Token], list[int]]] = {}  # line -> tokens, work indices
        self.selected: set[int] = set()
        self.gaps: list[tuple[int, int]] = []  # lines [first, stop) of each gap, as last built
        self.widenings = 0
        self._lines_at = [0]  # known (position, line number) pairs, sorted
        self._numbers = [1]
        selected = self.selected
        for pos in sorted(uses):
            k = bisect.bisect_right(ends, pos)
            if k in selected:
                continue
            selected.add(k)
            start = self.starts[k]
            if pos > start and not text[start:pos].isspace():
                continue  # what the name is qualified by, or follows, is on its line
            # else the lines back to one with code
            for back in range(k - 1, max(k - BACK_LINES, 0) - 1, -1):
                if back in selected:
                    break
                selected.add(back)
                if not _blank(text, self.starts[back], ends[back]):
                    break

    def build(self) -> tuple[list[Token | Edge], list[str], list[int]]:
        """(tokens, their output texts, indices of the tokens the rules visit)."""
        tokens: list[Token | Edge] = []
        out: list[str] = []
        work: list[int] = []
        self.gaps = gaps = []
        starts, text = self.starts, self.text
        prev = -1
        for k in sorted(self.selected):
            if k != prev + 1:
                self._gap(prev + 1, k, tokens, out)
            line_tokens, line_work = self._lex(k)
            base = len(tokens)
            work.extend(base + j for j in line_work)
            tokens.extend(line_tokens)
            out.extend(map(_TEXT, line_tokens))
            prev = k
        if prev + 1 < len(starts):
            self._gap(prev + 1, len(starts), tokens, out)
        return tokens, out, work

    def _gap(self, first: int, stop: int, tokens: list[Token | Edge], out: list[str]) -> None:
        gap = len(self.gaps)
        self.gaps.append((first, stop))
        start = self.starts[first] if first < len(self.starts) else len(self.text)
        end = self.starts[stop] if stop < len(self.starts) else len(self.text)
        fill = self.text[start:end]
        tokens.append(Edge(gap, True, fill))
        tokens.append(Edge(gap, False, ""))
        out.append(fill)
        out.append("")

    def widen(self, touched: Touched) -> bool:
        """Lex more lines on the side of the gap a rule ran into; False when it is time to
        lex the whole file instead."""
        if self.widenings >= MAX_WIDENINGS or touched.whole:
            return False
        first, stop = self.gaps[touched.gap]
        count = FIRST_WIDENING * WIDENING_FACTOR ** self.widenings
        self.widenings += 1
        lines = range(first, min(first + count, stop)) if touched.before else range(max(stop - count, first), stop)
        self.selected.update(lines)
        return True

    def _lex(self, k: int) -> tuple[list[Token], list[int]]:
        done = self.lexed.get(k)
        if done is None:
            start, end = self.starts[k], self.ends[k]
            tokens = tokenize_range(self.text, start, end, self._line_number(start))
            done = self.lexed[k] = (tokens, self.work_of(tokens))
        return done

    def _line_number(self, pos: int) -> int:
        """Line number of a line start, counted from the nearest one known before it."""
        i = bisect.bisect_right(self._lines_at, pos) - 1
        known, line = self._lines_at[i], self._numbers[i]
        if known == pos:
            return line
        text = self.text
        line += text.count("\n", known, pos)
        if self.crlf:
            line += text.count("\r", known, pos) - text.count("\r\n", known, pos)
        self._lines_at.insert(i + 1, pos)
        self._numbers.insert(i + 1, line)
        return line


def _blank(text: str, start: int, end: int) -> bool:
    """Is text[start:end] (one logical line) likely to hold only space and comments?"""
    line = text[start:end].strip()
    return not line or line.startswith("//") or line.startswith("/*") and line.find("*/") in (-1, len(line) - 2)
