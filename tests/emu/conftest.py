from __future__ import annotations

import pytest

from tests.conftest import have

needs_amd = pytest.mark.skipif(not (have("clang-15") and have("llvm-mc-16") and have("ld.lld-16")),
                               reason="needs clang-15, llvm-mc-16 and ld.lld-16")


@pytest.fixture(scope="session")
def hip_co():
    from cass_cc.emu import load
    from tests.emu.build import hip_code_object

    return load(hip_code_object())


@pytest.fixture(scope="session")
def mc_co():
    from cass_cc.emu import load
    from tests.emu.build import mc_code_object

    return load(mc_code_object())
