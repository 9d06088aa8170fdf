"""`python -m cass_train.suite [--write-manifest]`: list the built-in suite or regenerate its manifest."""
from __future__ import annotations

import sys

from . import MANIFEST, SuiteError, load, write_manifest


def main(argv: list[str]) -> int:
    try:
        if argv[:1] == ["--write-manifest"]:
            print(f"wrote {MANIFEST} (version {write_manifest()})", file=sys.stderr)
            return 0
        suite = load(argv[0] if argv else None)
    except SuiteError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for p in suite.programs:
        print(f"{p.domain:20} {p.name:28} {', '.join(p.features)}")
    print(f"{len(suite.programs)} programs in {len(suite.domains)} domains, version {suite.version}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
