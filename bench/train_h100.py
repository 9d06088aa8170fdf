#!/usr/bin/env python3
"""cass_train's training throughput on NVIDIA GPUs, in one call (about 3-5 minutes; no new case
starts after --budget seconds, each case is stopped after 3-4 minutes, so it ends within 10).

    python3 bench/train_h100.py                      # results: $OUT (else bench/results/train_h100)
    python3 bench/train_h100.py --smoke              # the same flow on a tiny model (CPU is fine)

Needs torch, transformers and peft (accelerate comes with transformers' Trainer); with a
liger_kernel wheel installed first it adds a Liger case. Nothing is downloaded: the models are random weights made from the Qwen2.5-Coder configs in
cass_train/configs/models/, the data is synthetic (random ids; example lengths lognormal,
median 700 tokens, sigma 0.9, cut at 4,096: --lengths changes it).

Cases, each in its own process (memory goes back between them; a failure is recorded and
the rest still run), all through cass_train/throughput.py, i.e. the Trainer, model setup,
packing and collators of `cass-train sft`:
  full-1.5b-packed   Qwen2.5-Coder-1.5B shape, full fine-tuning, bf16 autocast, AdamW (fused),
                     4,096-token packed rows (DataCollatorWithFlattening, position ids restart
                     per example), one row a micro-step, 4 micro-steps an optimizer step
                     (--grad-accum), no activation checkpointing. First it checks
                     that packed examples do not attend to each other with the attention in use.
  full-1.5b-padded   the same examples without packing: a plain Trainer run, each batch padded to
                     its longest example. Batch size: the largest whose worst case (every example
                     4,096 tokens) fits 90% of GPU memory, from the packed run's measured memory
                     (the packed run holds 4,096 tokens a micro-step); halved on out-of-memory.
                     Same accumulation. Tokens/s count real tokens only, in both.
  lora-7b-packed     Qwen2.5-Coder-7B shape, LoRA r=16 on all linear layers, bf16 base,
                     4,096-token packed rows, activation checkpointing.
  full-1.5b-packed-xN  the first case on all N GPUs (torchrun, DDP) when N >= 2: scaling.
  full-1.5b-packed-liger  the first case with Liger kernels (fused RMSNorm, SwiGLU, RoPE, linear
                     cross-entropy), only when liger_kernel is installed. The other cases run
                     without them, so the packed/padded comparison is like for like.

Output: $OUT/<case>.json (everything measured), $OUT/train_h100.json (summary with the
issue's targets: MFU >= 45%, packing speedup >= 2x, scaling >= 1.8x), $OUT/train_h100.md.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CONFIGS = ROOT / "cass_train" / "configs" / "models"
LENGTHS = "lognormal:700:0.9"
CASES = ("full-1.5b-packed", "full-1.5b-padded", "lora-7b-packed", "full-1.5b-packed-xN", "full-1.5b-packed-liger")


def recipe_for(case: str, args: argparse.Namespace, batch_size: int = 1) -> Any:
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
    return recipe


def worker(args: argparse.Namespace) -> int:
    """One case in this process (under torchrun for the multi-GPU case)."""
    from cass_train.throughput import run_bench

    case = args.case
    recipe = recipe_for(case, args, batch_size=args.batch_size)
    result = run_bench(recipe, check="padded" not in case)
    result["case"] = case
    if os.environ.get("RANK", "0") == "0":
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


def run_case(case: str, out: Path, args: argparse.Namespace, gpus: int = 1, batch_size: int = 1,
             timeout: float = 180) -> dict[str, Any]:
    target = out / f"{case.replace('xN', f'x{gpus}')}.json"
    forward = ["--case", case, "--json", str(target), "--batch-size", str(batch_size), "--lengths", args.lengths,
               "--steps", str(args.steps), "--steps-7b", str(args.steps_7b), "--warmup", str(args.warmup),
               "--grad-accum", str(args.grad_accum),
               "--examples", str(args.examples), "--max-length", str(args.max_length), "--attention", args.attention,
               "--config15", str(args.config15), "--config7", str(args.config7)]
    if args.smoke:
        forward.append("--smoke")
    if args.compile:
        forward.append("--compile")
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
    # NVLink multicast stays off on the shared GPU hosts (the device notes), whatever the caller's environment
    env.update(NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1", NVSHMEM_DISABLE_NVLS="1")
    start = time.time()
    print(f"== {case} on {gpus} GPU(s), batch {batch_size}", flush=True)
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        failed = proc.returncode != 0 or not target.is_file()
        tail = (proc.stdout + proc.stderr)[-4000:]
    except subprocess.TimeoutExpired as e:
        failed, tail = True, f"timed out after {timeout} s\n" + str((e.stderr or b"")[-3000:])
    (out / f"{target.stem}.log").write_text(tail)
    if failed:
        print(f"   failed ({time.time() - start:.0f} s); see {target.stem}.log:\n{tail[-1500:]}", flush=True)
        return {"case": case, "error": tail[-1500:]}
    result = json.loads(target.read_text())
    print(f"   {result['tokens_per_s_per_gpu']:.0f} tokens/s/GPU, MFU {_pct(result.get('mfu'))}, "
          f"peak {result.get('peak_memory_gib', 0):.1f} GiB ({time.time() - start:.0f} s)", flush=True)
    return dict(result)


def padded_batch(packed: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The largest batch whose worst case fits: memory that does not grow with tokens (weights,
    optimizer states, gradients: after-training memory + one fp32 gradient per parameter),
    plus the packed run's per-4,096-token growth once per example of the batch."""
    if "peak_memory_gib" not in packed:
        return 1, {"rule": "no GPU memory numbers: batch 1"}
    static = packed["memory_after_gib"] + 4 * packed["parameters"] / 2**30
    per_row = max(packed["peak_memory_gib"] - static, 0.5)
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
            "liger", "batch_size", "grad_accum", "gradient_checkpointing", "isolation")
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
    for key in ("packing_speedup", "scaling"):
        v = s.get(key)
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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--case", choices=CASES, help="(internal) run one case in this process")
    p.add_argument("--json", help="(internal) where the case writes its result")
    p.add_argument("--batch-size", type=int, default=1)
    p.add_argument("--only", default="", help="comma-separated cases to run (default: all)")
    p.add_argument("--lengths", default=LENGTHS)
    p.add_argument("--steps", type=int, default=30, help="measured steps of the 1.5B cases")
    p.add_argument("--steps-7b", type=int, default=12, help="measured steps of the 7B case")
    p.add_argument("--warmup", type=int, default=8)
    p.add_argument("--grad-accum", type=int, default=4, help="micro-steps an optimizer step in the 1.5B cases")
    p.add_argument("--examples", type=int, default=3000)
    p.add_argument("--max-length", type=int, default=4096)
    p.add_argument("--attention", default="auto", help="auto (flash_attention_2 when installed, else sdpa), sdpa, ...")
    p.add_argument("--config15", default=str(CONFIGS / "qwen2.5-coder-1.5b.json"))
    p.add_argument("--config7", default=str(CONFIGS / "qwen2.5-coder-7b.json"))
    p.add_argument("--compile", action="store_true", help="torch.compile the model (Trainer's torch_compile)")
    p.add_argument("--smoke", action="store_true", help="tiny model, few steps: checks this script, not the GPU")
    p.add_argument("--budget", type=float, default=330, help="seconds after which no further case starts")
    args = p.parse_args()
    if args.smoke and not args.case:
        from cass_cc.model.synthetic import tiny_config

        out_tmp = Path(os.environ.get("OUT") or ROOT / "bench" / "results" / "train_h100_smoke")
        out_tmp.mkdir(parents=True, exist_ok=True)
        tiny = out_tmp / "tiny-config.json"
        tiny.write_text(json.dumps({"model_type": "qwen2", **tiny_config()}))
        args.config15 = args.config7 = str(tiny)
        args.steps, args.steps_7b, args.warmup, args.examples, args.max_length = 3, 2, 1, 200, 512
    if args.case:
        return worker(args)

    import torch

    out = Path(os.environ.get("OUT") or ROOT / "bench" / "results" / ("train_h100_smoke" if args.smoke else "train_h100"))
    out.mkdir(parents=True, exist_ok=True)
    env = environment()
    print(json.dumps(env), flush=True)
    gpus = torch.cuda.device_count()
    chosen = [c for c in CASES if not args.only or c in args.only.split(",")]
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
                results[case] = run_case(case, out, args, gpus=gpus)
        elif case.endswith("-liger"):
            if importlib.util.find_spec("liger_kernel") is not None:
                results[case] = run_case(case, out, args)
        else:
            results[case] = run_case(case, out, args, timeout=220 if case.startswith("lora-7b") else 180)
        write_summary(out, results, rule, gpus, env, started)  # after every case: a cut-off run keeps what it had
    print(markdown(write_summary(out, results, rule, gpus, env, started)), flush=True)
    return 0


def write_summary(out: Path, results: dict[str, Any], rule: dict[str, Any], gpus: int, env: dict[str, Any],
                  started: float) -> dict[str, Any]:
    summary = summarize(results, rule, gpus, env)
    summary["wall_s"] = time.time() - started
    (out / "train_h100.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "train_h100.md").write_text(markdown(summary))
    return summary


if __name__ == "__main__":
    sys.exit(main())
