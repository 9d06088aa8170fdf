"""Examples -> token ids and labels, through the tokenizer's own chat template.

The prompt part is the text cass-cc's model translator sends (hf.py: the prompt as the one
user message, `add_generation_prompt=True`, tokenized without extra special tokens), so
the model is trained on exactly the ids it will see. The answer part is what the template
puts after that for the assistant message: the fenced answer and the turn's end token
(`<|im_end|>` for Qwen's ChatML); its trailing newline is not learned. Labels are -100 on
the prompt and the answer ids on the answer: the loss covers answer tokens only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from cass_cc.model.prompts import messages

from .data import Example
from .recipe import RecipeError

IGNORE = -100


@dataclass(frozen=True)
class Encoded:
    input_ids: list[int]
    labels: list[int]
    task: str

    def __len__(self) -> int:
        return len(self.input_ids)


class ChatEncoder:
    def __init__(self, tokenizer: Any) -> None:
        if not getattr(tokenizer, "chat_template", None):
            raise RecipeError(f"{getattr(tokenizer, 'name_or_path', 'tokenizer')}: the tokenizer has no chat template "
                              "(cass-cc asks through one; use an instruct model's tokenizer)")
        self.tok = tokenizer
        self.turn_end = self._turn_end()

    def _turn_end(self) -> str:
        """What the template writes after an assistant message, up to its last special
        token: '<|im_end|>' for ChatML."""
        probe = "```amd\nPROBE\n```"
        head = self.head("x")
        full = self._render([*messages("x"), {"role": "assistant", "content": probe}], generation_prompt=False)
        if not full.startswith(head + probe):
            raise RecipeError(f"{self.tok.name_or_path}: the chat template does not put the assistant's answer right "
                              "after the generation prompt; cannot tell answer tokens from prompt tokens")
        tail = full[len(head) + len(probe):].rstrip()
        if not tail:
            tail = self.tok.eos_token or ""
        return tail

    def _render(self, chat: list[dict[str, str]], generation_prompt: bool) -> str:
        return str(self.tok.apply_chat_template(chat, tokenize=False, add_generation_prompt=generation_prompt))

    def head(self, prompt: str) -> str:
        """The text cass-cc sends for `prompt` (hf.py chat_text)."""
        return self._render(messages(prompt), generation_prompt=True)

    def turn_end_ids(self) -> list[int]:
        return list(self.tok(self.turn_end, add_special_tokens=False)["input_ids"])

    def encode(self, examples: Sequence[Example]) -> list[Encoded]:
        heads = [self.head(e.prompt) for e in examples]
        answers = [e.answer + self.turn_end for e in examples]
        head_ids = self.tok(heads, add_special_tokens=False)["input_ids"] if heads else []
        answer_ids = self.tok(answers, add_special_tokens=False)["input_ids"] if answers else []
        return [
            Encoded(list(h) + list(a), [IGNORE] * len(h) + list(a), e.task)
            for h, a, e in zip(head_ids, answer_ids, examples)
        ]


def within(encoded: list[Encoded], max_length: int) -> tuple[list[Encoded], dict[str, int]]:
    """The examples of at most `max_length` tokens, and how many of each task were dropped."""
    kept, dropped = [], {}
    for e in encoded:
        if len(e) <= max_length:
            kept.append(e)
        else:
            dropped[e.task] = dropped.get(e.task, 0) + 1
    return kept, dropped


def pack(lengths: Sequence[int], capacity: int) -> list[list[int]]:
    """Best-fit decreasing: indices grouped into bins of at most `capacity` tokens (each
    length must fit). Deterministic: ties go to the lower index and the older bin."""
    import bisect

    order = sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))
    bins: list[list[int]] = []
    free: list[tuple[int, int]] = []  # (room left, bin number), sorted
    for i in order:
        n = lengths[i]
        if n > capacity:
            raise ValueError(f"example of {n} tokens does not fit in {capacity}")
        at = bisect.bisect_left(free, (n, -1))
        if at < len(free):
            room, b = free.pop(at)
            bins[b].append(i)
            bisect.insort(free, (room - n, b))
        else:
            bins.append([i])
            bisect.insort(free, (capacity - n, len(bins) - 1))
    return bins


class Rows:
    """A map-style dataset (torch's protocol) over prepared rows."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> dict[str, Any]:
        return self.rows[i]


def packed_rows(encoded: list[Encoded], capacity: int) -> Rows:
    """One row per bin: {"examples": [{"input_ids", "labels"}, ...]}."""
    bins = pack([len(e) for e in encoded], capacity)
    return Rows([{"examples": [{"input_ids": encoded[i].input_ids, "labels": encoded[i].labels} for i in b]} for b in bins])


def plain_rows(encoded: list[Encoded]) -> Rows:
    return Rows([{"input_ids": e.input_ids, "labels": e.labels} for e in encoded])


class PackedCollator:
    """The examples of a batch's bins laid end to end in one row by transformers'
    DataCollatorWithFlattening: position ids restart at every example (sdpa/eager/flex get a
    block-diagonal mask from them, flash attention its cumulative lengths), and the first
    label of each example is -100, so no example attends to or predicts another.

    With `pad_to`, a batch of k bins becomes exactly k x pad_to tokens: the room left is one
    more sequence of `pad_id` tokens, labelled -100, with its own positions (nothing attends
    across it). Every batch then has the same shape, so torch.compile and flex attention
    compile once instead of once per length."""

    def __init__(self, flash_kwargs: bool = False, pad_to: int = 0, pad_id: int = 0) -> None:
        from transformers import DataCollatorWithFlattening

        self.flatten = DataCollatorWithFlattening(return_position_ids=True, return_flash_attn_kwargs=flash_kwargs)
        self.pad_to = pad_to
        self.pad_id = pad_id

    def __call__(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        examples = [ex for row in rows for ex in row["examples"]]
        room = self.pad_to * len(rows) - sum(len(ex["input_ids"]) for ex in examples)
        if self.pad_to and room > 0:
            examples.append({"input_ids": [self.pad_id] * room, "labels": [IGNORE] * room})
        return dict(self.flatten(examples))


def takes_lengths(attention: str) -> bool:
    """Attention implementations that take packed rows as cumulative example lengths."""
    return attention.startswith("flash") or attention == "torch_varlen"


def packed_collator(recipe: Any, pad_id: int) -> PackedCollator:
    """The collator for a recipe's packed rows: flash attention gets cumulative lengths;
    fixed shapes (rows padded to data.max_length) when something compiles for the shape
    (train.compile, train.loss = compiled, flex attention)."""
    from .model import attention, compile_mode, loss_mode

    attn = attention(recipe)
    static = compile_mode(recipe) != "off" or loss_mode(recipe) == "compiled" or attn == "flex_attention"
    return PackedCollator(flash_kwargs=takes_lengths(attn), pad_to=recipe.data.max_length if static else 0,
                          pad_id=pad_id)


def padded_collator(tokenizer: Any) -> Any:
    """Without packing: each batch padded to its longest example (labels with -100)."""
    from transformers import DataCollatorForSeq2Seq

    return DataCollatorForSeq2Seq(tokenizer, padding="longest", label_pad_token_id=IGNORE, return_tensors="pt")
