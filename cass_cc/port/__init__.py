"""`cass-cc port`: translate a whole CUDA tree to HIP once, so it builds without cass-cc.

    port(PortOptions(src=Path("app"), output=Path("app-hip"), ...), config) -> exit code

walk.py picks the files, files.py ports one source, buildfiles.py rewrites Makefiles and
CMake files, report.py says what happened. See README.md in this folder.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..util import atomic_write_bytes, atomic_write_text
from .buildfiles import rewrite_build_file
from .make import MakeContext, included_make_files, uses_nvcc, variable_roles
from .make import assignments as make_assignments
from .files import port_source, strip_line_directive
from .report import FAILED, TRANSLATED, FileResult, Report, stats_csv, stats_table, text_report
from .walk import BACKUP_SUFFIX, Entry, is_inside, walk

__all__ = ["PortError", "PortOptions", "port", "strip_line_directive"]


class PortError(Exception):
    """A usage error: one line, nothing written."""


@dataclass
class PortOptions:
    src: Path
    output: Path | None = None  # -o OUT: mirror the tree there
    inplace: bool = False  # rewrite SRC, keeping <file>.cuda-orig
    examine: bool = False  # report only
    build_files: bool = True
    offload_archs: list[str] = field(default_factory=list)  # [] = the configured ones
    hip_version: tuple[int, int] | None = None  # None = the installed HIP's
    report: Path | None = None  # text report file (else stderr)
    report_json: Path | None = None
    print_stats: bool = False
    stats_csv: Path | None = None
    quiet: bool = False

    @property
    def mode(self) -> str:
        return "output" if self.output is not None else "inplace" if self.inplace else "examine"


def _check(opts: PortOptions) -> None:
    if sum([opts.output is not None, opts.inplace, opts.examine]) != 1:
        raise PortError("give exactly one of -o OUT, --inplace or --examine")
    if not opts.src.is_dir():
        raise PortError(f"{opts.src}: not a folder (cass-cc port translates a tree)")
    out = opts.output
    if out is not None:
        if is_inside(out, opts.src):
            raise PortError(f"output folder {out} is {'the source folder' if out.resolve() == opts.src.resolve() else 'inside the source folder'} {opts.src}; choose one outside it")
        if is_inside(opts.src, out):
            raise PortError(f"source folder {opts.src} is inside the output folder {out}; choose another output")
        if out.exists() and not out.is_dir():
            raise PortError(f"output {out} exists and is not a folder")


def _target(opts: PortOptions, config: Any, env: Mapping[str, str]):  # type: ignore[no-untyped-def]
    from ..toolchain import Toolchain, ToolchainError, wave_size
    from ..translate import Target

    archs = opts.offload_archs or list(config.offload_arch)
    version = opts.hip_version
    if version is None:
        try:
            version = Toolchain(env, config.rocm_path, config.cache_path(env)).rocm.hip_version[:2]
        except ToolchainError as e:
            raise PortError(f"{e} (or give --hip-version X.Y)") from None
    return Target(hip_version=version, wave_size=min(wave_size(a) for a in archs)), archs


@contextlib.contextmanager
def _progress(entries: list[Entry], show: bool) -> Iterator[Any]:
    if not show:
        yield entries
        return
    import click

    with click.progressbar(entries, label="porting", file=sys.stderr, item_show_func=lambda e: e.rel if e else "") as bar:
        yield bar


def port(opts: PortOptions, config: Any, env: Mapping[str, str] | None = None) -> int:
    """Port the tree; 0 when every file was ported, 1 when any failed. Raises PortError on usage errors."""
    env = os.environ if env is None else env
    _check(opts)
    from ..translate import TranslationError, chain_from_setting

    try:
        chain = chain_from_setting(config.translator)
    except TranslationError as e:
        raise PortError(str(e)) from None
    target, archs = _target(opts, config, env)
    cache = None
    if not opts.examine and not config.no_cache:  # --examine writes nothing, not even the cache
        from ..cache import TranslationCache

        cache = TranslationCache(config.cache_path(env))
    src = opts.src
    skip = opts.output.resolve() if opts.output is not None else None
    entries = walk(src, opts.build_files, skip)
    contexts: dict[str, MakeContext] = {}
    rocm_root = _rocm_root(config, env)
    if opts.build_files:
        entries, contexts = _make_files(src, entries, rocm_root)
    report = Report(
        source=str(src), output=str(opts.output) if opts.output is not None else None, mode=opts.mode,
        target={"hip_version": f"{target.hip_version[0]}.{target.hip_version[1]}", "wave_size": target.wave_size, "offload_arch": archs},
        translator=chain.identity(),
    )
    with _progress(entries, not opts.quiet and sys.stderr.isatty()) as items:
        for entry in items:
            if entry.kind in ("source", "make", "cmake", "shell"):
                context = contexts.get(entry.rel) or MakeContext(rocm_root=rocm_root)
                report.files.append(_port_file(entry, opts, chain, target, archs, cache, context))
            elif opts.output is not None:
                report.copied += _mirror(src / entry.rel, opts.output / entry.rel, report)
    _quiet_own_names(report, src)
    _write_reports(report, opts)
    return 1 if report.failed else 0


def _quiet_own_names(report: Report, src: Path) -> None:
    """Names a file's translation called unsupported that the tree's own sources declare (a
    project header's `typedef ... nv_bfloat16;`, its `#define MAJOR_VERSION`) are the project's:
    no warning, not counted (as the driver does with the headers a compile includes)."""
    from ..translate.rules import declared_names

    candidates = {name for f in report.files for name in f.unsupported}
    if not candidates:
        return
    own: set[str] = set()
    for f in report.files:
        if f.kind == "source":
            try:
                text = (src / f.path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            own |= declared_names(text) & candidates
    for f in report.files:
        for name in own & set(f.unsupported):
            del f.unsupported[name]
            f.unsupported_family.pop(name, None)
            f.diagnostics = [d for d in f.diagnostics if f": warning: '{name}'" not in d]


def _rocm_root(config: Any, env: Mapping[str, str]) -> str:
    """The ROCm a ported Makefile's ROCM_PATH defaults to: the installed one, else /opt/rocm."""
    from ..toolchain import ToolchainError
    from ..toolchain.rocm import find_rocm

    try:
        return str(find_rocm(env, config.rocm_path).root)
    except ToolchainError:
        return "/opt/rocm"


def _make_files(src: Path, entries: list[Entry], rocm_root: str) -> tuple[list[Entry], dict[str, MakeContext]]:
    """Files that make files `include` (a shared make.config) become make files too, and each
    make file gets the variables of what it includes (transitively, in order)."""
    by_rel = {e.rel: e for e in entries}
    texts: dict[str, str] = {}
    todo = [e.rel for e in entries if e.kind == "make"]
    while todo:
        rel = todo.pop()
        if rel in texts:
            continue
        try:
            texts[rel] = (src / rel).read_text(encoding="utf-8", errors="surrogateescape")
        except OSError:
            continue  # reported when it is ported
        for inc in included_make_files({rel: texts[rel]})[rel]:
            entry = by_rel.get(inc)
            if entry is not None and entry.kind == "other":
                by_rel[inc] = Entry(inc, "make")
                todo.append(inc)
    graph = included_make_files(texts)

    def variables(rel: str, seen: frozenset[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for inc in graph.get(rel, []):
            if inc in texts and inc not in seen:
                found = make_assignments(texts[inc], {**found, **variables(inc, seen | {inc})})
        return found

    contexts = {rel: MakeContext(variables(rel, frozenset({rel})), rocm_root) for rel in texts}
    # an included file's variables are used by the commands of the files including it
    for rel, text in texts.items():
        if not uses_nvcc(text, MakeContext(contexts[rel].variables)):
            continue  # a plain C Makefile's commands say nothing about CUDA flags
        roles = variable_roles(text, {**contexts[rel].variables, **make_assignments(text)})
        stack, seen = list(graph.get(rel, [])), {rel}
        while stack:
            inc = stack.pop()
            if inc in contexts and inc not in seen:
                seen.add(inc)
                for name, programs in roles.items():
                    contexts[inc].roles.setdefault(name, set()).update(programs)
                stack += graph.get(inc, [])
    return sorted(by_rel.values(), key=lambda e: e.rel), contexts


def _port_file(entry: Entry, opts: PortOptions, chain: Any, target: Any, archs: list[str], cache: Any,
               context: MakeContext | None = None) -> FileResult:
    path = opts.src / entry.rel
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    read_from = backup if opts.inplace and backup.is_file() else path  # a second --inplace starts again from the original
    try:
        data = read_from.read_bytes()
    except OSError as e:
        return FileResult(entry.rel, entry.kind, status=FAILED, error=f"cannot read {read_from}: {e.strerror}")
    if entry.kind == "source":
        result, ported = port_source(entry.rel, data, chain, target, cache)
    else:
        result, ported = _port_build_file(entry, data, archs, context)
    try:
        if opts.output is not None:
            dest = opts.output / entry.rel
            if ported is None:
                _copy(path, dest)
                if result.status == FAILED:
                    result.error += " (copied untranslated)"
            else:
                atomic_write_text(dest, ported)
                shutil.copymode(path, dest)
        elif opts.inplace and result.status != FAILED:
            if ported is not None:
                if not backup.exists():
                    shutil.copy2(path, backup)
                atomic_write_text(path, ported)
            elif read_from is backup:
                atomic_write_bytes(path, data)  # ported before, needs no change now: the original again
    except OSError as e:
        result.status, result.error = FAILED, f"cannot write: {e}"
    return result


def _port_build_file(entry: Entry, data: bytes, archs: list[str],
                     context: MakeContext | None = None) -> tuple[FileResult, str | None]:
    result = FileResult(entry.rel, entry.kind)
    text = data.decode("utf-8", "surrogateescape")  # stray bytes come back as they were (atomic_write_text)
    new, rewrites = rewrite_build_file(entry.rel, text, archs, context, entry.kind)
    result.rewrites = [f"line {n}: {what}" for n, what in rewrites]
    if new == text:
        return result, None
    result.status = TRANSLATED
    return result, new


def _copy(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.is_symlink():
        dest.unlink()
    shutil.copy2(src, dest)


def _mirror(src: Path, dest: Path, report: Report) -> int:
    """Copy a non-source file or recreate a symbolic link; 1 when a file was copied."""
    try:
        if src.is_symlink():
            dest.parent.mkdir(parents=True, exist_ok=True)
            if dest.is_symlink() or dest.is_file():
                dest.unlink()
            os.symlink(os.readlink(src), dest)
            return 0
        _copy(src, dest)
        return 1
    except OSError as e:
        rel = src.relative_to(report.source).as_posix()
        report.files.append(FileResult(rel, "other", status=FAILED, error=f"cannot copy: {e}"))
        return 0


def _write_reports(report: Report, opts: PortOptions) -> None:
    text = text_report(report, quiet=opts.quiet)
    if opts.report is not None:
        atomic_write_text(opts.report, text_report(report))
    else:
        sys.stderr.write(text)
        sys.stderr.flush()
    if opts.report_json is not None:
        atomic_write_text(opts.report_json, report.json_text())
    if opts.stats_csv is not None:
        atomic_write_text(opts.stats_csv, stats_csv(report))
    if opts.print_stats:
        sys.stdout.write(stats_table(report))
        sys.stdout.flush()
