"""Golden translations: golden/<name>.cu translated for HIP 5.2, wave32 (wave64 for
names ending in _wave64) must equal
golden/<name>.hip, and its diagnostics golden/<name>.diag.
Regenerate after an intended change with CASS_UPDATE_GOLDEN=1 and review the diff."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from cass_cc.translate import RulesTranslator, Target, Translation

GOLDEN = Path(__file__).with_name("golden")
CASES = sorted(p.stem for p in GOLDEN.glob("*.cu"))


def diag_text(result: Translation, filename: str) -> str:
    lines = [d.format(filename) for d in result.diagnostics]
    lines.append("unsupported: " + " ".join(result.unsupported))
    return "\n".join(lines) + "\n"


def test_enough_cases() -> None:
    assert len(CASES) >= 8


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str) -> None:
    source = (GOLDEN / f"{name}.cu").read_text()
    wave = 64 if name.endswith("_wave64") else 32  # <name>_wave64.cu: translated for a wave64 target
    result = RulesTranslator().translate(source, f"{name}.cu", Target(hip_version=(5, 2), wave_size=wave))
    diags = diag_text(result, f"{name}.cu")
    hip_path, diag_path = GOLDEN / f"{name}.hip", GOLDEN / f"{name}.diag"
    if os.environ.get("CASS_UPDATE_GOLDEN"):
        hip_path.write_text(result.text)
        diag_path.write_text(diags)
    assert result.text == hip_path.read_text()
    assert diags == diag_path.read_text()
