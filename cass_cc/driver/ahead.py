"""`cass-cc translate FILE...`: translate ahead of a build, so its compiles are all hits.

The arguments are the build's own nvcc options and .cu files: the driver's cache keys
name each file as the command line names it and the translator chain's identity (the
model settings included), and the targets decide the HIP version and wave size. So run
it from the folder the build runs in, with the same options and settings. With a model
configured, every prompt the files need is generated in one batched run (one model
load) and every answer compiled in parallel; then each file goes through the driver's
own translation step, which stores exactly the entries a later compile looks up
(translated headers included).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence


@dataclass(frozen=True)
class Outcome:
    path: str
    served: str  # "model" or "rules" (a warning on stderr says why when a model failed)


def translate_ahead(args: Sequence[str], overrides: Mapping[str, str], env: Mapping[str, str]) -> list[Outcome]:
    """Raises UsageError, ConfigError, ToolchainError, DriverError (one line each)."""
    from ..config import load
    from .build import Build, make_toolchain
    from .errors import DriverError
    from .sources import decode_source, read_input
    from ..nvcc.invocation import Lang
    from ..nvcc.parse import parse
    from ..nvcc.targets import offload_archs
    from ..translate.model import ModelTranslator

    inv = parse(["-c", *args], dict(env))
    config = load({**inv.cass, **overrides}, env)
    archs = offload_archs(inv.targets, config.arch_map, config.offload_arch)
    build = Build(inv, config, make_toolchain(config, env), archs, env)
    inputs = [i for i in inv.inputs if i.lang is Lang.CU]
    if not inputs:
        raise DriverError("no .cu files to translate")
    model = next((m for m in build.chain().members if isinstance(m, ModelTranslator)), None)
    if model is not None:
        items = []
        for inp in inputs:
            items.append((decode_source(inp.path, read_input(inp.path)), inp.path))
        model.prefetch(items, build.target)
    outcomes = []
    for inp in inputs:
        build.prepared(inp)  # the translation and the translated headers, into the cache
        _, translation = build.translate(inp)
        served = "model" if translation.translator.startswith("model-") else "rules"
        outcomes.append(Outcome(inp.path, served))
    return outcomes
