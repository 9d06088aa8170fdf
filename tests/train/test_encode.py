"""Token ids and labels against the chat template, token by token; the bin packer; the
packed collator's positions and labels."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from cass_cc.model.prompts import SOURCE, messages
from cass_train.data import make_example
from cass_train.encode import IGNORE, ChatEncoder, Encoded, pack, within
from tests.train.conftest import cuda_of, hip_of, needs_torch


@pytest.fixture(scope="module")
def tok():  # type: ignore[no-untyped-def]
    pytest.importorskip("tokenizers")
    pytest.importorskip("transformers")
    from cass_cc.model.synthetic import build_tokenizer

    return build_tokenizer()


@needs_torch
@pytest.mark.parametrize("name", ["scale", "flip"])
def test_labels_are_exactly_the_answer_tokens(tok, name: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from cass_cc.model.hf import HFBackend
    from cass_cc.model.settings import ModelSettings
    from cass_cc.model.store import Store

    ex = make_example("source", cuda_of(name), hip_of(name), name, "t")
    enc = ChatEncoder(tok)
    [e] = enc.encode([ex])
    # the prompt part is what cass-cc's transformers backend sends for this file
    backend = HFBackend(ModelSettings(model="unused"), Store(tmp_path))
    backend.tokenizer = tok
    head_ids = tok(backend.chat_text(SOURCE.prompt(cuda_of(name))), add_special_tokens=False)["input_ids"]
    assert e.input_ids[: len(head_ids)] == head_ids
    # the whole conversation as the template renders it, tokenized in one piece
    chat = [*messages(ex.prompt), {"role": "assistant", "content": ex.answer}]
    full_ids = tok(tok.apply_chat_template(chat, tokenize=False), add_special_tokens=False)["input_ids"]
    assert full_ids[: len(e.input_ids)] == e.input_ids
    assert tok.decode(full_ids[len(e.input_ids):]) == "\n"  # only the template's newline after <|im_end|>
    for i, (token, label) in enumerate(zip(e.input_ids, e.labels)):
        assert label == (IGNORE if i < len(head_ids) else token), i
    answer_ids = [t for t, lab in zip(e.input_ids, e.labels) if lab != IGNORE]
    assert tok.decode(answer_ids) == ex.answer + "<|im_end|>"
    assert answer_ids[-1] == tok.convert_tokens_to_ids("<|im_end|>")
    assert SOURCE.extract(tok.decode(answer_ids, skip_special_tokens=True)) == hip_of(name)


@needs_torch
def test_template_without_answer_after_generation_prompt_is_refused(tok) -> None:  # type: ignore[no-untyped-def]
    from cass_train.recipe import RecipeError

    tok = tok.__class__(tokenizer_object=tok.backend_tokenizer, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tok.chat_template = "{% for m in messages %}{{ m['role'] }}: {{ m['content'] | upper }}\n{% endfor %}"
    with pytest.raises(RecipeError, match="cannot tell answer tokens from prompt tokens"):
        ChatEncoder(tok)
    tok.chat_template = None
    with pytest.raises(RecipeError, match="has no chat template"):
        ChatEncoder(tok)


def test_within_drops_and_counts_by_task() -> None:
    items = [Encoded([1] * n, [1] * n, task) for n, task in ((5, "source"), (9, "source"), (12, "assembly"), (8, "assembly"))]
    kept, dropped = within(items, 8)
    assert [len(e) for e in kept] == [5, 8] and dropped == {"source": 1, "assembly": 1}


def test_pack_fills_bins_without_overflow_and_deterministically() -> None:
    rng = random.Random(3)
    lengths = [rng.randint(1, 100) for _ in range(500)]
    bins = pack(lengths, 128)
    assert sorted(i for b in bins for i in b) == list(range(500))
    assert all(sum(lengths[i] for i in b) <= 128 for b in bins)
    lower = -(-sum(lengths) // 128)
    assert len(bins) <= lower * 1.05 + 1  # best-fit decreasing is near the bound on such data
    assert pack(lengths, 128) == bins
    assert pack([128, 1], 128) == [[0], [1]]
    with pytest.raises(ValueError):
        pack([129], 128)


@needs_torch
def test_packed_collator_restarts_positions_and_separates_labels() -> None:
    from cass_train.encode import PackedCollator

    rows = [{"examples": [{"input_ids": [5, 6, 7], "labels": [IGNORE, 6, 7]}, {"input_ids": [8, 9], "labels": [8, 9]}]},
            {"examples": [{"input_ids": [3, 4], "labels": [IGNORE, 4]}]}]
    batch = PackedCollator()(rows)
    assert batch["input_ids"].tolist() == [[5, 6, 7, 8, 9, 3, 4]]
    assert batch["position_ids"].tolist() == [[0, 1, 2, 0, 1, 0, 1]]
    # the first token of each example is never a target: nothing predicts across a boundary
    assert batch["labels"].tolist() == [[IGNORE, 6, 7, IGNORE, 9, IGNORE, 4]]
    assert "attention_mask" not in batch


@needs_torch
def test_packed_collator_pads_to_a_fixed_shape_with_a_sequence_of_its_own() -> None:
    from cass_train.encode import PackedCollator

    rows = [{"examples": [{"input_ids": [5, 6, 7], "labels": [IGNORE, 6, 7]}]},
            {"examples": [{"input_ids": [8, 9], "labels": [8, 9]}]}]
    batch = PackedCollator(pad_to=4, pad_id=0)(rows)
    assert batch["input_ids"].tolist() == [[5, 6, 7, 8, 9, 0, 0, 0]]  # 2 rows x 4 tokens
    assert batch["position_ids"].tolist() == [[0, 1, 2, 0, 1, 0, 1, 2]]  # the padding restarts positions
    assert batch["labels"].tolist() == [[IGNORE, 6, 7, IGNORE, 9, IGNORE, IGNORE, IGNORE]]
    full = [{"examples": [{"input_ids": [1, 2, 3, 4], "labels": [1, 2, 3, 4]}]}]
    assert PackedCollator(pad_to=4)(full)["input_ids"].tolist() == [[1, 2, 3, 4]]  # nothing to add


@needs_torch
@pytest.mark.parametrize("attention, compile, loss, padded", [
    ("sdpa", "off", "model", False), ("sdpa", "regional", "model", True), ("flex_attention", "off", "model", True),
    ("eager", "model", "model", True), ("sdpa", "off", "compiled", True)])
def test_packed_rows_get_fixed_shapes_when_something_compiles(attention: str, compile: str, loss: str,
                                                              padded: bool) -> None:
    from cass_train.encode import packed_collator
    from cass_train.recipe import Data, Model, Recipe, Train

    recipe = Recipe(model=Model(base="x", attention=attention), data=Data(max_length=64),
                    train=Train(compile=compile, loss=loss))
    collator = packed_collator(recipe, pad_id=7)
    assert (collator.pad_to, collator.pad_id) == ((64, 7) if padded else (0, 7))
