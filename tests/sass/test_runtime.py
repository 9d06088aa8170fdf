"""The `@__cass_*` runtime functions' IR (cass_cc/sass/runtime_ir/*.ll): every definition is
read, every GPU target defines every function the lifted bodies may call, and the files ship
with the package."""
from __future__ import annotations

import configparser
import fnmatch
import re
from pathlib import Path

import pytest

from cass_cc.sass import nvptx, targets
from cass_cc.sass.runtime import DIRECTED, RUNTIME_IR, runtime_definitions

ROOT = Path(__file__).resolve().parents[2]
CALLED = {*targets.RUNTIME_SIGNATURES, *(f"__cass_dfma_{mode}" for mode in DIRECTED)}


@pytest.mark.parametrize("path", sorted(RUNTIME_IR.glob("*.ll")), ids=lambda p: p.name)
def test_every_definition_is_read_and_nothing_else_is_dropped(path: Path) -> None:
    text = path.read_text()
    defs = runtime_definitions(path.name)
    assert len(defs) == len(re.findall(r"^define ", text, re.M)) > 0  # each name once
    rest = text
    for d in defs.values():
        rest = rest.replace(d, "")
    assert all(not line.strip() or line.startswith(";") for line in rest.splitlines())  # only comments between


@pytest.mark.parametrize("prelude", [targets._amd_prelude, nvptx._prelude], ids=["gfx1100", "nvptx"])
def test_every_gpu_target_defines_every_runtime_function(prelude) -> None:  # type: ignore[no-untyped-def]
    defined = [re.match(r"define [^@]*@([\w.]+)\(", d).group(1) for d in prelude(CALLED)]  # type: ignore[union-attr]
    assert defined == sorted(CALLED)


def test_runtime_ir_is_package_data() -> None:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    patterns = [p.strip() for p in cfg["options.package_data"]["cass_cc"].split(",")]
    for path in RUNTIME_IR.glob("*.ll"):
        rel = path.relative_to(ROOT / "cass_cc").as_posix()
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), rel
