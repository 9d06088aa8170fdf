"""`cass-data synth --model ...`: programs written by a model (cass-cc's model backends, local
weights or an OpenAI-compatible endpoint) from domain prompts, kept only when they build with
nvcc and, where an NVIDIA GPU is, run and print PASS. Without a GPU nothing can self-check, so
nothing is kept unless `--keep-unrun` says a compiled program is enough (it is marked so).

Program i of seed S gets the prompt of domain `domains[i % len(domains)]` with sizes drawn from
`random.Random(f"{S}:{i}")`, so the prompts (and with greedy decoding the answers) are a function
of (seed, i) alone.
"""
from __future__ import annotations

import os
import random
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

PROMPT = (
    "Write a complete, self-contained CUDA C++ program (one .cu file with main) for this task: {task}\n"
    "Use n = {n} elements and {block} threads per block. Fill the inputs deterministically (a fixed-seed "
    "generator, no time-based seeds), run the GPU kernel(s), recompute the result on the CPU, compare "
    "them, then print PASS and return 0 when they match, otherwise print FAIL and return 1. "
    "Answer with the program in one ```cuda block."
)
TASKS = {
    "elementwise": "an elementwise kernel computing y[i] = a * x[i] * x[i] + b * x[i] + c on floats",
    "reduction": "a sum reduction of floats in shared memory, one partial sum per block, then a final sum",
    "scan": "an inclusive prefix sum of integers within each block using shared memory",
    "stencil1d": "a 1D three-point stencil on floats with shared-memory halos",
    "stencil2d": "a 2D five-point Jacobi step on a square float grid",
    "gemm": "a tiled single-precision matrix multiply C = A * B with shared-memory tiles",
    "histogram": "a 64-bin histogram of bytes using shared-memory atomics",
    "transpose": "a matrix transpose through a padded shared-memory tile",
    "sort": "an odd-even transposition sort of integers within one block",
    "conv1d": "a 1D convolution of floats with a 7-tap filter held in constant memory",
    "warp": "a per-warp sum with __shfl_down_sync, one result per warp",
    "launch": "a grid-stride loop kernel that adds two int arrays, launched with a small grid",
}


class Written(NamedTuple):
    domain: str
    index: int
    source: str | None  # the program, None when rejected
    status: str  # "ran: PASS", "compiled, not run (no NVIDIA GPU)" or why it was rejected


def prompt_for(seed: str, index: int, domain: str) -> str:
    rng = random.Random(f"{seed}:{index}")
    return PROMPT.format(task=TASKS[domain], n=rng.choice([1000, 4096, 10000, 65536]), block=rng.choice([64, 128, 256]))


def _check(source: str, nvcc: str, gpu: bool, keep_unrun: bool, timeout: float) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory(prefix="cass-synth-model-") as tmp:
        cu, exe = Path(tmp, "p.cu"), Path(tmp, "p")
        cu.write_text(source)
        try:
            b = subprocess.run([nvcc, "-O2", "-w", str(cu), "-o", str(exe)], capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return False, "nvcc timed out"
        if b.returncode != 0:
            first = next((ln for ln in b.stderr.splitlines() if "error" in ln), b.stderr.strip().splitlines()[0] if b.stderr.strip() else "?")
            return False, "does not compile with nvcc: " + first.replace(str(cu), "p.cu")[:200]
        if not gpu:
            return (True, "compiled, not run (no NVIDIA GPU)") if keep_unrun else (False, "not run (no NVIDIA GPU): no self-check")
        try:
            r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout, cwd=tmp, errors="replace")
        except subprocess.TimeoutExpired:
            return False, f"run timed out after {timeout:g} s"
        if r.returncode == 0 and "PASS" in r.stdout and "FAIL" not in r.stdout:
            return True, "ran: PASS"
        return False, f"did not self-check: exit {r.returncode}, " + ("FAIL printed" if "FAIL" in r.stdout else "no PASS printed")


def write_with_model(settings: Any, store: Any, seed: str, count: int, domains: Sequence[str], nvcc: str, gpu: bool,
                     keep_unrun: bool = False, timeout: float = 30.0, backend: Any = None) -> list[Written]:
    """Ask the model for `count` programs and check each; raises ModelError when the model cannot answer."""
    from cass_cc.model.backend import make_backend
    from cass_cc.model.prompts import extract

    chosen = [(i, domains[i % len(domains)]) for i in range(count)]
    prompts = [prompt_for(seed, i, d) for i, d in chosen]
    model = backend or make_backend(settings, store)
    answers = model.generate(prompts, settings.generation)
    out = []
    for (i, domain), answer in zip(chosen, answers):
        source = extract(answer, "cuda")
        if source is None or not source.strip():
            out.append(Written(domain, i, None, "no ```cuda block in the answer"))
            continue
        ok, status = _check(source, nvcc, gpu, keep_unrun, timeout)
        out.append(Written(domain, i, source if ok else None, status))
    return out


def gpu_here() -> bool:
    from cass_cc.verify.runner import find_tools

    return bool(find_tools(dict(os.environ)).gpu)
