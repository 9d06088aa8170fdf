"""Answers that end before their token limit (cass_cc/model/stops.py): a closed answer fence,
a loop; and the local backend that stops them, against transformers' generate without stops."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pytest

from cass_cc.model.prompts import ASSEMBLY, SOURCE, extract
from cass_cc.model.stops import LOOP_EVERY, LOOP_PERIOD, LOOP_SPAN, Ends, answer_fence, loop_period
from tests.model.conftest import needs_torch

EOS = 0


def chars(text: str) -> list[int]:
    return [ord(c) for c in text]


def decode(ids: Sequence[int]) -> str:
    return "".join(chr(i) for i in ids if i != EOS)


def run(ends: Ends, rows: list[list[int]]) -> int:
    """Feeds the rows to `ends` a token at a time, padding ended rows with EOS as generate()
    does, until every row is over or spent. Returns the steps taken."""
    steps = 0
    while True:
        over = ends.step([ids[steps] if steps < len(ids) else EOS for ids in rows])
        steps += 1
        if all(over) or steps >= max(map(len, rows)):
            return steps


def test_loop_period_is_the_shortest_cycle_of_the_tail() -> None:
    assert loop_period([5] * (LOOP_SPAN + 1)) == 1
    cycle = chars("((unsigned)")
    looping = chars("int main() {\n") + cycle * (LOOP_SPAN // len(cycle) + 2)
    assert loop_period(looping) == len(cycle)
    assert loop_period(looping[: LOOP_SPAN - 1]) == 0  # too short to tell
    # a tail that breaks the cycle once; a cycle longer than the longest looked for
    broken = looping[:-20] + [1] + looping[-19:]
    assert loop_period(broken) == 0
    assert loop_period(list(range(LOOP_PERIOD + 1)) * 4) == 0
    # the same 19 declarations over and over, 4 tokens each ("    ", "unsigned", " q", ";\n") ...
    decls = [t for c in "defghijkpqrstuvwxyz" for t in (1, 2, ord(c), 3)]
    assert loop_period(chars("{\n") + decls * 4) == len(decls) == 76
    # ... but two equal blocks one after the other are code, not yet a loop
    assert loop_period(chars("{\n") + decls * 2) == 0


def test_an_answer_ends_when_its_fence_closes_and_not_at_the_opening() -> None:
    answer = chars("Here it is:\n```amd\n__global__ void k() {}\n```\nThis kernel ...")
    ends = Ends(["amd"], decode, {EOS})
    steps = run(ends, [answer])
    assert ends.why == {0: "closed"}
    kept = decode(ends.trim(0, answer + [EOS] * 5))
    assert kept.endswith("{}\n```") and steps == len(kept)
    assert extract(kept, "amd") == extract(decode(answer), "amd") == "__global__ void k() {}\n"


def test_a_fence_of_another_tag_does_not_end_the_answer() -> None:
    answer = chars("```cuda\nx\n```\nand in HIP:\n```amd\ny\n```")
    ends = Ends(["amd"], decode, {EOS})
    run(ends, [answer])
    assert ends.why == {0: "closed"} and len(ends.rows[0]) == len(answer)
    ends = Ends([None], decode, {EOS})  # a prompt in neither format: no fence rule
    run(ends, [answer])
    assert ends.why == {}


def test_rows_end_on_their_own_and_keep_their_tokens() -> None:
    cycle = chars("HIP_SYMBOL(")
    looping = chars("```amd\n") + cycle * 40
    eos_row = chars("```amd\nx") + [EOS]
    plain = chars(" ".join(map(str, range(150))))  # no fence and no loop, and the longest row
    ends = Ends(["amd", "amd", "amd"], decode, {EOS})
    run(ends, [looping, eos_row, plain])
    assert ends.why == {0: "looping", 1: "eos"}
    looped = len(ends.rows[0])
    assert looped % LOOP_EVERY == 0 and LOOP_SPAN < looped < len(looping)
    assert ends.trim(0, looping) == looping[:looped]
    assert ends.trim(1, eos_row + [EOS] * 3) == eos_row
    assert ends.trim(2, plain) == plain


def test_answer_fence_follows_the_prompt_format() -> None:
    assert answer_fence(SOURCE.prompt("__global__ void k() {}")) == "amd"
    assert answer_fence(ASSEMBLY.prompt("MOV R1, c[0x0][0x28] ;")) == "hipasm"
    assert answer_fence("Translate this:\n```cuda\nx\n```") is None


@needs_torch
def test_the_local_backend_stops_a_looping_batch_early(tiny_model: Path, tmp_path: Path) -> None:
    """The tiny random model loops at once (newlines). With stops each answer is a prefix of
    what plain greedy generate() gives, and the batch ends long before the token limit."""
    from cass_cc.model.hf import HFBackend
    from cass_cc.model.settings import Generation, ModelSettings
    from cass_cc.model.store import Store

    limit = 3 * LOOP_SPAN
    backend = HFBackend(ModelSettings(model=str(tiny_model), device="cpu"), Store(tmp_path))
    prompts = [SOURCE.prompt(f"__global__ void k(int* x) {{ x[0] = {i}; }}") for i in range(3)]
    stopped = backend.generate(prompts, Generation(max_new_tokens=limit))
    assert backend.ends == {"looping": 3} and backend.generated_tokens < len(prompts) * (LOOP_SPAN + 2 * LOOP_EVERY)

    import torch

    tok, model = backend.tokenizer, backend.model
    for prompt, answer in zip(prompts, stopped):
        enc = tok([backend.chat_text(prompt)], return_tensors="pt", add_special_tokens=False)
        with torch.inference_mode():
            out = model.generate(**enc, max_new_tokens=limit, do_sample=False, pad_token_id=tok.pad_token_id)
        full = tok.decode(out[0, enc["input_ids"].shape[1]:], skip_special_tokens=True)
        assert full.startswith(answer) and len(answer) < len(full)
        assert extract(full, "amd") is None  # nothing was lost: the whole answer is refused too
