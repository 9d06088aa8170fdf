"""One build of every test kernel per session (cached across workers and runs)."""
from __future__ import annotations

import pytest

from cass_cc.toolchain import ToolchainError


@pytest.fixture(scope="session")
def sass_build():
    from tests.sass.harness import build_all

    try:
        return build_all()
    except ToolchainError as e:
        pytest.skip(f"SASS lifter tests need nvcc, nvdisasm and LLVM 16: {e}")
