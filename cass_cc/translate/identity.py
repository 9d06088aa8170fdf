"""What names a translator's output, computed without importing the translator (the
driver asks on every compile, and a cache hit must stay cheap)."""
from __future__ import annotations

import functools
from ..util import sha256
from pathlib import Path

from . import mappings

RULES_VERSION = "1"


@functools.lru_cache(maxsize=None)
def _code_hash() -> str:
    """Hash of this package's Python sources and the C++ it prepends, so an upgraded
    translator never serves a translation the old one cached."""
    h = sha256()
    folder = Path(__file__).parent
    # its data too: served values (math_constants.tsv) and the inventory of CUDA's names and
    # headers, which the served guard macros and the diagnostics read, and HIP's spellings of
    # them (refusable.py)
    inventory = folder.parent / "inventory" / "data"
    paths = sorted([*folder.glob("*.py"), *folder.glob("*.h"), *folder.glob("*.tsv")])
    for path in paths + [inventory / "headers.tsv", inventory / "names.tsv", inventory / "hip_names.tsv"]:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def rules_identity() -> str:
    """Changes whenever the rule translator's output could: the tables or its code."""
    return f"rules-{RULES_VERSION}-{mappings.data_hash()[:12]}-{_code_hash()[:12]}"
