"""Training throughput of a recipe's shapes on synthetic data (`cass-train bench`,
bench/train_h100.py). Needs torch and transformers (peft for LoRA), nothing else.

Random weights of the recipe's model config (bench.config, a config.json, else the base
model's config: no weights are downloaded), random token ids with example lengths drawn
from bench.lengths and cut at data.max_length (or, with bench.lengths = "data", the token
lengths of the recipe's own examples), half of each example's tokens labelled as the answer. The same Trainer, arguments, model setup, packing and collators as
`cass-train sft`; only the data is synthetic and nothing is saved.

Reported: real (non-padding) tokens per second per GPU over the steps after bench.warmup
(counted by the collator on the host: timing adds no device sync but one per optimizer step),
model FLOPs utilisation (cass_train/flops.py; bf16 dense peak of the GPU), step time, peak
memory, and a check that packed examples do not attend to each other with the attention
implementation in use. With --padded: the same examples without packing, padded per
batch, batch.size examples a batch (a plain Trainer run).
"""
from __future__ import annotations

import json
import math
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from .recipe import Recipe, RecipeError


def synthetic_lengths(spec: str, count: int, max_length: int, seed: int) -> list[int]:
    """lognormal:MEDIAN:SIGMA | uniform:LO:HI | fixed:N, each cut to [16, max_length]."""
    rng = random.Random(seed)
    kind, *args = spec.split(":")
    try:
        nums = [float(a) for a in args]
        if kind == "lognormal":
            median, sigma = nums
            raw = [median * math.exp(rng.gauss(0.0, sigma)) for _ in range(count)]
        elif kind == "uniform":
            lo, hi = nums
            raw = [rng.uniform(lo, hi) for _ in range(count)]
        elif kind == "fixed":
            raw = [nums[0]] * count
        else:
            raise ValueError(kind)
    except ValueError:
        raise RecipeError(f"bench.lengths: expected lognormal:MEDIAN:SIGMA, uniform:LO:HI or fixed:N, not {spec!r}") from None
    return [max(16, min(max_length, int(round(x)))) for x in raw]


def data_lengths(recipe: Recipe, count: int, seed: int) -> list[int]:
    """Lengths of the recipe's own examples (chat template included, those over
    data.max_length dropped), `count` of them drawn with replacement."""
    from .data import load_examples
    from .encode import ChatEncoder, within
    from .model import load_tokenizer

    if not recipe.data.sources:
        raise RecipeError(f"{recipe.path}: bench.lengths = \"data\" needs [[data.sources]]")
    encoded, _ = within(ChatEncoder(load_tokenizer(recipe)).encode(load_examples(recipe.data).train), recipe.data.max_length)
    if not encoded:
        raise RecipeError(f"{recipe.path}: no example of the data fits data.max_length")
    rng = random.Random(seed)
    return [len(rng.choice(encoded)) for _ in range(count)]


def synthetic_examples(lengths: list[int], vocab: int, seed: int) -> list[Any]:
    """Random ids in [1, vocab) (0 is the bench tokenizer's padding), labels on the second half."""
    import torch

    from .encode import IGNORE, Encoded

    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, vocab, (sum(lengths),), generator=g).tolist()
    out, at = [], 0
    for n in lengths:
        chunk = ids[at:at + n]
        at += n
        cut = n // 2
        out.append(Encoded(chunk, [IGNORE] * cut + chunk[cut:], "source"))
    return out


def model_config(recipe: Recipe) -> Any:
    from transformers import AutoConfig

    try:
        if recipe.bench.config:
            return AutoConfig.for_model(**json.loads(Path(recipe.bench.config).read_text()))
        from .model import pretrained

        source, files = pretrained(recipe)
        return AutoConfig.from_pretrained(source, trust_remote_code=False, **files)
    except (OSError, ValueError) as e:
        where = recipe.bench.config or recipe.model.base
        raise RecipeError(f"{where}: cannot read the model config: {' '.join(str(e).split())[:300]}") from None


