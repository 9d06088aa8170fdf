"""External suites laid out like HeCBench: one folder per program, each with a Makefile whose
`run` target builds and runs it (`make run`), and the CUDA sources (.cu) beside it.

    root/
      saxpy-cuda/Makefile  (all: ..., run: $(program) ; ./$(program) 1000)
      saxpy-cuda/main.cu
      ...

Where some folders end in `-cuda` (HeCBench keeps -hip, -sycl, -omp siblings), only those are
taken, named without the suffix. A program's domain is the tree's name unless a `domains.json`
at the root maps program names to domains. Its digest covers every file in its folder.
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from .records import Program, Suite, SuiteError

RUN_TARGET = re.compile(r"^run\s*:", re.MULTILINE)
MAKEFILES = ("Makefile", "makefile", "GNUmakefile")


def _makefile(folder: Path) -> Path | None:
    for name in MAKEFILES:
        if (folder / name).is_file():
            return folder / name
    return None


def is_program_folder(folder: Path) -> bool:
    mk = _makefile(folder)
    if mk is None or not any(folder.glob("*.cu")):
        return False
    try:
        return bool(RUN_TARGET.search(mk.read_text(errors="replace")))
    except OSError:
        return False


def is_tree_suite(root: Path) -> bool:
    return any(d.is_dir() and is_program_folder(d) for d in root.iterdir())


def run_arguments(makefile_text: str) -> tuple[str, ...]:
    """The arguments of the first `./program ARGS` recipe line of the `run` target (for reports)."""
    m = RUN_TARGET.search(makefile_text)
    if not m:
        return ()
    for line in makefile_text[m.end():].splitlines()[1:]:
        if not line.startswith("\t"):
            break
        words = line.strip().split()
        for i, w in enumerate(words):  # `$(LAUNCHER) ./$(program) ARGS`
            if w.startswith("./"):
                return tuple(words[i + 1:])
    return ()


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(str(f.relative_to(folder)).encode())
        h.update(b"\0")
        h.update(f.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def load_tree(root: Path) -> Suite:
    folders = sorted(d for d in root.iterdir() if d.is_dir() and is_program_folder(d))
    if any(d.name.endswith("-cuda") for d in folders):
        folders = [d for d in folders if d.name.endswith("-cuda")]
    domains: dict[str, str] = {}
    mapping = root / "domains.json"
    if mapping.is_file():
        try:
            domains = {str(k): str(v) for k, v in json.loads(mapping.read_text()).items()}
        except (ValueError, AttributeError) as e:
            raise SuiteError(f"{mapping}: not a JSON object of program -> domain: {e}") from None
    programs = []
    for d in folders:
        name = d.name[: -len("-cuda")] if d.name.endswith("-cuda") else d.name
        mk = _makefile(d)
        assert mk is not None
        sources = tuple(sorted(str(p.relative_to(d)) for p in d.rglob("*.cu")))
        programs.append(Program(name, domains.get(name, root.name), d, (), run_arguments(mk.read_text(errors="replace")),
                                kind="tree", sources=sources, digest=_digest(d)))
    if not programs:
        raise SuiteError(f"{root}: no program folders (a Makefile with a 'run' target and .cu sources)")
    return Suite(root.name, root, tuple(programs))
