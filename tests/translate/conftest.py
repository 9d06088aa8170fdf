from __future__ import annotations

from pathlib import Path

import pytest

GOLDEN = Path(__file__).with_name("golden")


@pytest.fixture(scope="session")
def golden_dir() -> Path:
    return GOLDEN
