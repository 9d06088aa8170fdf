"""What the rewrites (rewrites.py) read and write of a translation job: the shape of rules._Job,
here so that rewrites.py does not import the rules translator that calls it."""
from __future__ import annotations

from typing import Protocol

from .base import Target
from .lexer import Token


class Job(Protocol):
    tokens: list[Token]  # the source's tokens
    out: list[str]  # the output text of each token (a rewrite edits these)
    target: Target
    emitted: set[str]  # HIP names written, for the prelude

    def braces(self) -> list[int]: ...

    def prev_sig(self, i: int, back: int = 1) -> Token | None: ...

    def prev_sig_index(self, i: int) -> int | None: ...

    def next_sig_index(self, i: int) -> int | None: ...

    def call_args(self, i: int) -> tuple[int, list[list[int]]] | None: ...

    def newlines(self, indices: list[int]) -> str: ...

    def warn(self, tok: Token, message: str) -> None: ...

    def note(self, tok: Token, message: str) -> None: ...
