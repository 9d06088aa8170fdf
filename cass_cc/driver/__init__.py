"""The nvcc-compatible driver: argv -> Invocation -> Build.run()."""
from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from .. import log
from ..nvcc.invocation import Phase, UsageError


def run(argv: Sequence[str], env: Mapping[str, str] | None = None) -> int:
    env = dict(os.environ if env is None else env)
    from ..nvcc.parse import parse

    try:
        inv = parse(argv, env)
    except UsageError as e:
        if "-v" in argv or "--verbose" in argv:
            _print_profile(env)  # nvcc shows its environment before it reads the command line
        log.error(str(e), program="nvcc")
        return 1
    if inv.phase is Phase.VERSION:
        from ..version import version_text

        sys.stdout.write(version_text(env))
        return 0
    if inv.phase is Phase.HELP:
        from .texts import help_text

        sys.stdout.write(help_text())
        return 0
    if inv.phase in (Phase.LIST_ARCH, Phase.LIST_CODE):
        from ..nvcc.targets import listing

        lines = listing(Phase.LIST_ARCH in inv.lists, Phase.LIST_CODE in inv.lists)
        sys.stdout.write("".join(f"{line}\n" for line in lines))
        return 0
    if inv.time_file is not None and not _open_time_file(inv.time_file):
        return 1
    return _build(inv, env)


TIME_HEADER = "source file name , phase name , phase input files , phase output file , arch , tool, metric , unit\n"


def _open_time_file(path: str) -> bool:
    """-time FILE: nvcc opens it to append to, even for -dryrun, and stops when it cannot.
    cass-cc times no phases: a new file gets nvcc's header line only, so readers of it
    find the table they expect, empty. `-time -` is nvcc's standard output: nothing to open."""
    if path == "-":
        return True
    try:
        with open(path, "a", encoding="utf-8") as f:
            if f.tell() == 0:
                f.write(TIME_HEADER)
    except OSError:
        log.error(f"Cannot open file '{path}'", program="nvcc")
        return False
    return True


def _print_profile(env: dict[str, str]) -> None:
    """-v's environment lines (profile.py), when the command line itself is wrong: CMake
    learns where the toolkit is from `nvcc -v __cmake_determine_cuda`, which fails."""
    from . import toolkit
    from ..config import ConfigError, load
    from ..toolchain import ToolchainError
    from .build import make_toolchain
    from .profile import print_lines

    try:
        config = load({}, env)
        print_lines(toolkit.build(config.cache_path(env), make_toolchain(config, env).rocm), env)
    except (ConfigError, ToolchainError, OSError):
        pass  # the usage error that follows is what matters


def _native_targets(targets: list[str]) -> list[str]:
    """`-arch=native`: the AMD GPUs of this machine; with none, nvcc's warning and the
    default target (arch-map / offload-arch settings), as nvcc falls back to its own."""
    if "native" not in targets:
        return targets
    from ..toolchain.gpus import local_gpus

    gpus = local_gpus()
    if not gpus:
        log.warning("Cannot find valid GPU for '-arch=native', default arch is used")
        return targets  # offload_archs maps "native" like any unmapped target
    out: list[str] = []
    for t in targets:
        for name in gpus if t == "native" else [t]:
            if name not in out:
                out.append(name)
    return out


def _build(inv, env: dict[str, str]) -> int:  # type: ignore[no-untyped-def]
    from ..cache import CacheMiss
    from ..config import ConfigError, load
    from ..nvcc.targets import offload_archs
    from ..toolchain import ToolchainError
    from ..translate.base import TranslationError
    from .build import Build, DriverError, ToolFailed, make_toolchain

    if inv.verbose or inv.dryrun:
        log.verbosity = 1
    if "emit-rdna3" in inv.cass:
        log.error("--emit-rdna3 (cubin -> RDNA3) is not available in this version of cass-cc")
        return 1
    try:
        cass_opts = dict(inv.cass)
        config = load(cass_opts, env)
        archs = offload_archs(_native_targets(inv.targets), config.arch_map, config.offload_arch)
        tc = make_toolchain(config, env)
        return Build(inv, config, tc, archs, env).run()
    except UsageError as e:
        log.error(str(e), program="nvcc")
        return 1
    except ToolFailed as e:
        return e.returncode
    except CacheMiss as e:
        log.error(f"translation cache miss ({e}) while CASS_CACHE_REQUIRE_HIT is set")
        return 1
    except (DriverError, ToolchainError, ConfigError, TranslationError) as e:
        log.error(str(e))
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # a bug in cass-cc: still one line, and a build that stops
        if inv.verbose:
            import traceback

            traceback.print_exc()
        log.error(f"internal error: {type(e).__name__}: {e} (run with -v for the traceback; please report it)")
        return 1
