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
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from ..records import record

Version = tuple[int, ...]


class ToolchainError(Exception):
    """A required tool is missing or unusable. The message names the fix."""


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
        proc = subprocess.run([path, *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
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
