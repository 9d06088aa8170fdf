#!/usr/bin/env python3
"""cass_train's training throughput on NVIDIA GPUs, in one call (about 3-5 minutes; no new case
starts after --budget seconds, each case is stopped after 3-4 minutes, so it ends within 10).

    python3 bench/train_h100.py                      # results: $OUT (else bench/results/train_h100)
    python3 bench/train_h100.py --smoke              # the same flow on a tiny model (CPU is fine)
    python3 bench/train_h100.py --sweep              # MFU options of the 1.5B packed case (about 8 minutes)

--sweep runs the full-1.5b-packed case once per variant of the training setup (SWEEP below:
flex attention, regional torch.compile, 2 rows a micro-step, compiled cross-entropy on bf16
logits, no per-step token count, Liger without its fused linear cross-entropy, bf16
weights...), each in its own process with --sweep-warmup + --sweep-steps optimizer steps
(4 x 4,096 tokens each). "combo" stacks the options, less any that failed alone; if it fails
itself, "combo-retry" runs next without batch2 (out of memory) or without flex. "base",
"combo" and "combo-retry" also profile two more steps (profile.txt: top CUDA kernels, how
busy the GPU was). No variant starts after --sweep-budget (380) seconds and a running one is
stopped at --sweep-deadline (470), so the call ends within about 8 minutes. Output:
$OUT/sweep/<variant>.json and .log, $OUT/sweep.json, $OUT/sweep.md. On the H100 machine:

    pip install --no-deps --no-index build/wheels/liger_kernel-*.whl; python3 bench/train_h100.py --sweep

Needs torch, transformers and peft (accelerate comes with transformers' Trainer); with a
liger_kernel wheel installed first it adds a Liger case. Nothing is downloaded: the models are random weights made from the Qwen2.5-Coder configs in
cass_train/configs/models/, the data is synthetic (random ids; example lengths lognormal,
median 700 tokens, sigma 0.9, cut at 4,096: --lengths changes it).

Cases, each in its own process (memory goes back between them; a failure is recorded and
the rest still run), all through cass_train/throughput.py, i.e. the Trainer, model setup,
packing and collators of `cass-train sft`:
  full-1.5b-packed   Qwen2.5-Coder-1.5B shape, full fine-tuning, bf16 autocast, AdamW (fused),
                     4,096-token packed rows (DataCollatorWithFlattening, position ids restart
                     per example), 4 rows a micro-step (--packed-batch), one micro-step an
                     optimizer step (--grad-accum 4 rows), no activation checkpointing, and the
                     recipe defaults on a GPU, the sweep's winners: flex attention, regional
                     torch.compile, compiled cross-entropy, no per-step token sync.
                     First it checks that packed examples do not attend to each other with the
                     attention in use.
  full-1.5b-padded   the same examples without packing: a plain Trainer run, each batch padded to
                     its longest example. Batch size: the largest whose worst case (every example
                     4,096 tokens) fits 90% of GPU memory, from the packed run's measured memory
                     (per 4,096-token row of its micro-steps); halved on out-of-memory.
                     4 micro-steps an optimizer step. Tokens/s count real tokens only, in both.
  lora-7b-packed     Qwen2.5-Coder-7B shape, LoRA r=16 on all linear layers, bf16 base,
                     4,096-token packed rows, activation checkpointing.
  full-1.5b-packed-xN  the first case on all N GPUs (torchrun, DDP) when N >= 2: scaling. On 2
                     H200s, --grad-accum 8 (2 micro-steps an optimizer step: half the gradient
                     all-reduces per token) gave 1.82x, one micro-step 1.78x.
  full-1.5b-packed-liger  the first case with Liger kernels (fused RMSNorm, SwiGLU, RoPE, linear
                     cross-entropy), only when liger_kernel is installed. The other cases run
                     without them, so the packed/padded comparison is like for like.

Output: $OUT/<case>.json (everything measured), $OUT/train_h100.json (summary with the
issue's targets: MFU >= 45%, packing speedup >= 2x, scaling >= 1.8x), $OUT/train_h100.md.
"""
from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT, as_written  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

