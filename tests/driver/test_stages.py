"""The stage table: a build starts at the input's suffix."""
from __future__ import annotations

from pathlib import Path

import pytest

from cass_cc.driver import stages
from cass_cc.nvcc.invocation import Lang


def test_plans_start_at_the_inputs_suffix() -> None:
    assert stages.plan(Lang.CU) == (stages.TRANSLATE, stages.HIP)
    assert stages.plan(Lang.HIP) == (stages.HIP,)
    assert stages.plan(Lang.CXX) == (stages.HOST,)
    assert stages.plan(Lang.CXX, uses_cuda_api=True) == (stages.TRANSLATE, stages.HOST)
    assert stages.plan(Lang.ASM, uses_cuda_api=True) == (stages.HOST,)
    with pytest.raises(ValueError):
        stages.plan(Lang.OBJ)


def test_kept_device_side_is_named_after_the_users_file(tmp_path: Path) -> None:
    assert stages.kept_path(tmp_path, "src/k.cu", "gfx1100", ".s") == tmp_path / "k.cu.gfx1100.s"
    assert [suffix for suffix, _ in stages.KEPT_BESIDE_HIP] == [".s", ".co"]
