"""Reading the user's sources: text decoding, "does this use CUDA", missing HIP libraries."""
from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from .. import log
from ..translate.base import uses_cuda_text
from .errors import DriverError
from .headers import INCLUDE, SYSTEM_PREFIXES, includes
from .libraries import BY_FOLDER

UTF8_BOM = b"\xef\xbb\xbf"


def read_input(path: str) -> bytes:
    """An input file's bytes, `path` as given: Path("") is ".", the folder, where an empty
    argument (nvcc takes one as an input file name) names no file at all."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise DriverError(f"{path}: cannot read: {e.strerror}") from None


def without_bom(data: bytes) -> bytes:
    """A source less its UTF-8 byte order mark. nvcc and clang skip one at the start of a
    file, but the translation puts its own #include first, after which clang reads U+FEFF as
    a stray character; and the file with and without it is the same program (one cache key)."""
    return data[len(UTF8_BOM):] if data.startswith(UTF8_BOM) else data


def decode_source(path: str, data: bytes) -> str:
    """UTF-8 text, or the bytes kept as they are when the stray ones sit only in comments
    and literals (a Latin-1 copyright sign, say: nvcc accepts those, so do we). Stray
    bytes in code are an error naming the line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        first = e
    from ..translate.lexer import tokenize

    text = data.decode("utf-8", "surrogateescape")
    for tok in tokenize(text):
        if tok.kind not in _OPAQUE_TOKENS and any("\udc80" <= c <= "\udcff" for c in tok.text):
            raise DriverError(
                f"{path}:{tok.line}: source is not UTF-8 text (byte 0x{data[first.start]:02x} outside comments "
                "and strings); re-encode it as UTF-8"
            )
    line = data[: first.start].count(b"\n") + 1
    log.warning(f"{path}:{line}: not UTF-8 (byte 0x{data[first.start]:02x} in a comment or literal); kept byte for byte")
    return text



_OPAQUE_TOKENS = ("comment", "string", "char", "raw_string")


def uses_cuda_api(path: str) -> bool:
    """Whether a host C/C++ file calls or includes CUDA (then it needs translating)."""
    try:
        return uses_cuda_text(Path(path).read_bytes())
    except OSError:
        return False  # the compiler will report the missing file in its own words


def missing_library_headers(path: str, data: bytes, include_dir: Path) -> list[tuple[str, str, str]]:
    """(library, CUDA header, error) for CUDA library headers whose HIP counterparts are not installed,
    so the user reads which library to install, not just clang's bare 'file not found'."""
    from ..translate import mappings
    from ..translate.prelude import BF16_HEADER

    messages = []
    for m in INCLUDE.finditer(data):
        name = m.group(2).decode("utf-8", "replace").strip()
        row = mappings.lookup_header(name)
        needed = row.hip_name if row and row.status == "supported" and row.hip_name else None
        if name.startswith("thrust/"):
            needed = name  # rocThrust keeps the path
        if needed == BF16_HEADER:
            continue  # where HIP lacks it, the translation carries its own (translate/prelude_bf16.h)
        if needed and not (include_dir / needed).exists():
            line = data[: m.start()].count(b"\n") + 1
            library = needed.split("/")[0]
            if library == "hip":  # part of HIP itself, from a later version
                since = f" {'.'.join(map(str, row.hip_version))}" if row and row.hip_version else ""
                what = f"HIP{since} or newer"
                why = f"needs {what} (<{needed}>), which is not installed under {include_dir}"
            else:
                what = BY_FOLDER[library].name if library in BY_FOLDER else library
                why = missing_header(needed, include_dir)
            messages.append((what, name, f"{path}:{line}: error: <{name}> {why}"))
    return messages


def missing_header(header: str, include_dir: Path) -> str:
    """Why a HIP library's header (`hipblas/hipblas.h`) cannot be included, and what to install."""
    library = BY_FOLDER.get(header.split("/")[0])
    if library is None:
        return f"needs <{header}>, which is not installed under {include_dir}"
    return f"needs {library.name} (<{header}>), which is not installed under {include_dir}: {library.install_hint()}"


def names_declared_in(files: dict[str, bytes], candidates: set[str]) -> set[str]:
    """Which of `candidates` (CUDA-looking names a translation had no HIP counterpart for)
    the user's files declare: their own macros, functions, types and variables."""
    from ..translate.rules import declared_names

    found: set[str] = set()
    for data in files.values():
        if not any(name.encode() in data for name in candidates - found):
            continue
        found |= declared_names(data.decode("utf-8", "surrogateescape")) & candidates
    return found


# A file of the shim toolkit's include folder (cass_cc/driver/toolkit.py), which CMake builds pass
# with -I: its CUDA-named headers are cass-cc's, not the user's.
TOOLKIT_MARK = "cass_cuda_names.h"


def user_angle_headers(data: bytes, include_dirs: Sequence[str]) -> frozenset[str]:
    """Names `data` includes with <> that the user's own include folders (-I) hold: the
    user's files, which the translation must not refuse even where a CUDA header HIP lacks
    has that name (a project's <cuda_fp8.h> stand-in). No table is read (this runs on every
    compile, cache hits too); a quoted include is never refused anyway."""
    user_dirs = [d for d in include_dirs if not os.path.abspath(d).startswith(SYSTEM_PREFIXES)
                 and not os.path.isfile(os.path.join(d, TOOLKIT_MARK))]
    if not user_dirs:
        return frozenset()
    return frozenset(name for quoted, name in includes(data)
                     if not quoted and any(os.path.isfile(os.path.join(d, name)) for d in user_dirs))
