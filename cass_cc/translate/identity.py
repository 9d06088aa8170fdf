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
    for path in sorted([*folder.glob("*.py"), *folder.glob("*.h")]):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def rules_identity() -> str:
    """Changes whenever the rule translator's output could: the tables or its code."""
    return f"rules-{RULES_VERSION}-{mappings.data_hash()[:12]}-{_code_hash()[:12]}"