CONFIGS = ROOT / "cass_train" / "configs" / "models"
LENGTHS = "lognormal:700:0.9"
CASES = ("full-1.5b-packed", "full-1.5b-padded", "lora-7b-packed", "full-1.5b-packed-xN", "full-1.5b-packed-liger")

# (name, recipe overrides on full-1.5b-packed, what it tests); run in this order, cut by the budget.
# BASE pins the setup before the sweep (the recipe defaults are now the sweep's winners on a GPU);
# every variant is BASE with its own changes.
BASE: dict[str, Any] = {"model.attention": "sdpa", "train.compile": "off", "train.loss": "model",
                        "train.count_tokens": True}
FLEX = {"model.attention": "flex_attention"}
REGIONAL = {"train.compile": "regional"}
BATCH2 = {"train.batch_size": 2, "train.grad_accum": 2}  # the same 4 x 4,096 tokens an optimizer step
LIGER_NO_FLCE = {"model.liger": "true", "model.liger_kernels": ["rope", "rms_norm", "swiglu", "cross_entropy"]}
CLOSS = {"train.loss": "compiled"}
COMBO = {**FLEX, **REGIONAL, **BATCH2, **CLOSS, "train.count_tokens": False}
SWEEP: tuple[tuple[str, dict[str, Any], str], ...] = tuple((name, {**BASE, **changes}, what) for name, changes, what in (
    ("base", {}, "sdpa (masked kernel), eager, 1 row x 4 micro-steps, token count synced every micro-step"),
    ("flex", FLEX, "flex attention: block mask from the packed position ids, skips blocks across examples"),
    ("compile", REGIONAL, "torch.compile of each decoder layer (accelerate's regional compilation), fixed shapes"),
    ("batch2", BATCH2, "2 packed rows (8,192 tokens) a micro-step, 2 micro-steps"),
    ("combo", COMBO, "flex + compile + batch2 + closs + no token-count sync (less what failed alone)"),
    ("varlen", {"model.attention": "torch_varlen"},
     "PyTorch's varlen flash attention on the packed examples' lengths (cass_train/attention.py)"),
    ("closs", CLOSS, "compiled cross-entropy on the bf16 logits (no fp32 copy), fixed shapes"),
    ("nocount", {"train.count_tokens": False}, "no num_input_tokens_seen (no .item() sync a micro-step)"),
    ("liger-ce", LIGER_NO_FLCE, "Liger RoPE, RMSNorm, SwiGLU and cross-entropy, not its fused linear CE"),
    ("flex-compile-liger", {**FLEX, **REGIONAL, **LIGER_NO_FLCE}, "flex + compile + the Liger kernels above"),
    ("bf16-weights", {"model.dtype": "bfloat16"}, "ceiling only: bf16 weights and AdamW states (no fp32 master)"),
    # after the first sweep (combo 39.2% MFU): what is left on top of combo; run with
    # --variants combo,combo-ga4,combo-bf16,combo-ga4-bf16,combo-bf16-b4,combo-liger,combo-varlen
    ("combo-varlen", {**COMBO, "model.attention": "torch_varlen"}, "combo with PyTorch's varlen flash attention"),
    ("combo-ga4", {**COMBO, "train.grad_accum": 4}, "combo, 8 rows an optimizer step: AdamW's fp32 pass amortised"),
    ("combo-bf16", {**COMBO, "model.dtype": "bfloat16"},
     "ceiling only: combo with bf16 weights and AdamW states (no fp32 master copy)"),
    ("combo-liger", {**COMBO, "model.liger": "true", "model.liger_kernels": ["rope", "rms_norm", "swiglu"]},
     "combo + Liger RoPE/RMSNorm/SwiGLU kernels (its CE would replace the compiled loss's)"),
    ("combo-ga4-bf16", {**COMBO, "train.grad_accum": 4, "model.dtype": "bfloat16"},
     "combo-ga4 with bf16 weights and AdamW states"),
    ("combo-bf16-b4", {**COMBO, "model.dtype": "bfloat16", "train.batch_size": 4, "train.grad_accum": 1},
     "combo-bf16 with 4 rows (16,384 tokens) in one micro-step: larger matmuls"),
))
# a part of "combo" is left out (back to BASE) when its variant alone failed (or leaked across
# packed examples); when combo itself fails, "combo-retry" runs at once without batch2 (out of
# memory) or else without flex
COMBO_PARTS = {"flex": FLEX, "compile": REGIONAL, "batch2": BATCH2, "closs": CLOSS}


