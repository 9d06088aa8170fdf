"""Each recorded status still holds: the committed uses recompiled through cass-cc for gfx1100.

Regenerate after a translation change with `python -m cass_cc.inventory.status` (cass_cc/inventory/README.md).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from cass_cc.inventory import data, status

from ..conftest import SHARED_CACHE, needs_clang

pytestmark = [pytest.mark.e2e, needs_clang]


def test_recorded_statuses_hold(tmp_path: Path) -> None:
    names = data.names()
    recorded = {s.key: s for s in data.statuses()}
    result = status.evaluate(names, tmp_path, status.cass_env(str(SHARED_CACHE)), recorded, jobs=2)
    moved = [f"{s.key}: {recorded[s.key].status} -> {s.status} ({s.reason})"
             for s in result if s.key in recorded and recorded[s.key].status != s.status]
    assert not moved, (f"{len(moved)} statuses moved; if the change is meant, regenerate with "
                       "`python -m cass_cc.inventory.status`:\n" + "\n".join(moved[:40]))


def test_classify_attributes_errors_by_line() -> None:
    out = status.Outcome()
    status.parse_diagnostics(
        "x.cu:7:5: warning: 'cudaFoo' has no known HIP counterpart\n"
        "x.cu:7:5: error: use of undeclared identifier 'cudaFoo'\n"
        "In file included from x.cu:1:\n/usr/include/hip/h.h:3:1: error: bad\n"
        "/usr/include/hip/h.h:9:1: error: in template\nx.cu:9:12: note: in instantiation requested here\n",
        "x.cu", out)
    assert out.errors == {7: ["use of undeclared identifier 'cudaFoo'"], 1: ["bad"], 9: ["in template"]}
    assert out.warnings == {7: ["'cudaFoo' has no known HIP counterpart"]}
