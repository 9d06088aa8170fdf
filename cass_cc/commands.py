"""cass-cc's own subcommands (click): `cache stats|clear`, `setup`, `port`, `toolkit`, `translate`."""
from __future__ import annotations

import os
import sys
from pathlib import Path

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
    from .driver.libraries import LIBRARIES

    include = tc.rocm.root / "include"
    have = [lib.name for lib in LIBRARIES if (include / lib.folder).is_dir()]
    lack = [lib.name for lib in LIBRARIES if not (include / lib.folder).is_dir()]
    click.echo(f"HIP libraries: {', '.join(have) or 'none'}" + (f"; not installed: {', '.join(lack)} (a program "
               "using their CUDA counterparts stops, naming the package)" if lack else ""))
    sys.stdout.flush()


def _hip_version(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    try:
        major, minor = value.split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        raise click.BadParameter(f"expected X.Y (e.g. 6.2), got {value!r}") from None


@cli.command()
@click.argument("src", type=click.Path(file_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), help="write the ported tree here (a mirror of SRC: other files copied)")
@click.option("--inplace", is_flag=True, help="rewrite SRC itself, keeping each changed file's original as <file>.cuda-orig")
@click.option("--examine", is_flag=True, help="translate in memory and report; write no ported file")
@click.option("--overwrite-edits", is_flag=True,
              help="replace files changed since the last port wrote them (else the port names them and writes nothing)")
@click.option("--build-files/--no-build-files", default=True, show_default=True,
              help="rewrite Makefiles (nvcc -> hipcc, flags) and CMake files (CUDA -> HIP)")
@click.option("--offload-arch", "archs", multiple=True, help="AMD target(s) (default: the offload-arch setting)")
@click.option("--hip-version", callback=_hip_version, metavar="X.Y", help="translate for this HIP (default: the installed one)")
@click.option("--report", "report_file", type=click.Path(dir_okay=False, path_type=Path), help="write the text report here, not to stderr")
@click.option("--report-json", type=click.Path(dir_okay=False, path_type=Path), help="write the report as JSON")
@click.option("--print-stats", is_flag=True, help="print renames and unsupported names per API family (stdout)")
@click.option("--print-stats-csv", "stats_csv", type=click.Path(dir_okay=False, path_type=Path), help="write those stats as CSV")
@click.option("-q", "--quiet", is_flag=True, help="no progress bar; the report lists failures only")
def port(src: Path, output: Path | None, inplace: bool, examine: bool, overwrite_edits: bool, build_files: bool,
         archs: tuple[str, ...], hip_version: tuple[int, int] | None, report_file: Path | None, report_json: Path | None,
         print_stats: bool, stats_csv: Path | None, quiet: bool) -> None:
    """Translate a whole CUDA tree (.cu .cuh .h .hpp .cpp .cc .c ...) to HIP, once.

    Exit status 1 when any file failed (the report says why).
    """
    from .port import PortError, PortOptions
    from .port import port as run_port

    opts = PortOptions(
        src=src, output=output, inplace=inplace, examine=examine, build_files=build_files, offload_archs=list(archs),
        hip_version=hip_version, report=report_file, report_json=report_json, print_stats=print_stats,
        stats_csv=stats_csv, quiet=quiet, overwrite_edits=overwrite_edits,
    )
    try:
        code = run_port(opts, _config())
    except PortError as e:
        raise click.ClickException(str(e)) from None
    sys.exit(code)


@cli.command()
def toolkit() -> None:
    """Print the path of a CUDA-toolkit-shaped folder that serves builds through cass-cc and HIP.

    Use it as PATH=<it>/bin:$PATH make, make CUDA_PATH=<it>, or -I<it>/include -L<it>/lib64.
    """
    from .driver import toolkit as tk
    from .toolchain import Toolchain, ToolchainError

    config = _config()
    tc = Toolchain(os.environ, config.rocm_path, config.cache_path(os.environ))
    try:
        click.echo(tk.build(config.cache_path(os.environ), tc.rocm))
    except ToolchainError as e:
        raise click.ClickException(str(e)) from None


@cli.command(context_settings={"ignore_unknown_options": True})
@click.option("--model", metavar="ID_OR_PATH", help="the model (else the model setting, CASS_MODEL)")
@click.option("--model-endpoint", metavar="URL", help="an OpenAI-compatible endpoint (else CASS_MODEL_ENDPOINT)")
@click.argument("args", nargs=-1, required=True, type=click.UNPROCESSED)
def translate(model: str | None, model_endpoint: str | None, args: tuple[str, ...]) -> None:
    """Translate .cu files ahead of a build, so its compiles are all cache hits.

    ARGS: the .cu files and the nvcc options the build passes (-I, -D, -std, -arch,
    --cass-*), run from the folder the build runs in: cache entries are keyed by the
    file names as given. With a model, prompts are generated in batches (one model
    load) and answers compiled in parallel.
    """
    from .driver.errors import DriverError
    from .driver.ahead import translate_ahead
    from .nvcc.invocation import UsageError
    from .toolchain import ToolchainError
    from .translate.base import TranslationError

    overrides = {k: v for k, v in (("model", model), ("model-endpoint", model_endpoint)) if v}
    try:
        outcomes = translate_ahead(list(args), overrides, os.environ)
    except (UsageError, ConfigError, ToolchainError, DriverError, TranslationError) as e:
        raise click.ClickException(str(e)) from None
    for o in outcomes:
        click.echo(f"{o.path}: {o.served}")
    by_model = sum(o.served == "model" for o in outcomes)
    click.echo(f"{len(outcomes)} file(s) translated: {by_model} by the model, {len(outcomes) - by_model} by the rules")


def _register() -> None:
    from .emu.cli import emu_run  # numpy and the emulator are imported only when it runs

    cli.add_command(emu_run)


_register()
