"""The suite's records (a program, a suite, the error naming a bad file), below both the package's
loader and hecbench.py's tree loader, which the loader calls."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path


class SuiteError(Exception):
    """A program file or suite folder that cannot be used; the message names the file."""


@dataclass(frozen=True)
class Program:
    name: str
    domain: str
    path: Path  # the .cu file (built-in) or the program's folder (trees)
    features: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    needs: str = ""
    emu: tuple[str, ...] = ()  # emulator launch lines for the assembly task
    description: str = ""
    kind: str = "file"  # "file": one .cu; "tree": a folder with a Makefile and a `run` target
    sources: tuple[str, ...] = ()  # trees: the .cu files, relative to the folder
    digest: str = ""

    def source(self) -> str:
        return self.path.read_bytes().decode("utf-8", "surrogateescape")

    def to_json(self, root: Path | None = None) -> dict[str, object]:
        rel = str(self.path.relative_to(root)) if root is not None else str(self.path)
        return {"name": self.name, "domain": self.domain, "path": rel, "features": list(self.features),
                "args": list(self.args), "needs": self.needs, "emu": list(self.emu), "kind": self.kind,
                "sources": list(self.sources), "sha256": self.digest}


@dataclass(frozen=True)
class Suite:
    name: str
    root: Path
    programs: tuple[Program, ...] = field(default_factory=tuple)

    @property
    def version(self) -> str:
        h = hashlib.sha256()
        for p in self.programs:
            h.update(json.dumps(p.to_json(self.root), sort_keys=True).encode())
            h.update(b"\0")
        return h.hexdigest()[:16]

    @property
    def domains(self) -> list[str]:
        return sorted({p.domain for p in self.programs})

    def select(self, names: str | None) -> Suite:
        """Programs named, or in the domains named, by a comma list (None: all)."""
        if not names:
            return self
        wanted = {n.strip() for n in names.split(",") if n.strip()}
        chosen = tuple(p for p in self.programs if p.name in wanted or p.domain in wanted)
        unknown = wanted - {p.name for p in chosen} - {p.domain for p in chosen}
        if unknown:
            raise SuiteError(f"{self.name}: no program or domain named {', '.join(sorted(unknown))}")
        return Suite(self.name, self.root, chosen)

    def manifest(self) -> dict[str, object]:
        return {"suite": self.name, "version": self.version, "programs": [p.to_json(self.root) for p in self.programs]}
