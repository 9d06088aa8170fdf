"""CUDA -> HIP name mappings, read from the TSV files in `mappings/` (the one source of truth).

Each file has a header line `cuda_name hip_name kind family status hip_version`
(tab-separated); blank lines and lines starting with `#` are comments. The tables are
read once, on first use, and cached.
"""
from __future__ import annotations

import functools
from pathlib import Path

from ..records import record
from ..util import sha256

DATA_DIR = Path(__file__).with_name("mappings")
COLUMNS = ("cuda_name", "hip_name", "kind", "family", "status", "hip_version")
# "namespace": a C++ namespace name (cub -> hipcub, thrust -> thrust); rename it only where it
# qualifies a name (`cub::X`) or follows `namespace` / `using namespace`.
KINDS = frozenset({"function", "type", "enum", "macro", "header", "namespace"})
STATUSES = frozenset({"supported", "unsupported", "deprecated", "removed"})
# API families, one file each (mappings/<family>.tsv); "headers" holds the #include rewrites.
FAMILIES = (
    "runtime", "driver", "device", "fp16", "bf16", "complex", "graph", "texture", "cooperative_groups",
    "nvrtc", "nvtx", "cublas", "curand", "cufft", "cusparse", "cusolver", "cub", "thrust", "headers",
)


@record
class Mapping:
    cuda_name: str
    hip_name: str  # "" when HIP has no counterpart
    kind: str
    family: str
    status: str
    hip_version: tuple[int, int] | None  # lowest HIP that has hip_name; None = any

    def available_on(self, hip_version: tuple[int, int]) -> bool:
        """True when this row can be translated to a name that exists on that HIP."""
        if self.status not in ("supported", "deprecated") or not self.hip_name:
            return False
        return self.hip_version is None or hip_version >= self.hip_version


class MappingError(ValueError):
    """A mapping file is malformed."""


def parse_table(text: str, source: str) -> list[Mapping]:
    rows: list[Mapping] = []
    header_seen = False
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        fields = raw.split("\t")
        if not header_seen:
            if tuple(fields) != COLUMNS:
                raise MappingError(f"{source}:{number}: header must be {' '.join(COLUMNS)}")
            header_seen = True
            continue
        if len(fields) != len(COLUMNS):
            raise MappingError(f"{source}:{number}: expected {len(COLUMNS)} fields, got {len(fields)}")
        cuda_name, hip_name, kind, family, status, version = fields
        if kind not in KINDS:
            raise MappingError(f"{source}:{number}: unknown kind {kind!r}")
        if status not in STATUSES:
            raise MappingError(f"{source}:{number}: unknown status {status!r}")
        rows.append(Mapping(cuda_name, hip_name, kind, family, status, _version(version, source, number)))
    return rows


def _version(text: str, source: str, number: int) -> tuple[int, int] | None:
    if not text:
        return None
    try:
        major, minor = text.split(".")
        return int(major), int(minor)
    except ValueError:
        raise MappingError(f"{source}:{number}: bad hip_version {text!r}") from None


def _files() -> list[Path]:
    return sorted(DATA_DIR.glob("*.tsv"))


@functools.lru_cache(maxsize=None)
def all_rows() -> tuple[Mapping, ...]:
    rows: list[Mapping] = []
    for path in _files():
        rows.extend(parse_table(path.read_text(encoding="utf-8"), path.name))
    return tuple(rows)


@functools.lru_cache(maxsize=None)
def table() -> dict[str, Mapping]:
    """CUDA name -> row, for identifiers (every kind but header)."""
    result: dict[str, Mapping] = {}
    for row in all_rows():
        if row.kind == "header":
            continue
        if row.cuda_name in result:
            raise MappingError(f"duplicate mapping for {row.cuda_name}")
        result[row.cuda_name] = row
    return result


@functools.lru_cache(maxsize=None)
def header_table() -> dict[str, Mapping]:
    """CUDA header name (as written between <>) -> row."""
    return {row.cuda_name: row for row in all_rows() if row.kind == "header"}


def rows_by_family() -> dict[str, list[Mapping]]:
    """Family -> its rows, in FAMILIES order (families not in FAMILIES last, by name)."""
    result: dict[str, list[Mapping]] = {}
    for row in all_rows():
        result.setdefault(row.family, []).append(row)
    order = {name: i for i, name in enumerate(FAMILIES)}
    return dict(sorted(result.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))


def namespace_table() -> dict[str, Mapping]:
    """CUDA namespace -> row (kind namespace), e.g. cub -> hipcub."""
    return {name: row for name, row in table().items() if row.kind == "namespace"}


def lookup(cuda_name: str) -> Mapping | None:
    return table().get(cuda_name)


def lookup_header(name: str) -> Mapping | None:
    return header_table().get(name)


@functools.lru_cache(maxsize=None)
def data_hash() -> str:
    """sha256 over the names and contents of all mapping files (part of cache keys)."""
    digest = sha256()
    for path in _files():
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()