def without(overrides: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """`overrides` with `part`'s keys back at BASE (or at the recipe's value where BASE has none)."""
    out = {k: v for k, v in overrides.items() if k not in part}
    out.update({k: BASE[k] for k in part if k in BASE})
    return out


PROFILED = ("base", "combo", "combo-retry", "combo-bf16")


def recipe_for(case: str, args: SimpleNamespace, batch_size: int = 1) -> Any:
    from cass_train.recipe import Bench, Data, Lora, Model, Recipe, Train

    seven = case.startswith("lora-7b")
    config = args.config7 if seven else args.config15
    recipe = Recipe(
        model=Model(base=f"random weights of {Path(config).name}", attention=args.attention,
                    liger="true" if case.endswith("-liger") else "false"),
        data=Data(max_length=args.max_length, packing="padded" not in case),
        train=Train(method="lora" if seven else "full", batch_size=batch_size, grad_accum=1 if seven else args.grad_accum,
                    optimizer="adamw_torch_fused" if not args.smoke else "adamw_torch", learning_rate=1e-5,
                    scheduler="constant", warmup_ratio=0.0, bf16="auto", gradient_checkpointing=seven),
        lora=Lora(r=16, alpha=32, dropout=0.05, target_modules="all-linear"),
        bench=Bench(config=str(config), steps=args.steps_7b if seven else args.steps, warmup=args.warmup,
                    lengths=args.lengths, examples=args.examples),
    )
    if args.compile:
        recipe.train.args["torch_compile"] = True
    recipe.path = f"bench/train_h100.py:{case}"
    if args.set:
        from cass_train.recipe import check, parse_overrides, with_overrides

        pairs = parse_overrides([f"--{kv}" for kv in args.set], Path(recipe.path))
        recipe = with_overrides(recipe, dict(pairs))
        check(recipe, Path(recipe.path), need_data=False)
    return recipe


def worker(args: SimpleNamespace) -> int:
    """One case in this process (under torchrun for the multi-GPU case)."""
    from cass_train.throughput import run_bench

    case = args.case
    recipe = recipe_for(case, args, batch_size=args.batch_size)
    profile = Path(args.profile) if args.profile else None
    result = run_bench(recipe, check="padded" not in case and not args.no_check, profile=profile)
    result["case"] = case
    result["overrides"] = args.set
    if os.environ.get("RANK", "0") == "0":
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


def run_case(case: str, out: Path, args: SimpleNamespace, gpus: int = 1, batch_size: int = 1,
             timeout: float = 180, name: str = "", extra: tuple[str, ...] = (), grad_accum: int = 0) -> dict[str, Any]:
    target = out / f"{name or case.replace('xN', f'x{gpus}')}.json"
    env_extra: dict[str, str] = {}
    forward = ["--case", case, "--json", str(target), "--batch-size", str(batch_size), "--lengths", args.lengths,
               "--steps", str(args.steps), "--steps-7b", str(args.steps_7b), "--warmup", str(args.warmup),
               "--grad-accum", str(grad_accum or args.grad_accum),
               "--examples", str(args.examples), "--max-length", str(args.max_length), "--attention", args.attention,
               "--config15", str(args.config15), "--config7", str(args.config7)]
    if args.smoke:
        forward.append("--smoke")
        if args.sweep:  # on a CPU, compiling (flex attention, train.compile) takes minutes: run them eagerly
            env_extra = {"TORCHDYNAMO_DISABLE": "1"}
    if args.compile:
        forward.append("--compile")
    for kv in args.set:  # the caller's recipe overrides reach every case's process
        forward += ["--set", kv]
    forward += list(extra)
    me = [str(Path(__file__).resolve())]
    if gpus > 1:
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", str(gpus), *me, *forward]
        env = dict(os.environ)
    else:
        cmd = [sys.executable, *me, *forward]
        env = dict(os.environ)
        if not args.smoke:
            env["CUDA_VISIBLE_DEVICES"] = env.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0]
    env["PYTHONPATH"] = f"{ROOT}{os.pathsep}{env.get('PYTHONPATH', '')}"
    env.setdefault("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")  # less fragmentation at 2 rows a step
    env.update(env_extra)
    # NVLink multicast stays off on the shared GPU hosts (the device notes), whatever the caller's environment
    env.update(NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1", NVSHMEM_DISABLE_NVLS="1")
    start = time.time()
    print(f"== {name or case} on {gpus} GPU(s), batch {batch_size} {' '.join(extra)}", flush=True)
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        failed = proc.returncode != 0 or not target.is_file()
        tail = (proc.stdout + proc.stderr)[-4000:]
    except subprocess.TimeoutExpired as e:
        failed, tail = True, f"timed out after {timeout} s\n" + str((e.stderr or b"")[-3000:])
    (out / f"{target.stem}.log").write_text(tail)
    if failed:
        print(f"   failed ({time.time() - start:.0f} s); see {target.stem}.log:\n{tail[-1500:]}", flush=True)
        return {"case": name or case, "error": tail[-1500:]}
    result = json.loads(target.read_text())
    print(f"   {result['tokens_per_s_per_gpu']:.0f} tokens/s/GPU, MFU {_pct(result.get('mfu'))}, "
          f"peak {result.get('peak_memory_gib', 0):.1f} GiB ({time.time() - start:.0f} s)", flush=True)
    return dict(result)


def padded_batch(packed: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The largest batch whose worst case fits: memory that does not grow with tokens (weights,
    optimizer states, gradients: after-training memory + one fp32 gradient per parameter),
    plus the packed run's per-4,096-token growth (its growth / its rows a micro-step) once per
    example of the batch."""
    if "peak_memory_gib" not in packed:
        return 1, {"rule": "no GPU memory numbers: batch 1"}
    static = packed["memory_after_gib"] + 4 * packed["parameters"] / 2**30
    per_row = max((packed["peak_memory_gib"] - static) / packed.get("batch_size", 1), 0.5)
    budget = 0.9 * packed["total_memory_gib"]
    b = max(1, min(16, math.floor((budget - static) / per_row)))
    return b, {"static_gib": static, "per_4096_tokens_gib": per_row, "budget_gib": budget, "batch": b}


def _pct(x: Any) -> str:
    return f"{100 * x:.1f}%" if isinstance(x, (int, float)) else "n/a"


def summarize(results: dict[str, Any], rule: dict[str, Any], gpus: int, env: dict[str, Any]) -> dict[str, Any]:
    packed, padded, lora = (results.get(k, {}) for k in ("full-1.5b-packed", "full-1.5b-padded", "lora-7b-packed"))
    multi = results.get("full-1.5b-packed-xN", {})
    s: dict[str, Any] = {"environment": env, "lengths": packed.get("lengths"), "mean_length": packed.get("mean_length")}

    def pick(r: dict[str, Any], *keys: str) -> dict[str, Any]:
        return {k: r.get(k) for k in keys} if "error" not in r else {"error": r.get("error", "")[-400:]}

    keys = ("tokens_per_s_per_gpu", "mfu", "step_time_s", "tokens_per_step_per_gpu", "peak_memory_gib", "attention",
            "liger", "batch_size", "grad_accum", "gradient_checkpointing", "isolation", "compile", "loss", "count_tokens")
    s["full_1.5b_packed"] = pick(packed, *keys) if packed else "not run"
    s["full_1.5b_padded"] = pick(padded, *keys) if padded else "not run"
    s["padded_batch_rule"] = rule
    if "tokens_per_s_per_gpu" in packed and "tokens_per_s_per_gpu" in padded:
        s["packing_speedup"] = packed["tokens_per_s_per_gpu"] / padded["tokens_per_s_per_gpu"]
    s["lora_7b_packed"] = pick(lora, *keys, "trainable_parameters") if lora else "not run"
    if gpus >= 2 and multi:
        s[f"full_1.5b_packed_x{gpus}"] = pick(multi, *keys)
        if "tokens_per_s_per_gpu" in multi and "tokens_per_s_per_gpu" in packed:
            s["scaling"] = gpus * multi["tokens_per_s_per_gpu"] / packed["tokens_per_s_per_gpu"]
            if multi.get("compile") != packed.get("compile"):  # train.compile = auto compiles one process only
                s["scaling_note"] = (f"not like for like: torch.compile {packed.get('compile')} on one GPU, "
                                     f"{multi.get('compile')} on {gpus}")
    else:
        s["scaling"] = f"not run: {gpus} GPU visible"
    liger = results.get("full-1.5b-packed-liger")
    s["full_1.5b_packed_liger"] = pick(liger, *keys) if liger else "not run: liger_kernel not installed"
    s["targets"] = {
        "mfu_1.5b_packed >= 0.45": _meets(packed.get("mfu"), 0.45),
        "packing_speedup >= 2": _meets(s.get("packing_speedup"), 2.0),
        "scaling_2gpu >= 1.8": _meets(s.get("scaling") if gpus == 2 else None, 1.8),
        "packing_isolated": (packed.get("isolation") or {}).get("ok"),
    }
    return s


def _meets(x: Any, bound: float) -> bool | None:
    return None if not isinstance(x, (int, float)) else x >= bound


def markdown(s: dict[str, Any]) -> str:
    lines = ["| case | tokens/s/GPU | MFU | step s | peak GiB | batch | attention |", "|---|---:|---:|---:|---:|---:|---|"]
    for key, value in s.items():
        if isinstance(value, dict) and "tokens_per_s_per_gpu" in value:
            lines.append(f"| {key} | {value['tokens_per_s_per_gpu']:.0f} | {_pct(value.get('mfu'))} | "
                         f"{value.get('step_time_s') or 0:.3f} | {value.get('peak_memory_gib') or 0:.1f} | "
                         f"{value.get('batch_size')} | {value.get('attention')} |")
        elif isinstance(value, dict) and "error" in value:
            lines.append(f"| {key} | failed: {value['error'].splitlines()[-1] if value['error'] else ''} | | | | | |")
    lines.append("")
    for key in ("packing_speedup", "scaling", "scaling_note"):
        v = s.get(key)
        if v is not None or key != "scaling_note":
            lines.append(f"- {key}: {v:.2f}x" if isinstance(v, float) else f"- {key}: {v}")
    lines.append(f"- lengths: {s.get('lengths')} (mean {s.get('mean_length') or 0:.0f} tokens)")
    lines.append(f"- targets: {json.dumps(s['targets'])}")
    lines.append(f"- environment: {json.dumps(s['environment'])}")
    return "\n".join(lines) + "\n"


def environment() -> dict[str, Any]:
    import importlib.util

    import torch
    import transformers

    env: dict[str, Any] = {"torch": torch.__version__, "transformers": transformers.__version__,
                           "python": sys.version.split()[0], "gpus": torch.cuda.device_count(),
                           "device": torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu"}
    for name in ("peft", "accelerate", "flash_attn", "liger_kernel"):
        spec = importlib.util.find_spec(name)
        if spec is None:
            env[name] = None
        else:
            try:
                env[name] = __import__(name).__version__
            except Exception:  # present but broken: say so rather than stop
                env[name] = "present (import failed)"
    return env


@click.command(help=as_written(__doc__), context_settings=CONTEXT)
@click.option("--case", type=click.Choice(CASES), help="(internal) run one case in this process")
@click.option("--json", help="(internal) where the case writes its result")
@click.option("--batch-size", type=int, default=1)
@click.option("--only", default="", help="comma-separated cases to run (default: all)")
@click.option("--lengths", default=LENGTHS)
@click.option("--steps", type=int, default=30, help="measured steps of the 1.5B cases")
@click.option("--steps-7b", type=int, default=12, help="measured steps of the 7B case")
@click.option("--warmup", type=int, default=8)
@click.option("--grad-accum", type=int, default=4,
              help="rows an optimizer step in the 1.5B cases (micro-steps x --packed-batch when packed)")
@click.option("--packed-batch", type=int, default=4,
              help="packed rows a micro-step in the 1.5B packed cases (4: 73.7 GiB on the H100)")
@click.option("--examples", type=int, default=3000)
@click.option("--max-length", type=int, default=4096)
@click.option("--attention", default="auto",
              help="auto (flash_attention_2 when installed, else flex_attention for packed rows on a GPU, else sdpa), ...")
@click.option("--config15", default=str(CONFIGS / "qwen2.5-coder-1.5b.json"))
@click.option("--config7", default=str(CONFIGS / "qwen2.5-coder-7b.json"))
@click.option("--compile", is_flag=True, help="torch.compile the model (Trainer's torch_compile)")
@click.option("--smoke", is_flag=True, help="tiny model, few steps: checks this script, not the GPU")
@click.option("--budget", type=float, default=330, help="seconds after which no further case starts")
@click.option("--set", multiple=True, metavar="KEY=VALUE",
              help="recipe override for the cases (e.g. model.attention=flex_attention); repeatable")
@click.option("--no-check", is_flag=True, help="(internal) skip the packing isolation check")
@click.option("--profile", help="(internal) folder for a torch.profiler summary of two more steps")
@click.option("--sweep", is_flag=True, help="the MFU sweep of the 1.5B packed case instead of the cases")
@click.option("--variants", default="", help="comma-separated sweep variants (default: all)")
@click.option("--sweep-steps", type=int, default=12, help="measured optimizer steps a sweep variant")
@click.option("--sweep-warmup", type=int, default=3)
@click.option("--sweep-budget", type=float, default=380, help="seconds after which no sweep variant starts")
@click.option("--sweep-deadline", type=float, default=470, help="seconds after which a running variant is stopped")
def command(**kwargs: Any) -> int:
    args = SimpleNamespace(**kwargs)
    args.set = list(args.set)
    if args.smoke and not args.case:
        from cass_cc.model.synthetic import tiny_config

        out_tmp = Path(os.environ.get("OUT") or ROOT / "bench" / "results" / "train_h100_smoke")
        out_tmp.mkdir(parents=True, exist_ok=True)
        tiny = out_tmp / "tiny-config.json"
        tiny.write_text(json.dumps({"model_type": "qwen2", **tiny_config()}))
        args.config15 = args.config7 = str(tiny)
        args.steps, args.steps_7b, args.warmup, args.examples, args.max_length = 3, 2, 1, 200, 512
        args.sweep_steps, args.sweep_warmup = 2, 1
    if args.case:
        return worker(args)
    if args.sweep:
        return sweep(args)

    import torch

    out = Path(os.environ.get("OUT") or ROOT / "bench" / "results" / ("train_h100_smoke" if args.smoke else "train_h100"))
    out.mkdir(parents=True, exist_ok=True)
    env = environment()
    print(json.dumps(env), flush=True)
    gpus = torch.cuda.device_count()
    chosen = [c for c in CASES if not args.only or c in args.only.split(",")]
    # the 1.5B packed cases: --packed-batch rows a micro-step, the same rows an optimizer step
    packed = {"batch_size": args.packed_batch, "grad_accum": max(1, args.grad_accum // args.packed_batch)}
    started = time.time()
    results: dict[str, Any] = {}
    rule: dict[str, Any] = {}
    for case in chosen:
        if time.time() - started > args.budget:
            results[case] = {"case": case, "error": f"not started: past the {args.budget:.0f} s budget"}
            continue
        if case == "full-1.5b-padded":
            b, rule = padded_batch(results.get("full-1.5b-packed", {}))
            results[case] = run_case(case, out, args, batch_size=b)
            while "out of memory" in results[case].get("error", "").lower() and b > 1 and time.time() - started < args.budget:
                b = b // 2  # the rule's estimate was not conservative enough: halve and say so
                rule = {**rule, "batch": b, "halved_after_oom": True}
                results[case] = run_case(case, out, args, batch_size=b)
        elif case == "full-1.5b-packed-xN":
            if gpus >= 2:
                results[case] = run_case(case, out, args, gpus=gpus, **packed)
        elif case.endswith("-liger"):
            if importlib.util.find_spec("liger_kernel") is not None:
                results[case] = run_case(case, out, args, **packed)
        elif case == "full-1.5b-packed":
            results[case] = run_case(case, out, args, **packed)
        else:
            results[case] = run_case(case, out, args, timeout=220 if case.startswith("lora-7b") else 180)
        write_summary(out, results, rule, gpus, env, started)  # after every case: a cut-off run keeps what it had
    print(markdown(write_summary(out, results, rule, gpus, env, started)), flush=True)
    return 0


def sweep(args: SimpleNamespace) -> int:
    """Each SWEEP variant of full-1.5b-packed in its own process; a table of tokens/s and MFU."""
    import torch

    out = Path(os.environ.get("OUT") or ROOT / "bench" / "results" / ("train_h100_smoke" if args.smoke else "train_h100"))
    folder = out / "sweep"
    folder.mkdir(parents=True, exist_ok=True)
    env = environment()
    print(json.dumps(env), flush=True)
    wanted = [v for v in args.variants.split(",") if v]
    unknown = set(wanted) - {name for name, _, _ in SWEEP}
    if unknown:
        print(f"train_h100.py: unknown sweep variants {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    if not args.smoke:
        args.steps, args.warmup = args.sweep_steps, args.sweep_warmup
        args.examples = min(args.examples, 700)  # ~170 rows of 4,096 tokens: enough for 17 steps of 4
    else:
        args.steps, args.warmup = args.sweep_steps, args.sweep_warmup
    started = time.time()
    results: dict[str, Any] = {}
    checked: set[str] = set()
    queue = sorted((v for v in SWEEP if v[0] in wanted), key=lambda v: wanted.index(v[0])) if wanted else list(SWEEP)
    while queue:
        name, overrides, what = queue.pop(0)
        left = args.sweep_deadline - (time.time() - started)
        if time.time() - started > args.sweep_budget or left < 30:
            results[name] = {"case": name, "error": f"not started: past the {args.sweep_budget:.0f} s budget"}
            continue
        if overrides.get("model.liger") == "true" and importlib.util.find_spec("liger_kernel") is None:
            results[name] = {"case": name, "error": "not run: liger_kernel not installed", "what": what}
            continue
        if name == "combo":
            overrides = dict(overrides)
            for part, keys in COMBO_PARTS.items():
                alone = results.get(part, {})
                leaks = (alone.get("isolation") or {}).get("ok") is False  # packed examples saw each other
                if "error" in alone or leaks or (args.smoke and part == "flex"):  # no flex backward on CPUs
                    what += f"; without {part} (it failed or did not run alone)"
                    overrides = without(overrides, keys)
        if args.smoke and overrides.get("model.attention") in ("flex_attention", "torch_varlen"):
            results[name] = {"case": name, "error": "not run on a CPU: no CPU kernel (backward) for this attention",
                             "what": what}
            continue
        extra: list[str] = []
        for key, value in overrides.items():
            extra += ["--set", f"{key}={json.dumps(value)}"]
        attention = str(overrides.get("model.attention", args.attention))
        if attention in checked:
            extra.append("--no-check")  # the isolation check of this attention ran in an earlier variant
        if name in PROFILED:
            extra += ["--profile", str(folder / f"{name}-profile")]
        result = run_case("full-1.5b-packed", folder, args, timeout=left, name=name, extra=tuple(extra))
        if "error" not in result:
            checked.add(attention)
        results[name] = {**result, "what": what}
        if name == "combo" and "error" in result:
            oom = "out of memory" in result["error"].lower()
            retry = without(overrides, BATCH2 if oom else FLEX)
            queue.insert(0, ("combo-retry", retry, f"combo without {'batch2' if oom else 'flex'} (combo failed)"))
        write_sweep(out, results, env, started, torch.cuda.device_count())
    print(markdown_sweep(write_sweep(out, results, env, started, torch.cuda.device_count())), flush=True)
    return 0


def write_sweep(out: Path, results: dict[str, Any], env: dict[str, Any], started: float, gpus: int) -> dict[str, Any]:
    keys = ("tokens_per_s_per_gpu", "mfu", "step_time_s", "tokens_per_step_per_gpu", "peak_memory_gib", "attention",
            "compile", "loss", "batch_size", "grad_accum", "count_tokens", "liger", "liger_kernels", "dtype", "isolation",
            "overrides", "what")
    table: dict[str, Any] = {}
    for name, r in results.items():
        table[name] = {k: r.get(k) for k in keys} if "error" not in r else {"error": r["error"][-600:], "what": r.get("what")}
        if "profile" in r:
            table[name]["profile"] = {k: r["profile"].get(k) for k in ("wall_s", "device_busy_s", "device_busy", "top",
                                                                         "error")}
    ok = {n: r for n, r in table.items() if isinstance(r.get("tokens_per_s_per_gpu"), (int, float))}
    best = max(ok, key=lambda n: ok[n]["tokens_per_s_per_gpu"]) if ok else None
    base = ok.get("base", {}).get("tokens_per_s_per_gpu")
    summary = {"environment": env, "gpus": gpus, "wall_s": time.time() - started, "variants": table, "best": best,
               "speedup_vs_base": {n: r["tokens_per_s_per_gpu"] / base for n, r in ok.items()} if base else None,
               "target": "mfu >= 0.45 (full 1.5B, 4,096-token packed rows, one H100)"}
    (out / "sweep.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "sweep.md").write_text(markdown_sweep(summary))
    return summary


def markdown_sweep(s: dict[str, Any]) -> str:
    lines = ["| variant | tokens/s | MFU | x base | step s | peak GiB | isolated | what |",
             "|---|---:|---:|---:|---:|---:|---|---|"]
    for name, r in s["variants"].items():
        if "error" in r:
            last = [ln for ln in r["error"].splitlines() if ln.strip()][-1:] or [""]
            lines.append(f"| {name} | failed: {last[0][:150]} | | | | | | {r.get('what')} |")
            continue
        x = (s.get("speedup_vs_base") or {}).get(name)
        iso = (r.get("isolation") or {}).get("ok") if r.get("isolation") else "(checked earlier)"
        lines.append(f"| {name} | {r['tokens_per_s_per_gpu']:.0f} | {_pct(r.get('mfu'))} | "
                     f"{f'{x:.2f}' if x else ''} | {r.get('step_time_s') or 0:.3f} | {r.get('peak_memory_gib') or 0:.1f} | "
                     f"{iso} | {r.get('what')} |")
    for name, r in s["variants"].items():
        prof = r.get("profile")
        if prof:
            busy = prof.get("device_busy")
            lines += ["", f"{name}: device busy {_pct(busy)} of {prof.get('wall_s') or 0:.2f} s (2 steps); top kernels:"]
            lines += [f"- {t['self_us'] / 1e3:.1f} ms x{t['calls']} {t['name']}" for t in (prof.get("top") or [])[:10]]
            if prof.get("error"):
                lines.append(f"- profile failed: {prof['error']}")
    lines += ["", f"- best: {s.get('best')}; wall {s.get('wall_s', 0):.0f} s", f"- environment: {json.dumps(s['environment'])}"]
    return "\n".join(lines) + "\n"


def write_summary(out: Path, results: dict[str, Any], rule: dict[str, Any], gpus: int, env: dict[str, Any],
                  started: float) -> dict[str, Any]:
    summary = summarize(results, rule, gpus, env)
    summary["wall_s"] = time.time() - started
    (out / "train_h100.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "train_h100.md").write_text(markdown(summary))
    return summary


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/train_h100.py")


if __name__ == "__main__":
    sys.exit(main())
