"""Finding a tool: one place, one order, one error format.

Order (STYLE.md 1): the explicit `CASS_<TOOL>` variable, then the ROCm/CUDA
installation's own folders, then PATH. Each candidate is verified by running
`--version` (cached by path, size and mtime), and a candidate that is cass-cc
itself or one of its shims is refused, so `nvcc` on PATH pointing back at us can
never loop.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from ..records import record

Version = tuple[int, ...]


class ToolchainError(Exception):
    """A required tool is missing or unusable. The message names the fix."""


class ToolTimeout(Exception):
    """A tool ran past its deadline and was stopped (with everything it started)."""

    def __init__(self, tool: str, seconds: float):
        super().__init__(f"{tool} did not finish in {seconds:g} s and was stopped (CASS_TOOL_TIMEOUT sets the limit)")
        self.tool = tool
        self.seconds = seconds


@record
class Tool:
    name: str  # "clang", "nvcc", ...
    path: str
    version: Version
    version_text: str  # first line of --version, for -v and cache keys

    def __str__(self) -> str:
        return self.path

    @property
    def version_str(self) -> str:
        return ".".join(map(str, self.version))


# Markers that only cass-cc's own launchers contain (bin/cass-cc, the pip console
# script, shims/bin/nvcc).
_OURS = (b"cass_cc", b"CASS_CC_SHIM")


def is_ours(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return any(marker in head for marker in _OURS)


def parse_version(text: str, pattern: str) -> Version | None:
    m = re.search(pattern, text)
    if not m:
        return None
    group = next(g for g in m.groups() if g is not None) if m.groups() else m.group(0)
    return tuple(int(p) for p in re.findall(r"\d+", group))


class VersionCache:
    """`--version` output per (path, size, mtime), in one JSON file under the cache folder."""

    def __init__(self, path: Path | None):
        self.path = path
        self._data: dict[str, str] | None = None

    def _load(self) -> dict[str, str]:
        if self._data is None:
            self._data = {}
            if self.path is not None:
                try:
                    self._data = json.loads(self.path.read_text())
                except (OSError, ValueError):
                    pass
        return self._data

    def get(self, path: str, probe: Callable[[], str], what: str = "version") -> str:
        st = os.stat(path)
        key = f"{path}|{st.st_size}|{st.st_mtime_ns}|{what}"
        data = self._load()
        if key not in data:
            data[key] = probe()
            self._save()
        return data[key]

    def _save(self) -> None:
        if self.path is None:
            return
        from ..util import atomic_write_text

        try:
            atomic_write_text(self.path, json.dumps(self._data, indent=0, sort_keys=True))
        except OSError:
            pass  # a read-only cache folder only costs a re-probe next time


def run_version(path: str, args: Sequence[str] = ("--version",)) -> str:
    try:
        proc = run_tool([path, *args], timeout=30, text=True, errors="replace")
    except (OSError, ToolTimeout) as e:
        return f"<failed: {e}>"
    return proc.stdout + proc.stderr


@record
class Spec:
    """How to find and recognise one tool."""

    name: str
    env: str  # CASS_CLANG, ...
    names: tuple[str, ...]  # executable names tried in folders and on PATH, in order
    pattern: str  # regex whose group 1 is the version in --version output
    min_version: Version = ()
    install_hint: str = ""
    version_args: tuple[str, ...] = ("--version",)
    # A capability probe: (arguments, text its output must contain, what it means).
    capability: tuple[tuple[str, ...], str, str] | None = None

    def with_names(self, names: tuple[str, ...]) -> "Spec":
        return self._replace(names=names)


def candidates(spec: Spec, env: Mapping[str, str], dirs: Iterable[str]) -> list[tuple[str, str]]:
    """(path, where-it-came-from) in discovery order, existing files only."""
    found: list[tuple[str, str]] = []
    explicit = env.get(spec.env)
    if explicit:
        path = explicit if os.sep in explicit else (shutil.which(explicit, path=env.get("PATH")) or explicit)
        found.append((path, spec.env))
        return found  # an explicit choice is never second-guessed
    for d in dirs:
        for n in spec.names:
            p = os.path.join(d, n)
            if os.path.isfile(p) and os.access(p, os.X_OK):
                found.append((p, d))
    path_dirs = [d for d in env.get("PATH", "").split(os.pathsep) if d]
    for n in spec.names:
        for d in path_dirs:  # every match, not just the first: a shim may shadow the real tool
            p = os.path.join(d, n)
            if os.path.isfile(p) and os.access(p, os.X_OK) and (p, "PATH") not in found:
                found.append((p, "PATH"))
    return found


def find(spec: Spec, env: Mapping[str, str], dirs: Iterable[str], versions: VersionCache) -> Tool:
    tried: list[str] = []
    for path, origin in candidates(spec, env, dirs):
        if not os.path.isfile(path):
            tried.append(f"{path} (from {origin}: no such file)")
            continue
        if is_ours(path):
            tried.append(f"{path} (cass-cc itself, skipped)")
            continue
        text = versions.get(path, lambda p=path: run_version(p, spec.version_args))
        version = parse_version(text, spec.pattern)
        if version is None:
            tried.append(f"{path} (unrecognised --version output)")
            continue
        if spec.min_version and version < spec.min_version:
            need = ".".join(map(str, spec.min_version))
            tried.append(f"{path} (version {'.'.join(map(str, version))}, need {need}+)")
            continue
        if spec.capability:
            args, needle, meaning = spec.capability
            output = versions.get(path, lambda p=path: run_version(p, args), what=" ".join(args))
            if needle not in output:
                tried.append(f"{path} (not {meaning})")
                continue
        first = next((line for line in text.splitlines() if line.strip()), "")
        return Tool(spec.name, path, version, first.strip())
    where = "; ".join(tried) if tried else f"none of {', '.join(spec.names)} found"
    hint = f"; {spec.install_hint}" if spec.install_hint else ""
    raise ToolchainError(f"cannot find {spec.name} ({where}){hint}, or set {spec.env}=/path/to/{spec.names[0]}")


# ---- running a tool ------------------------------------------------------------------

# How long one tool run may take, unless the tool-timeout setting (CASS_TOOL_TIMEOUT) says:
# a base plus a share per MiB of the files it reads. A hostile cubin can send nvdisasm or
# llc-16 into a loop that never ends; legitimate runs of these take seconds. A compiler or
# linker reads headers and instantiates templates that its input's size does not show, so it
# gets far longer: the deadline is there to end a hang, never to cut a slow build short.
QUICK = (120.0, 60.0)  # (seconds, seconds per MiB): disassemblers, opt/llc/llvm-mc on one file
COMPILE = (1800.0, 60.0)  # clang, hipcc, nvcc, host compilers and linkers
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_libc = None


def _input_bytes(argv: Sequence[str], stdin: bytes | str | None) -> int:
    """What a tool reads: the files its arguments name (not the one after -o) and its stdin."""
    total = len(stdin) if stdin is not None else 0
    for i, arg in enumerate(argv[1:], 1):
        if argv[i - 1] == "-o" or not arg or arg.startswith("-"):
            continue
        try:
            st = os.stat(arg)
        except (OSError, ValueError):
            continue
        if not os.path.isdir(arg):
            total += st.st_size
    return total


def deadline(argv: Sequence[str], budget: tuple[float, float], setting: float, stdin: bytes | str | None = None) -> float:
    """Seconds `argv` may run: the setting when it is above 0, else the budget scaled by its input's size."""
    if setting > 0:
        return setting
    base, per_mib = budget
    return base + per_mib * _input_bytes(argv, stdin) / 2**20


