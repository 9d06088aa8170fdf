"""`cass-cc port`: translate a whole CUDA tree to HIP once, so it builds without cass-cc.

    port(PortOptions(src=Path("app"), output=Path("app-hip"), ...), config) -> exit code

walk.py picks the files, files.py ports one source, buildfiles.py rewrites Makefiles and
CMake files, report.py says what happened. See README.md in this folder.
"""
from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..util import atomic_write_text, output_problem
from .buildfiles import rewrite_build_file
from .make import MakeContext, included_make_files, uses_nvcc, variable_roles
from .make import assignments as make_assignments
from .files import port_source, strip_line_directive
from .report import FAILED, TRANSLATED, FileResult, Report, one_line, stats_csv, stats_table, text_report
from .walk import BACKUP_SUFFIX, MANIFEST, Entry, is_inside, walk
from .writes import Plan, Write, read_regular

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
    overwrite_edits: bool = False  # replace ported files edited since the last port (else refused)

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


def _make_output(out: Path) -> None:
    """OUT made (with its parents) and writable, or one line saying why not (not one per file)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PortError(f"cannot make the output folder {out}: {e.strerror}") from None
    problem = output_problem(out / MANIFEST)  # a probe file: as root os.access misses a read-only mount
    if problem is not None:
        raise PortError(f"cannot write in the output folder {out}: {problem}")


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
    plan = None if opts.examine else Plan(opts.output if opts.output is not None else src)
    with _progress(entries, not opts.quiet and sys.stderr.isatty()) as items:
        for entry in items:
            if entry.kind == "skipped":
                report.skipped.append((entry.rel, entry.warning))
            elif entry.kind == "unlisted":
                report.files.append(FileResult(entry.rel, "other", status=FAILED, error=entry.warning))
            elif entry.kind in ("source", "make", "cmake", "shell"):
                context = contexts.get(entry.rel) or MakeContext(rocm_root=rocm_root)
                report.files.append(_port_file(entry, opts, chain, target, archs, cache, plan, context))
            elif opts.output is not None and plan is not None:
                _mirror(entry, src, opts.output, plan, report)
    _quiet_own_names(report, src)
    if plan is not None:
        _refuse_edits(plan, opts)
        if opts.output is not None:
            _make_output(opts.output)
        plan.apply(report)
    _write_reports(report, opts)
    return 1 if report.failed else 0


def _refuse_edits(plan: Plan, opts: PortOptions) -> None:
    """Before anything is written: files the port would replace that were edited since the last
    port wrote them (or that no port wrote) stop it, unless --overwrite-edits."""
    edited = plan.edited()
    if not edited or opts.overwrite_edits:
        return
    names = ", ".join(one_line(str(p)) for p in edited[:10]) + (f" and {len(edited) - 10} more" if len(edited) > 10 else "")
    where = "ported files changed since the last port" if opts.inplace else \
        f"files in {opts.output} changed since the last port wrote them, or written by something else"
    raise PortError(f"{where}: {names}; nothing written (--overwrite-edits replaces them)")


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
                text = read_regular(src / f.path).decode("utf-8", errors="replace")
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
            texts[rel] = read_regular(src / rel).decode("utf-8", errors="surrogateescape")
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
               plan: Plan | None, context: MakeContext | None = None) -> FileResult:
    path = opts.src / entry.rel
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    has_backup = opts.inplace and backup.is_file() and not backup.is_symlink()
    read_from = backup if has_backup else path  # a second --inplace starts again from the original
    try:
        data = read_regular(read_from)
        st = os.lstat(path)
    except OSError as e:
        return FileResult(entry.rel, entry.kind, status=FAILED, error=f"cannot read {read_from}: {e.strerror}")
    if entry.kind == "source":
        result, ported = port_source(entry.rel, data, chain, target, cache)
    else:
        result, ported = _port_build_file(entry, data, archs, context)
    if plan is None:
        return result
    inode = (st.st_dev, st.st_ino)
    if opts.output is not None:
        dest = opts.output / entry.rel
        if ported is None:
            if result.status == FAILED:
                result.error += " (copied untranslated)"
            plan.add(Write(entry.rel, dest, entry.rel, copy_from=path, inode=inode, result=result))
        else:
            plan.add(Write(entry.rel, dest, entry.rel, data=_encode(ported), mode=st.st_mode, inode=inode, result=result))
    elif result.status != FAILED and (ported is not None or has_backup):
        keep = None
        if not has_backup:  # the first port of this file: keep the original, its mode and times
            keep = Write(entry.rel + BACKUP_SUFFIX, backup, "", copy_from=path, inode=inode, result=result)
            plan.add(keep)
        # ported, or ported before and needing no change now: the original again
        new = _encode(ported) if ported is not None else data
        plan.add(Write(entry.rel, path, entry.rel, data=new, mode=st.st_mode, inode=inode,
                       original=backup if has_backup else None, check=has_backup, result=result, after=keep))
    return result


def _encode(text: str) -> bytes:
    """Bytes of a ported text; bytes a source held that were not UTF-8 (kept as surrogates) come back as they were."""
    return text.encode("utf-8", "surrogateescape")


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


def _mirror(entry: Entry, src: Path, out: Path, plan: Plan, report: Report) -> None:
    """Copy a non-source file, or recreate a symbolic link as it is (with a warning when it
    dangles, loops or leads out of the tree)."""
    path = src / entry.rel
    if entry.kind != "link":
        try:
            st = os.lstat(path)
        except OSError as e:
            report.files.append(FileResult(entry.rel, "other", status=FAILED, error=f"cannot read {path}: {e.strerror}"))
            return
        plan.add(Write(entry.rel, out / entry.rel, entry.rel, copy_from=path, inode=(st.st_dev, st.st_ino)))
        return
    try:
        target = os.readlink(path)
    except OSError as e:
        report.files.append(FileResult(entry.rel, "other", status=FAILED, error=f"cannot read the link {path}: {e.strerror}"))
        return
    if entry.warning:
        report.skipped.append((entry.rel, entry.warning + "; recreated as it is"))
    plan.add(Write(entry.rel, out / entry.rel, entry.rel, link=target))


def _write_reports(report: Report, opts: PortOptions) -> None:
    text = text_report(report, quiet=opts.quiet)
    if opts.report is not None:
        _write_report(opts.report, text_report(report))
    else:
        sys.stderr.write(text)
        sys.stderr.flush()
    if opts.report_json is not None:
        _write_report(opts.report_json, report.json_text())
    if opts.stats_csv is not None:
        _write_report(opts.stats_csv, stats_csv(report))
    if opts.print_stats:
        sys.stdout.write(stats_table(report))
        sys.stdout.flush()


def _write_report(path: Path, text: str) -> None:
    try:
        atomic_write_text(path, text)
    except OSError as e:
        raise PortError(f"cannot write the report {path}: {e.strerror}") from None
