"""The evaluation suite: self-checking CUDA programs with metadata, and its manifest.

    suite = load()                       # the built-in CASS-Bench-style suite (programs/)
    suite = load("path/to/folder")       # a folder of annotated .cu files, or a HeCBench-like tree
    suite.version                        # hash of every program's name, metadata and bytes

Each built-in program is one `.cu` file under `programs/<domain>/` whose header comment carries
its metadata, one `// key: value` line each, before the first `#include`:

    // cass-bench: gemm_tiled                    (the program's name; the file is <name>.cu)
    // domain: linear-algebra
    // features: shared-memory, templates, 2d-grid
    // needs: hip_bf16.h (HIP >= 5.7)           (optional: what a target installation must have)
    // emu: <kernel> grid=.. block=.. args=..    (optional: a launch for the assembly task's emulator check)
    // args: 1000                                (command-line arguments of the run, may be empty)

The programs fill their inputs from fixed seeds, check against a CPU reference, print PASS or
FAIL and exit 1 on FAIL. `manifest.json` lists them with their hashes; `python -m
cass_train.suite --write-manifest` regenerates it and a test keeps it in step.
"""
from __future__ import annotations

import hashlib
import json
import shlex
from pathlib import Path

from .records import Program, Suite, SuiteError

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
MANIFEST = HERE / "manifest.json"
BUILTIN = "cass-bench"
KEYS = ("cass-bench", "domain", "features", "needs", "emu", "args")


def parse_header(text: str, path: Path) -> dict[str, str]:
    """The `// key: value` lines (and the other comment lines, as 'description') before the code."""
    meta: dict[str, str] = {}
    description: list[str] = []
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        if not s.startswith("//"):
            break
        body = s[2:].strip()
        key, sep, value = body.partition(":")
        if sep and key.strip() in KEYS:
            k = key.strip()
            meta[k] = (meta[k] + "\n" + value.strip()) if k == "emu" and k in meta else value.strip()
        else:
            description.append(body)
    meta["description"] = " ".join(description)
    return meta


def read_program(path: Path) -> Program:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SuiteError(f"{path}: cannot read: {e.strerror}") from None
    meta = parse_header(data.decode("utf-8", "surrogateescape"), path)
    name = meta.get("cass-bench", "")
    if not name:
        raise SuiteError(f"{path}: no '// cass-bench: NAME' line in the header")
    if name != path.stem:
        raise SuiteError(f"{path}: the header names '{name}' but the file is {path.name}")
    if not meta.get("domain"):
        raise SuiteError(f"{path}: no '// domain:' line in the header")
    try:
        args = tuple(shlex.split(meta.get("args", "")))
    except ValueError as e:
        raise SuiteError(f"{path}: bad '// args:' line: {e}") from None
    features = tuple(f.strip() for f in meta.get("features", "").split(",") if f.strip())
    emu = tuple(line for line in meta.get("emu", "").splitlines() if line.strip())
    return Program(name, meta["domain"], path, features, args, meta.get("needs", ""), emu, meta["description"],
                   digest=hashlib.sha256(data).hexdigest())


def load_folder(root: Path, name: str | None = None) -> Suite:
    """Annotated .cu files under `root` (any depth), sorted by domain and name."""
    files = sorted(root.rglob("*.cu"))
    programs = [read_program(f) for f in files]
    seen: dict[str, Path] = {}
    for p in programs:
        if p.name in seen:
            raise SuiteError(f"{p.path}: program name '{p.name}' is also used by {seen[p.name]}")
        seen[p.name] = p.path
    programs.sort(key=lambda p: (p.domain, p.name))
    return Suite(name or root.name, root, tuple(programs))


def load(name_or_path: str | None = None) -> Suite:
    """The built-in suite (None or 'cass-bench'), a folder of annotated programs, or a
    HeCBench-like tree (folders holding a Makefile with a `run` target)."""
    if not name_or_path or name_or_path == BUILTIN:
        return load_folder(PROGRAMS, BUILTIN)
    root = Path(name_or_path)
    if not root.is_dir():
        raise SuiteError(f"{name_or_path}: no such suite (give '{BUILTIN}' or a folder)")
    from .hecbench import is_tree_suite, load_tree

    if is_tree_suite(root):
        return load_tree(root)
    suite = load_folder(root)
    if not suite.programs:
        raise SuiteError(f"{root}: no annotated .cu programs and no folders with a Makefile 'run' target")
    return suite


def write_manifest(path: Path = MANIFEST) -> str:
    from cass_cc.util import atomic_write_text

    suite = load()
    atomic_write_text(path, json.dumps(suite.manifest(), indent=1) + "\n")
    return suite.version


__all__ = ["BUILTIN", "MANIFEST", "Program", "Suite", "SuiteError", "load", "load_folder", "read_program", "write_manifest"]
