"""`cass-data synth`: self-checking CUDA programs across domains, deterministic from a seed.

Program i of seed S belongs to domain `domains[i % len(domains)]` and is generated from
`random.Random(f"{S}:{i}")` alone, so a program does not depend on n, on the other
programs, on the Python build or on the machine. Each program fills its inputs with an
LCG, runs its kernel(s), recomputes the result on the CPU, and prints PASS (exit 0) or
FAIL (exit 1); without a CUDA device it prints `SKIP: no CUDA device` and exits 2.
"""
from __future__ import annotations

import random
from typing import Callable, Iterator, Sequence

from . import (conv1d, coop, elementwise, gemm, histogram, launch, lowp, reduction, scan, sort, stencil1d,
               stencil2d, streams, transpose, warp)
from .common import Program

GENERATORS: dict[str, Callable[[random.Random], str]] = {
    "elementwise": elementwise.generate,
    "reduction": reduction.generate,
    "scan": scan.generate,
    "stencil1d": stencil1d.generate,
    "stencil2d": stencil2d.generate,
    "gemm": gemm.generate,
    "histogram": histogram.generate,
    "transpose": transpose.generate,
    "sort": sort.generate,
    "conv1d": conv1d.generate,
    "warp": warp.generate,
    "launch": launch.generate,
    "coop": coop.generate,
    "lowp": lowp.generate,
    "streams": streams.generate,
}
DOMAINS: tuple[str, ...] = tuple(GENERATORS)

__all__ = ["DOMAINS", "Program", "generate", "generate_many"]


def generate(seed: int | str, index: int, domains: Sequence[str] = DOMAINS) -> Program:
    if not domains:
        raise ValueError("no domains chosen")
    unknown = [d for d in domains if d not in GENERATORS]
    if unknown:
        raise ValueError(f"unknown domain(s) {', '.join(unknown)}; known: {', '.join(DOMAINS)}")
    domain = domains[index % len(domains)]
    rng = random.Random(f"{seed}:{index}")
    return Program(domain=domain, seed=str(seed), index=index, source=GENERATORS[domain](rng))


def generate_many(seed: int | str, n: int, domains: Sequence[str] = DOMAINS) -> Iterator[Program]:
    for i in range(n):
        yield generate(seed, i, domains)
