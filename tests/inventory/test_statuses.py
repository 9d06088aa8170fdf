"""Each recorded status still holds: the committed uses recompiled through cass-cc for gfx1100,
one test per group (headers are re-tested in each: the chunks include those that resolve).

Regenerate after a translation change with `python -m cass_cc.translate.status` (cass_cc/inventory/README.md).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from cass_cc.inventory import data
from cass_cc.translate import status

from ..conftest import SHARED_CACHE, needs_clang

pytestmark = [pytest.mark.e2e, needs_clang]


@pytest.mark.parametrize("group", [g for g in data.GROUPS if g != "other"] + ["other"])
def test_recorded_statuses_hold(group: str, tmp_path: Path) -> None:
    names = [n for n in data.names() if n.group == group or n.kind == "header"]
    recorded = {s.key: s for s in data.statuses()}
    result = status.evaluate(names, tmp_path, status.cass_env(str(SHARED_CACHE)), recorded, jobs=2)
    moved = [f"{s.key}: {recorded[s.key].status} -> {s.status} ({s.reason})"
             for s in result if s.key in recorded and recorded[s.key].status != s.status]
    assert not moved, (f"{len(moved)} statuses moved; if the change is meant, regenerate with "
                       "`python -m cass_cc.translate.status`:\n" + "\n".join(moved[:40]))
