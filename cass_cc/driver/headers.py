"""The user's own headers: CUDA code lives in `.h`/`.cuh` files too.

A `.cu` file is translated on its own; the headers it includes from the user's tree
(and the `.cu` files it includes, a common pattern) may also call the CUDA API. We
find that include closure, and when any file in it uses CUDA we build a *shadow
tree*: every closure file at its absolute path under one folder, translated where it
uses CUDA, a symlink to the original where it does not. Putting the shadow's copy of
each include folder before the original makes every `#include` find the translated
file, and relative includes between headers keep working because the layout is the
same. Translated headers carry `#line` directives naming the original file, so
diagnostics point at the user's header.

The shadow folder is named by a hash of every closure file's path and contents plus
the translator and target, so concurrent builds of different versions never share one.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from ..records import record
from ..util import atomic_folder, sha256_hex

INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)

# Folders whose headers belong to a toolchain or the system, never to the user.
SYSTEM_PREFIXES = ("/usr/include", "/usr/lib", "/usr/local/include", "/usr/local/cuda", "/opt/rocm", "/usr/share")


def _is_system(path: str, extra: Sequence[str]) -> bool:
    return path.startswith(SYSTEM_PREFIXES + tuple(extra))


def includes(data: bytes) -> list[tuple[bool, str]]:
    """(quoted, name) for every #include line, in every #if branch."""
    return [(m.group(1) == b'"', m.group(2).decode("utf-8", "replace").strip()) for m in INCLUDE.finditer(data)]


@record
class Closure:
    main: str  # absolute path of the .cu file
    files: dict[str, bytes]  # absolute path -> contents, every user file reachable (main excluded)


def closure(main: str, search_dirs: Sequence[str], system_dirs: Sequence[str] = ()) -> Closure:
    """Every user file reachable from `main` by #include.

    Quoted includes search the including file's folder, then `search_dirs`; angle
    includes search `search_dirs` only. Files under system folders are left out.
    """
    main = os.path.abspath(main)
    dirs = [os.path.abspath(d) for d in search_dirs]
    files: dict[str, bytes] = {}
    todo = [main]
    seen = {main}
    while todo:
        current = todo.pop()
        try:
            data = Path(current).read_bytes()
        except OSError:
            continue  # the compiler reports unreadable includes in its own words
        if current != main:
            files[current] = data
        for quoted, name in includes(data):
            candidates = ([os.path.dirname(current)] if quoted else []) + dirs
            for d in candidates:
                path = os.path.normpath(os.path.join(d, name))
                if os.path.isfile(path):
                    if path not in seen and not _is_system(path, system_dirs):
                        seen.add(path)
                        todo.append(path)
                    break
    return Closure(main, files)


def shadow_tree(
    cl: Closure,
    root: Path,
    identity: str,
    uses_cuda: Callable[[bytes], bool],
    translate: Callable[[str], str],
) -> Path | None:
    """Build (or reuse) the shadow tree for `cl` under `root`; None when no header uses CUDA.

    `translate(path)` returns the HIP text for one file (through the driver's cache).
    """
    cuda_files = [p for p, data in cl.files.items() if uses_cuda(data)]
    if not cuda_files:
        return None
    parts = [identity] + [f"{p}\0{sha256_hex(d)}" for p, d in sorted(cl.files.items())]
    folder = root / "shadow" / sha256_hex(*parts)[:24]
    if folder.is_dir():
        return folder
    def fill(work: Path) -> None:
        for path in cl.files:
            dest = Path(str(work) + path)
            dest.parent.mkdir(parents=True, exist_ok=True)
            if path in cuda_files:
                dest.write_bytes(translate(path).encode("utf-8", "surrogateescape"))
            else:
                os.symlink(path, dest)

    return atomic_folder(folder, fill)


def shadow_of(shadow: Path, directory: str) -> str:
    return str(shadow) + os.path.abspath(directory)