def isolation_check(config: Any, recipe: Recipe) -> dict[str, Any]:
    """Packed vs one-at-a-time logits on a 2-layer model of the same shape, in the dtype and
    attention implementation the run uses. `leak` is the difference when the examples are
    allowed to attend to each other; `ok` when the packed difference is far below it.

    Every forward has the packed row's length, so an attention that compiles per shape (flex)
    compiles once: an example "alone" is followed by filler tokens as a second sequence of
    its own, which a causal model cannot let change the example's logits."""
    import copy

    import torch

    from .encode import PackedCollator, takes_lengths
    from .model import attention, load_model
    from .recipe import with_overrides

    small = copy.deepcopy(config)
    small.num_hidden_layers = 2
    probe = with_overrides(recipe, {"train.method": "full"})
    model = load_model(probe, config=small)
    device = next(model.parameters()).device
    model.to(torch.bfloat16 if device.type == "cuda" else torch.float32).eval()
    docs = synthetic_examples([301, 677, 152], int(small.vocab_size), seed=5)
    total = sum(len(e) for e in docs)
    collate = PackedCollator(flash_kwargs=takes_lengths(attention(recipe)), pad_to=total, pad_id=0)

    def logits(examples: list[Any]) -> Any:
        batch = collate([{"examples": [{"input_ids": e.input_ids, "labels": e.labels} for e in examples]}])
        inputs = {k: v.to(device) if hasattr(v, "to") else v for k, v in batch.items() if k != "labels"}
        return model(**inputs).logits[0].float()

    with torch.no_grad():
        packed = logits(docs)
        ids = torch.tensor([[t for e in docs for t in e.input_ids]], device=device)
        crossed = model(input_ids=ids).logits[0].float()  # one sequence: the examples see each other
        diff = leak = 0.0
        at = 0
        for e in docs:
            alone = logits([e])[:len(e)]
            diff = max(diff, (packed[at:at + len(e)] - alone).abs().max().item())
            leak = max(leak, (crossed[at:at + len(e)] - alone).abs().max().item())
            at += len(e)
    del model, packed, crossed
    if device.type == "cuda":
        torch.cuda.empty_cache()
    return {"max_diff": diff, "leak_diff": leak, "ok": diff < 0.1 * leak}


