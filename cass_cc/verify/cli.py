"""`cass-cc verify`: translate, build both sides, run, compare.

    cass-cc verify app.cu [more.cu ...] [-- ARGS]
    cass-cc verify --original app/ --ported app-hip/ --build "make" --run "./app 10"

Arguments after `--` go to every program run; cli.py hands them over before click parses the
rest (click would swallow the `--`).
"""
from __future__ import annotations

import json
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Sequence

import click

from .report import summary_line, table
from .runner import BuildSpec, Case, Result, RunSpec


# Translations are made for the installed HIP; with none (an NVIDIA-only machine), for this one.
DEFAULT_HIP = (5, 2)


def split_args(args: Sequence[str]) -> tuple[list[str], list[str]]:
    """(cass-cc verify's own arguments, the program's): split at the first `--`."""
    args = list(args)
    if "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1:]
    return args, []


def main(args: Sequence[str]) -> int:
    own, program_args = split_args(args)
    try:
        code = verify_command.main(args=own, prog_name="cass-cc verify", standalone_mode=False, obj={"args": program_args})
    except SystemExit as e:  # --help
        return int(e.code or 0)
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except click.exceptions.Abort:
        return 1
    return code if isinstance(code, int) else 0


def _translate(source: Path, out_dir: Path, hip_version: tuple[int, int] | None) -> tuple[Path, str | None]:
    """The rules/model translation of one CUDA file, written into out_dir; (path, error)."""
    from ..config import load
    from ..port import PortOptions
    from ..port import _target as port_target
    from ..port.files import port_source
    from ..translate import TranslationError, chain_from_setting

    from ..port import PortError

    config = load()
    try:
        chain = chain_from_setting(config.translator)
        try:
            target, _ = port_target(PortOptions(src=source.parent, hip_version=hip_version), config, os.environ)
        except PortError:  # no ROCm here (an NVIDIA-only machine): the HIP this project targets
            target, _ = port_target(PortOptions(src=source.parent, hip_version=DEFAULT_HIP), config, os.environ)
        result, text = port_source(source.name, source.read_bytes(), chain, target, None)
    except (TranslationError, PortError, OSError) as e:
        return source, str(e)
    if text is None:
        return source, result.error or None
    dest = out_dir / (source.stem + ".hip")
    from ..util import atomic_write_text

    atomic_write_text(dest, text)
    return dest, None


def _port_tree(src: Path, dest: Path, hip_version: tuple[int, int] | None) -> Path:
    """`cass-cc port SRC -o DEST` for a tree given without its port (the installed HIP, else 5.2)."""
    from ..config import load
    from ..port import PortError, PortOptions, port

    config = load()
    for version in ((hip_version,) if hip_version else (None, DEFAULT_HIP)):
        opts = PortOptions(src=src, output=dest, hip_version=version, quiet=True, report=dest.parent / f"{src.name}.report")
        try:
            port(opts, config)
            return dest
        except PortError as e:
            if version is not None or "ROCm" not in str(e):
                raise click.ClickException(str(e)) from None
    return dest


