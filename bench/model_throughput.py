"""Model translator on a GPU: batched generation against one-by-one HF generate, and
the latency of a cache hit, measured in the same run.

    PYTHONPATH=. python bench/model_throughput.py [--kernels 32] [--new-tokens 256] [--serial 4]

The model is a random-weight Qwen2 with Qwen2.5-Coder-1.5B's architecture (the CASS 1.5B
models' base; no weights can be downloaded on the benchmark machine) and the offline
tokenizer, both from cass_cc/model/synthetic.py, saved to a temporary folder and loaded
by path through the backend. Random weights give garbage answers, which is no matter:
speed depends on the shape, not on the values. Greedy decoding, bf16.

1. Batched: the model translator asks for the answers to `--kernels` CUDA kernels at
   once (ModelTranslator.answers -> HFBackend.generate, batch size = kernels).
2. One by one: plain `model.generate` on each prompt alone, on the first `--serial`
   kernels (the rate is tokens per second either way; all 32 would take minutes).
   Target: batched >= 5x the one-by-one tokens/s.
3. Cache hit: the same answers asked again (key + diskcache lookup), per prompt; and a
   driver translation-cache hit. Target: < 5 ms.

The prompts are whole files: with --new-tokens below about 1.25x a file's tokens the
translator would split files per function (other prompts), so the cache-hit step asks
ModelTranslator.answers() for the very prompts the batched step generated.
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The benchmark machine reaches no network: never let a library wait on one.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

from bench._cli import CONTEXT  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

START = time.perf_counter()


def progress(message: str) -> None:
    print(f"[{time.perf_counter() - START:6.1f} s] {message}", file=sys.stderr, flush=True)

OPS = ["x[i] * a + y[i]", "sqrtf(fabsf(x[i])) + y[i]", "x[i] > 0.f ? x[i] : a * x[i]", "__expf(-x[i] * x[i])",
       "fmaf(x[i], y[i], a)", "x[i] - floorf(x[i] / a) * a", "tanhf(x[i]) * y[i]", "min(x[i], y[i]) + a"]


def kernel(n: int) -> str:
    """A CUDA file of a few kernels and a launcher, each file different."""
    op = OPS[n % len(OPS)]
    extra = "".join(
        f"__global__ void extra{n}_{k}(float* x, int m) {{\n"
        f"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        f"  if (i < m) x[i] = x[i] * {k + 1}.0f + {n}.0f;\n}}\n"
        for k in range(n % 4)
    )
    return (
        "#include <cuda_runtime.h>\n#include <cstdio>\n"
        f"__global__ void op{n}(const float* x, const float* y, float* out, float a, int m) {{\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        f"  if (i < m) out[i] = {op};\n}}\n"
        f"{extra}"
        f"int run{n}(const float* hx, const float* hy, float* hout, int m) {{\n"
        "  float *x, *y, *out;\n  size_t bytes = m * sizeof(float);\n"
        "  cudaMalloc(&x, bytes); cudaMalloc(&y, bytes); cudaMalloc(&out, bytes);\n"
        "  cudaMemcpy(x, hx, bytes, cudaMemcpyHostToDevice);\n  cudaMemcpy(y, hy, bytes, cudaMemcpyHostToDevice);\n"
        f"  op{n}<<<(m + 255) / 256, 256>>>(x, y, out, 0.5f, m);\n"
        "  cudaError_t err = cudaGetLastError();\n"
        "  if (err != cudaSuccess) { printf(\"%s\\n\", cudaGetErrorString(err)); return 1; }\n"
        "  cudaMemcpy(hout, out, bytes, cudaMemcpyDeviceToHost);\n"
        "  cudaFree(x); cudaFree(y); cudaFree(out);\n  return 0;\n}\n"
    )


@click.command(help=__doc__.splitlines()[0], context_settings=CONTEXT)
@click.option("--kernels", type=int, default=32)
@click.option("--new-tokens", type=int, default=256)
@click.option("--serial", type=int, default=4, help="kernels generated one by one for the baseline")
@click.option("--tiny", is_flag=True, help="a tiny model on the CPU (checks the script, not a measurement)")
@click.option("--json", type=click.Path(path_type=Path), help="also write the results here")
@click.option("--deadline", type=float, default=0, help="seconds: print where it is and stop (0: none)")
def command(**kwargs: Any) -> int:
    args = SimpleNamespace(**kwargs)
    if args.deadline:
        import faulthandler

        faulthandler.dump_traceback_later(args.deadline, exit=True)

    import torch
    from cass_cc.cache import TranslationCache
    from cass_cc.model.hf import HFBackend
    from cass_cc.model.prompts import SOURCE
    from cass_cc.model.settings import Generation, ModelSettings
    from cass_cc.model.store import Store
    from cass_cc.model.synthetic import qwen2_1_5b_config, tiny_config, write_model
    from cass_cc.translate import LazyRules, Translation
    from cass_cc.translate.model import ModelTranslator

    gpu = torch.cuda.is_available() and not args.tiny
    if not gpu and not args.tiny:
        print("no GPU: run on the device machine, or pass --tiny to check the script", file=sys.stderr)
        return 1
    device = "cuda" if gpu else "cpu"
    tmp = Path(tempfile.mkdtemp(prefix="cass-bench-model-"))
    progress(f"imports done; writing the model ({device})")
    t0 = time.perf_counter()
    config = qwen2_1_5b_config() if not args.tiny else tiny_config()
    folder = write_model(tmp / "model", config, dtype="bfloat16" if gpu else "float32", device=device)
    made = time.perf_counter() - t0

    gen = Generation(max_new_tokens=args.new_tokens)
    settings = ModelSettings(model=str(folder), when="always", generation=gen, batch_size=args.kernels, device=device)
    store = Store(tmp / "cache")
    backend = HFBackend(settings, store)
    translator = ModelTranslator(settings, LazyRules(), store, backend=backend)
    progress(f"model written in {made:.1f} s; loading it by path")
    t0 = time.perf_counter()
    backend.load()
    loaded = time.perf_counter() - t0
    progress(f"loaded in {loaded:.1f} s on {backend.device} as {backend.dtype}")
    params = sum(p.numel() for p in backend.model.parameters())
    sources = [kernel(n) for n in range(args.kernels)]
    prompts = [SOURCE.prompt(s) for s in sources]
    tok, model = backend.tokenizer, backend.model
    prompt_tokens = [len(tok(backend.chat_text(p), add_special_tokens=False)["input_ids"]) for p in prompts]

    def sync() -> None:
        if gpu:
            torch.cuda.synchronize()

    # warm-up (CUDA context, kernels for both batch shapes, allocator), outside both timings;
    # without the batch-1 one, the first one-by-one prompt ran 2.5x slower than the rest
    backend.generate([prompts[0], prompts[1]], Generation(max_new_tokens=8))
    backend.generate([prompts[2]], Generation(max_new_tokens=8))
    backend.generated_tokens = 0

    progress("warm-up done; batched generation")
    # 1. batched, through the translator (cache misses: every prompt is generated)
    sync()
    t0 = time.perf_counter()
    translator.answers(prompts)
    sync()
    batched_s = time.perf_counter() - t0
    batched_tokens = backend.generated_tokens
    batched_rate = batched_tokens / batched_s
    progress(f"batched: {batched_tokens} tokens in {batched_s:.2f} s = {batched_rate:.0f} tokens/s; one by one")

    # 2. one by one: plain HF generate, the same prompts, settings and model
    eos = {tok.eos_token_id}
    serial_tokens, serial_s = 0, 0.0
    for p in prompts[: args.serial]:
        enc = tok(backend.chat_text(p), return_tensors="pt", add_special_tokens=False).to(device)
        sync()
        t0 = time.perf_counter()
        with torch.inference_mode():
            out = model.generate(**enc, max_new_tokens=gen.max_new_tokens, do_sample=False, pad_token_id=tok.pad_token_id)
        sync()
        serial_s += time.perf_counter() - t0
        new = out[0, enc["input_ids"].shape[1] :].tolist()
        serial_tokens += next((i + 1 for i, t in enumerate(new) if t in eos), len(new))
        progress(f"one by one: {serial_tokens} tokens in {serial_s:.2f} s")
    serial_rate = serial_tokens / serial_s

    # 3. cache hits: the model's answers, then a driver translation-cache entry
    hit_ms = []
    for _ in range(5):
        for p in prompts:
            t0 = time.perf_counter()
            translator.answers([p])
            hit_ms.append((time.perf_counter() - t0) * 1000)
    tcache = TranslationCache(tmp / "translations")
    tcache.put("k", Translation(text=sources[0], translator=translator.identity()))
    tc_ms = []
    for _ in range(100):
        t0 = time.perf_counter()
        assert tcache.get("k") is not None
        tc_ms.append((time.perf_counter() - t0) * 1000)

    results = {
        "device": torch.cuda.get_device_name(0) if gpu else "cpu",
        "torch": torch.__version__,
        "transformers": __import__("transformers").__version__,
        "model": f"random Qwen2, {params / 1e9:.2f}B parameters, {'bf16' if gpu else 'fp32'}",
        "model_write_s": round(made, 1),
        "model_load_s": round(loaded, 1),
        "kernels": args.kernels,
        "prompt_tokens_mean": round(statistics.mean(prompt_tokens)),
        "max_new_tokens": gen.max_new_tokens,
        "batched": {"prompts": args.kernels, "tokens": batched_tokens, "seconds": round(batched_s, 2), "tokens_per_s": round(batched_rate, 1)},
        "one_by_one": {"prompts": args.serial, "tokens": serial_tokens, "seconds": round(serial_s, 2), "tokens_per_s": round(serial_rate, 1)},
        "batched_vs_one_by_one": round(batched_rate / serial_rate, 2),
        "answer_cache_hit_ms": {"median": round(statistics.median(hit_ms), 3), "p95": round(sorted(hit_ms)[int(len(hit_ms) * 0.95)], 3), "max": round(max(hit_ms), 3)},
        "translation_cache_hit_ms": {"median": round(statistics.median(tc_ms), 3), "max": round(max(tc_ms), 3)},
    }
    print(json.dumps(results, indent=2))
    print(f"batched {batched_rate:.0f} tokens/s vs one-by-one {serial_rate:.0f} tokens/s: {batched_rate / serial_rate:.1f}x (target >= 5x)")
    print(f"cache hit: {statistics.median(hit_ms):.2f} ms median, {max(hit_ms):.2f} ms max (target < 5 ms)")
    out = args.json or (Path(os.environ["OUT"]) / "model_throughput.json" if os.environ.get("OUT") else None)
    if out:
        out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/model_throughput.py")


if __name__ == "__main__":
    sys.exit(main())