class CountingCollator:
    """A collator that also counts each batch's real tokens (pad id excluded) on the host, so
    timing needs no device sync; batches are counted in the order the Trainer takes them."""

    def __init__(self, inner: Any, pad_id: int) -> None:
        self.inner = inner
        self.pad_id = pad_id
        self.counts: list[int] = []

    def __call__(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        batch = self.inner(rows)
        self.counts.append(int((batch["input_ids"] != self.pad_id).sum()))
        return dict(batch)

    def tokens(self, batches: int) -> int:
        return sum(self.counts[:batches])


def run_bench(recipe: Recipe, padded: bool = False, batch_size: int | None = None, check: bool = True,
              profile: Path | None = None) -> dict[str, Any]:
    """`profile`: a folder; two more optimizer steps after the measured ones run under
    torch.profiler, and their summary goes there (profile.txt, profile.json)."""
    import torch
    import transformers
    from transformers import Trainer, TrainerCallback

    from cass_cc.model.synthetic import build_tokenizer

    from . import encode
    from .flops import peak_flops, train_flops
    from .model import attention, compile_mode, count_parameters, liger, load_dtype, load_model, loss_mode, use_bf16
    from .recipe import with_overrides
    from .arguments import training_arguments
    from .loss import loss_function

    transformers.utils.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    if padded:
        recipe = with_overrides(recipe, {"data.packing": False})
    if batch_size is not None:
        recipe = with_overrides(recipe, {"train.batch_size": batch_size})
    b = recipe.bench
    config = model_config(recipe)
    gpu = torch.cuda.is_available()
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if gpu:
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    isolation = isolation_check(config, recipe) if check and recipe.data.packing else None
    if b.lengths == "data":
        lengths = data_lengths(recipe, b.examples, recipe.train.seed)
    else:
        lengths = synthetic_lengths(b.lengths, b.examples, recipe.data.max_length, recipe.train.seed)
    examples = synthetic_examples(lengths, int(config.vocab_size), recipe.train.seed)
    tok = build_tokenizer()  # pad id 0: the token counter's notion of padding
    if recipe.data.packing:
        rows: Any = encode.packed_rows(examples, recipe.data.max_length)
        collator = CountingCollator(encode.packed_collator(recipe, 0), 0)
    else:
        rows = encode.plain_rows(examples)
        collator = CountingCollator(encode.padded_collator(tok), 0)
    torch.manual_seed(recipe.train.seed)
    model = load_model(recipe, config=config)
    trainable, total = count_parameters(model)
    profiled = 2 if profile else 0
    steps = b.warmup + b.steps + profiled
    need = steps * recipe.train.batch_size * recipe.train.grad_accum * world
    if len(rows) < need:
        raise RecipeError(f"{recipe.path}: bench needs {need} rows for {steps} steps, the synthetic data gives "
                          f"{len(rows)}; raise bench.examples")
    marks: list[tuple[float, int]] = []
    accum = recipe.train.grad_accum
    main = os.environ.get("RANK", "0") == "0"  # under torchrun every rank runs the extra steps, one profiles
    profiler = Profiler(profile, b.warmup + b.steps, gpu) if profile and main else None

    class Timer(TrainerCallback):  # type: ignore[misc]
        def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> Any:
            if len(marks) < b.warmup + b.steps:
                if gpu:
                    torch.cuda.synchronize()
                marks.append((time.perf_counter(), collator.tokens(state.global_step * accum)))
            if profiler:
                profiler.step(state.global_step)
            return control

    with tempfile.TemporaryDirectory(prefix="cass-bench-") as tmp:
        args = training_arguments(recipe, Path(tmp), has_validation=False, max_steps=steps, save_strategy="no",
                                  report_to="none", logging_strategy="no", disable_tqdm=True)
        if gpu:
            torch.cuda.reset_peak_memory_stats()
        trainer = Trainer(model=model, args=args, train_dataset=rows, data_collator=collator, processing_class=tok,
                          callbacks=[Timer()], compute_loss_func=loss_function(recipe))
        trainer.train()
        seen = {"counted": collator.tokens(trainer.state.global_step * accum),
                "trainer": int(trainer.state.num_input_tokens_seen)}  # 0 with train.count_tokens = false
    if not collator.counts:
        raise RecipeError(f"{recipe.path}: bench counts tokens in the collator, which ran in dataloader workers; "
                          "leave train.args.dataloader_num_workers at 0")
    first = max(b.warmup, 1)  # timing starts at the end of a step
    (t0, n0), (t1, n1) = marks[first - 1], marks[-1]
    measured_steps = len(marks) - first
    per_gpu = _mean_over_ranks(n1 - n0) / (t1 - t0)
    flops_per_token = train_flops(config, lengths, recipe.train.method,
                                  trainable if recipe.train.method != "full" else 0) / sum(lengths)
    name = torch.cuda.get_device_name() if gpu else "cpu"
    peak = peak_flops(name) if gpu and use_bf16(recipe) else None
    result: dict[str, Any] = {
        "device": name, "gpus": world, "torch": torch.__version__, "transformers": transformers.__version__,
        "method": recipe.train.method, "packing": recipe.data.packing, "attention": attention(recipe),
        "liger": liger(recipe), "bf16": use_bf16(recipe), "gradient_checkpointing": recipe.train.gradient_checkpointing,
        "compile": compile_mode(recipe), "count_tokens": recipe.train.count_tokens, "loss": loss_mode(recipe),
        "liger_kernels": recipe.model.liger_kernels, "dtype": load_dtype(recipe),
        "optimizer": recipe.train.optimizer, "max_length": recipe.data.max_length, "batch_size": recipe.train.batch_size,
        "grad_accum": recipe.train.grad_accum, "lengths": b.lengths, "examples": len(lengths),
        "mean_length": sum(lengths) / len(lengths), "rows": len(rows),
        "parameters": total, "trainable_parameters": trainable,
        "warmup_steps": b.warmup, "measured_steps": measured_steps,
        "tokens_per_s_per_gpu": per_gpu, "step_time_s": (t1 - t0) / measured_steps,
        "tokens_per_step_per_gpu": _mean_over_ranks(n1 - n0) / measured_steps,
        "flops_per_token": flops_per_token, "peak_flops": peak,
        "mfu": per_gpu * flops_per_token / peak if peak else None,
        "isolation": isolation, "tokens_seen": seen,
    }
    if profiler:
        result["profile"] = profiler.summary
    if gpu:
        result.update(peak_memory_gib=torch.cuda.max_memory_allocated() / 2**30,
                      peak_reserved_gib=torch.cuda.max_memory_reserved() / 2**30,
                      memory_after_gib=torch.cuda.memory_allocated() / 2**30,
                      total_memory_gib=torch.cuda.get_device_properties(0).total_memory / 2**30)
    del trainer, model  # a second run in this process (--padded) starts with the memory back
    import gc

    gc.collect()
    if gpu:
        torch.cuda.empty_cache()
    return result


def _mean_over_ranks(tokens: int) -> float:
    """Tokens one process counted, averaged over the processes of a torchrun (one collective,
    after the timing)."""
    import torch
    import torch.distributed as dist

    if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() == 1:
        return float(tokens)
    device = torch.device("cuda", torch.cuda.current_device()) if torch.cuda.is_available() else torch.device("cpu")
    t = torch.tensor([float(tokens)], device=device)
    dist.all_reduce(t)
    return float(t.item()) / dist.get_world_size()


class Profiler:
    """torch.profiler over the optimizer steps after `start` (two of them): where device time
    goes (top kernels by CUDA time) and how busy the device was (kernel time / wall time)."""

    def __init__(self, folder: Path, start: int, gpu: bool) -> None:
        self.folder, self.start, self.gpu = Path(folder), start, gpu
        self.prof: Any = None
        self.t0 = 0.0
        self.summary: dict[str, Any] = {}

    def step(self, global_step: int) -> None:
        """A profiler failure is recorded in the summary; it never stops the run."""
        try:
            self._step(global_step)
        except Exception as e:  # noqa: BLE001 - the measurement before it stands
            self.summary = {"error": f"{type(e).__name__}: {e}"[:300]}
            self.prof = None

    def _step(self, global_step: int) -> None:
        import torch
        from torch.profiler import ProfilerActivity, profile

        if global_step == self.start and self.prof is None:
            if self.gpu:
                torch.cuda.synchronize()
            activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if self.gpu else [])
            self.prof = profile(activities=activities)
            self.prof.__enter__()
            self.t0 = time.perf_counter()
        elif global_step == self.start + 2 and self.prof is not None:
            if self.gpu:
                torch.cuda.synchronize()
            wall = time.perf_counter() - self.t0
            self.prof.__exit__(None, None, None)
            self._write(wall)

    def _write(self, wall: float) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        events = self.prof.key_averages()
        key = "self_device_time_total" if self.gpu else "self_cpu_time_total"
        sort = key
        rows = sorted(events, key=lambda e: getattr(e, key, 0), reverse=True)
        device_us = sum(getattr(e, key, 0) for e in events if getattr(e, "device_type", None) is not None
                        and str(e.device_type).endswith("CUDA")) if self.gpu else 0
        top = [{"name": e.key[:120], "calls": e.count, "self_us": getattr(e, key, 0)} for e in rows[:40]]
        self.summary = {"steps": 2, "wall_s": wall, "device_busy_s": device_us / 1e6,
                        "device_busy": device_us / 1e6 / wall if wall and self.gpu else None, "top": top[:15]}
        (self.folder / "profile.json").write_text(json.dumps({**self.summary, "top": top}, indent=2) + "\n")
        (self.folder / "profile.txt").write_text(events.table(sort_by=sort, row_limit=60, max_name_column_width=90))