def _hip_version(value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    try:
        major, minor = value.split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        raise click.BadParameter(f"expected X.Y (e.g. 5.2), got {value!r}") from None


def _regexes(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    for v in values:
        try:
            re.compile(v)
        except re.error as e:
            raise click.BadParameter(f"{v!r} is not a regular expression: {e}") from None
    return values


@click.command("verify", context_settings={"ignore_unknown_options": False})
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--original", type=click.Path(exists=True, file_okay=False, path_type=Path), help="the CUDA tree")
@click.option("--ported", type=click.Path(exists=True, file_okay=False, path_type=Path), help="its HIP translation (from cass-cc port; default: ported now)")
@click.option("--build", "build_cmd", metavar="CMD", help="trees: the build command, run in each tree (e.g. make)")
@click.option("--ported-build", metavar="CMD", help="trees: the translation's build command, if not --build")
@click.option("--run", "run_cmd", metavar="CMD", help="trees: the run command, run in each built tree (e.g. ./main 100)")
@click.option("--arch", default="sm_80", show_default=True, help="NVIDIA target for both sides (sm_XX)")
@click.option("--flags", default="-O2", show_default=True, help="single files: compiler flags for both sides")
@click.option("--input", "inputs", multiple=True, type=click.Path(exists=True), help="copied into each side's working folder (repeatable)")
@click.option("--stdin", type=click.Path(exists=True, dir_okay=False), help="standard input for both runs")
@click.option("--rtol", type=float, default=1e-5, show_default=True, help="relative tolerance for numbers in outputs")
@click.option("--atol", type=float, default=1e-8, show_default=True, help="absolute tolerance (values near zero)")
@click.option("--mask", "masks", multiple=True, metavar="REGEX", callback=_regexes,
              help="output lines matching REGEX are not compared, like timing lines (repeatable)")
@click.option("--timeout", type=float, default=120.0, show_default=True, help="seconds per run")
@click.option("--memory", type=int, default=32768, show_default=True, help="MiB of resident memory per run")
@click.option("--no-run", is_flag=True, help="build both sides, run nothing")
@click.option("--force-run", is_flag=True, help="run even when no NVIDIA GPU is detected")
@click.option("--amd/--no-amd", default=None,
              help="also build the translation for gfx1100 (default: for files when clang is here; trees: off)")
@click.option("--hip-version", metavar="X.Y", help="translate for this HIP (default: the installed one)")
@click.option("-j", "--jobs", type=int, default=1, show_default=True, help="cases at a time")
@click.option("--json", "json_out", metavar="FILE", help="write results as JSON lines ('-': stdout, instead of the table)")
@click.option("--keep", type=click.Path(file_okay=False, path_type=Path), help="keep translations and builds here")
@click.pass_context
def verify_command(ctx: click.Context, files: tuple[Path, ...], original: Path | None, ported: Path | None,
                   build_cmd: str | None, ported_build: str | None, run_cmd: str | None, arch: str, flags: str,
                   inputs: tuple[str, ...], stdin: str | None, rtol: float, atol: float, masks: tuple[str, ...],
                   timeout: float, memory: int,
                   no_run: bool, force_run: bool, amd: bool | None, hip_version: str | None, jobs: int, json_out: str | None,
                   keep: Path | None) -> None:
    """Translate, build both sides with nvcc (the HIP side through the HIP-on-NVIDIA headers),
    run both and compare exit status, verdict lines and outputs (numbers within --rtol).

    Without an NVIDIA GPU both sides are built and nothing is run ("compiled, not run").
    Exit status: 0 when every case agreed (or compiled, not run), 1 otherwise.
    """
    from ..toolchain import ToolchainError
    from .runner import find_tools, verify_many

    program_args = tuple((ctx.obj or {}).get("args", ()))
    if no_run and force_run:
        raise click.UsageError("--no-run and --force-run exclude each other")
    run_flag = False if no_run else True if force_run else None
    trees = original is not None or ported is not None
    if trees and files:
        raise click.UsageError("give FILE.cu arguments or --original/--ported, not both")
    if trees and (original is None or not build_cmd or not run_cmd):
        raise click.UsageError("trees need --original DIR [--ported DIR] --build CMD --run CMD")
    if not trees and not files:
        raise click.UsageError("give FILE.cu, or --original DIR --ported DIR --build CMD --run CMD")
    try:
        tools = find_tools(os.environ, want_clang=bool(amd) or (amd is None and not trees))
    except ToolchainError as e:
        raise click.ClickException(str(e)) from None
    if amd and not (tools.found.hipcc if trees else tools.found.clang):
        raise click.ClickException(f"--amd needs ROCm's {'hipcc' if trees else 'clang'} (cass-cc setup says what is missing)")
    work_root = keep or Path(tempfile.mkdtemp(prefix="cass-verify."))
    runs = RunSpec(command=run_cmd, args=program_args, inputs=tuple(os.path.abspath(i) for i in inputs),
                   stdin=os.path.abspath(stdin) if stdin else None, timeout=timeout, memory_mb=memory, rtol=rtol,
                   atol=atol, masks=masks, run=run_flag)
    build = BuildSpec(command=build_cmd, ported_command=ported_build, flags=tuple(shlex.split(flags)), arch=arch,
                      amd=bool(tools.found.clang) and not trees if amd is None else amd)
    cases: list[Case] = []
    failed: list[Result] = []
    if trees:
        assert original is not None
        if ported is None:
            ported = _port_tree(original, work_root / "ported" / original.name, _hip_version(hip_version))
        cases.append(Case(original.name, str(original.resolve()), str(ported.resolve()), build, runs,
                          work=str(work_root / original.name) if keep else None))
    else:
        translations = work_root / "translations"
        translations.mkdir(parents=True, exist_ok=True)
        for f in files:
            hip, error = _translate(f.resolve(), translations, _hip_version(hip_version))
            if error:
                failed.append(Result(str(f), "not built", "build-failed", [f"cannot translate: {error}"]))
                continue
            cases.append(Case(str(f), str(f.resolve()), str(hip), build, runs,
                              work=str(work_root / f.stem) if keep else None))
    if not tools.gpu and run_flag is None:
        from .gpu import signs

        why = "; ".join(signs(os.environ)) or "no /dev/nvidia0 and no nvidia-smi"
        click.echo(f"cass-cc: no NVIDIA GPU here ({why}): building both sides, compiled, not run", err=True)
    results = failed + list(verify_many(cases, jobs, tools))
    if json_out:
        lines = "".join(json.dumps(r.to_json()) + "\n" for r in results)
        if json_out == "-":
            sys.stdout.write(lines)
        else:
            from ..util import atomic_write_text

            atomic_write_text(json_out, lines)
    if json_out != "-":
        click.echo(table(results))
        for r in results:
            if r.diff:
                click.echo(f"\n{r.name}:\n{r.diff}")
            for side in ("original", "translation"):
                s = getattr(r, side)
                if not s.built and s.build_log:
                    click.echo(f"\n{r.name} ({side} build):\n{s.build_log.strip()[-1500:]}")
    click.echo(summary_line(results), err=True)
    if not keep:
        import shutil

        shutil.rmtree(work_root, ignore_errors=True)
    ctx.exit(0 if all(r.outcome in ("agree", "not-run") for r in results) else 1)
