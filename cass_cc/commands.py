"""cass-cc's own subcommands (click): `cache stats|clear`, `setup`."""
from __future__ import annotations

import os
import sys

import click

from .config import ConfigError, load


def _config():  # type: ignore[no-untyped-def]
    try:
        return load()
    except ConfigError as e:
        raise click.ClickException(str(e)) from None


@click.group()
def cli() -> None:
    """cass-cc subcommands. Any other first argument is an nvcc command line."""


@cli.group()
def cache() -> None:
    """The translation cache."""


def _cache():  # type: ignore[no-untyped-def]
    from .cache import TranslationCache

    config = _config()
    return TranslationCache(config.cache_path(os.environ))


@cache.command("stats")
def cache_stats() -> None:
    """Entries, hits, misses and size of the translation cache."""
    c = _cache()
    click.echo(f"cache folder: {c.root}")
    for name, value in c.stats().items():
        click.echo(f"{name:>10}: {value}")


@cache.command("clear")
def cache_clear() -> None:
    """Remove every cached translation."""
    c = _cache()
    n = c.clear()
    click.echo(f"removed {n} entries from {c.root}")


OPTIONAL_USE = {
    "hipcc": "building with hipcc-based tools",
    "llvm-mc": "RDNA3 assembly",
    "ld.lld": "RDNA3 assembly",
    "nvcc": "verify, datasets",
    "cuobjdump": "cubin input",
    "nvdisasm": "cubin input",
}


@cli.command()
@click.option("--offload-arch", "archs", multiple=True, help="AMD targets to prepare (default: the configured ones)")
def setup(archs: tuple[str, ...]) -> None:
    """Find every tool, report versions, and prepare device libraries (the gfx11 fix)."""
    from .toolchain import Toolchain, ToolchainError

    config = _config()
    tc = Toolchain(os.environ, config.rocm_path, config.cache_path(os.environ))
    required = {"rocm", "clang", "host-cxx", "llvm-dis", "llvm-as"}
    failed = False
    for name, what in tc.check():
        if what.startswith("MISSING") and name not in required:
            what = "not found (optional: " + OPTIONAL_USE.get(name, "later features") + "); " + what[len("MISSING: "):]
        click.echo(f"{name:>10}: {what}")
        failed |= name in required and what.startswith("MISSING")
    if failed:
        raise click.ClickException("required tools are missing (see above)")
    targets = list(archs) or config.offload_arch
    try:
        path = tc.device_lib_dir(targets)
    except ToolchainError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"device libraries for {', '.join(targets)}: {path}")
    sys.stdout.flush()
