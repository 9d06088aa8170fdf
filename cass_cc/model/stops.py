"""When a generated answer is over before its token limit (local weights, hf.py).

A batch of answers runs until its last row ends. Two kinds of row end early here:
- **closed**: the answer's fence has closed. Nothing after it is ever read (prompts.extract).
- **looping**: its last LOOP_SPAN tokens (and LOOP_REPEATS turns at least) repeat one cycle
  of at most LOOP_PERIOD tokens: `((unsigned)((unsigned)((unsigned)...`, or the same twenty
  declarations `unsigned d;` ... `unsigned z;` over and over. Greedy decoding seldom leaves
  such a loop, and at the token limit the answer would have no closed fence either: it is
  refused, sooner.
Measured (bench/results/smollm2/README.md): 4 of the fine-tuned SmolLM2's 11 niche answers
loop, and each held its batch to the limit.

Stopping changes the answer text a backend returns, so STOPS is part of the local backend's
identity (hf.py), and with it of every cached answer's key. Pure Python: the transformers
glue is hf.py's.
"""
from __future__ import annotations

from typing import Callable, Collection, Sequence

from .prompts import ASSEMBLY, SOURCE, extract

STOPS = "stops-1"  # change when the rules below change
LOOP_SPAN = 256  # tokens of one repeated cycle, at least, before an answer counts as looping
LOOP_REPEATS = 3  # ... and at least this many turns of the cycle
LOOP_PERIOD = 128  # the longest cycle looked for
LOOP_EVERY = 16  # steps between loop checks


def answer_fence(prompt: str) -> str | None:
    """The fence the answer to `prompt` is read from, or None for a prompt in neither format."""
    for form in (SOURCE, ASSEMBLY):
        if prompt.startswith(form.instruction + "\n```" + form.input_fence + "\n"):
            return form.answer_fence
    return None


def loop_period(ids: Sequence[int]) -> int:
    """The shortest cycle (at most LOOP_PERIOD tokens) that the end of `ids` repeats over
    max(LOOP_SPAN, LOOP_REPEATS cycles) tokens, each token equal to the one a cycle before it;
    0 when there is none."""
    for period in range(1, LOOP_PERIOD + 1):
        span = max(LOOP_SPAN, LOOP_REPEATS * period)
        if len(ids) < span:
            return 0
        if ids[len(ids) - span + period :] == ids[len(ids) - span : len(ids) - period]:
            return period
    return 0


class Ends:
    """Which rows of a batch are over, one generated token at a time. `decode(ids)` turns
    token ids into text; `fences[row]` is the row's answer fence (None: only the loop rule);
    a row also ends at any of the `eos` tokens, as generate() ends it."""

    def __init__(self, fences: Sequence[str | None], decode: Callable[[Sequence[int]], str],
                 eos: Collection[int] = ()) -> None:
        self.fences = list(fences)
        self.decode = decode
        self.eos = set(eos)
        self.rows: list[list[int]] = [[] for _ in self.fences]  # each row's new tokens, up to its end
        self.why: dict[int, str] = {}  # row -> "eos", "closed" or "looping"
        self._ticks: dict[int, bool] = {}  # token id -> whether its text has a backtick

    def step(self, tokens: Sequence[int]) -> list[bool]:
        """`tokens`: the token each row has just generated. Returns whether each row is over."""
        for row, token in enumerate(tokens):
            if row in self.why:
                continue  # generate() pads a finished row
            ids = self.rows[row]
            ids.append(token)
            fence = self.fences[row]
            if token in self.eos:
                self.why[row] = "eos"
            elif fence is not None and self._tick(token) and extract(self.decode(ids), fence) is not None:
                self.why[row] = "closed"
            elif len(ids) % LOOP_EVERY == 0 and loop_period(ids):
                self.why[row] = "looping"
        return [row in self.why for row in range(len(self.rows))]

    def _tick(self, token: int) -> bool:
        if token not in self._ticks:
            self._ticks[token] = "`" in self.decode([token])
        return self._ticks[token]

    def trim(self, row: int, ids: list[int]) -> list[int]:
        """A row's tokens (its end token included) without the padding generate() adds after it."""
        return ids[: len(self.rows[row])] if row in self.why else ids