def configured_timeout(env: Mapping[str, str] | None = None) -> float:
    """The tool-timeout setting (environment and config file) for callers that hold no Config."""
    from ..config import ConfigError, load

    try:
        return float(load({}, os.environ if env is None else env).tool_timeout)
    except ConfigError:
        return 0.0  # the driver reports a broken config file itself; the default deadline still holds


# Stack for the tool's main thread. clang-15 recurses once per operand of a long expression
# and per level of a brace nest: 8 MiB (the usual default) overflows at ~100,000 terms of
# `x + x + ...`, which nvcc's front end takes. Only the pages used are ever allocated.
TOOL_STACK = 1 << 30


def _deep_stack() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    want = TOOL_STACK if hard == resource.RLIM_INFINITY else min(TOOL_STACK, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_STACK, (want, hard))


def _own_group_dying_with_parent(parent: int) -> Callable[[], None]:
    """The child's preexec: its own process group, so that a timeout kills what the tool
    started too (clang's lld, nvcc's cicc), and SIGKILL when cass-cc dies, even by SIGKILL,
    where no handler of ours runs. (A grandchild does not inherit the death signal; it dies
    with the group on a timeout, and finishes on its own when cass-cc is killed.)"""
    global _libc
    if _libc is None:  # loaded in the parent: dlopen after fork is not safe
        import ctypes

        _libc = ctypes.CDLL(None, use_errno=True)
    prctl = _libc.prctl

    def preexec() -> None:
        os.setpgid(0, 0)
        _deep_stack()
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # cass-cc died before prctl took hold
            os._exit(1)

    return preexec


def run_tool(
    argv: Sequence[str],
    *,
    budget: tuple[float, float] = QUICK,
    timeout: float | None = None,
    input: bytes | str | None = None,
    stdout: int | None = subprocess.PIPE,
    stderr: int | None = subprocess.PIPE,
    text: bool = False,
    errors: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
) -> subprocess.CompletedProcess:
    """subprocess.run for an external tool, bounded: past its deadline (`timeout` seconds
    when given, else `deadline()` from the tool-timeout setting) its whole process group is
    killed and ToolTimeout raised. If cass-cc itself is stopped (Ctrl-C, an exception) the
    group is killed too, and the kernel kills the tool if cass-cc is SIGKILLed.
    OSError (a missing or unrunnable tool) reaches the caller as with subprocess.run."""
    argv = list(argv)
    limit = deadline(argv, budget, configured_timeout(env) if timeout is None else timeout, input)
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE if input is not None else _stdin(),
        stdout=stdout,
        stderr=stderr,
        text=text or errors is not None,
        errors=errors,
        env=dict(env) if env is not None else None,
        cwd=cwd,
        preexec_fn=_own_group_dying_with_parent(os.getpid()),
    )
    try:
        out, err = proc.communicate(input, timeout=limit)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        raise ToolTimeout(os.path.basename(argv[0]), round(limit, 1)) from None
    except BaseException:  # KeyboardInterrupt, SystemExit: the tool must not outlive us
        _kill_group(proc)
        raise
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def _stdin() -> int | None:
    """The tool shares cass-cc's stdin, except a terminal: in its own process group it is in
    the background, and reading the terminal would stop it (SIGTTIN) for good."""
    try:
        return subprocess.DEVNULL if os.isatty(0) else None
    except OSError:
        return subprocess.DEVNULL


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:  # reap it; a grandchild that left the group could hold the pipes open, so bounded
        proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        proc.wait()
