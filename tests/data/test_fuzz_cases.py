"""Kernels the random differential tester (cass_data/fuzz) found a path computing wrongly, reduced
and kept with their output on an NVIDIA GPU: each still runs through the path that once differed
(cass-cc's lifter or rules, on the gfx1100 emulator) and must now agree with the GPU, word for word
(NaNs and the approximate-math slots as compare.py says)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cass_data.fuzz.cases import load_case
from cass_data.fuzz.check import BUILDERS
from cass_data.fuzz.compare import differences
from cass_data.fuzz.truth import NVCC_FLAGS
from tests.emu.conftest import needs_amd

HERE = Path(__file__).resolve().parent
CASES = sorted(p.parent for p in (HERE / "fuzz_cases").glob("*/case.json"))


def test_every_case_has_its_truth() -> None:
    assert CASES, "no reduced cases"
    for folder in CASES:
        k, _, _ = load_case(folder)
        assert (folder / "truth.bin").stat().st_size == 4 * k.out_words, folder.name


@needs_amd
@pytest.mark.parametrize("folder", CASES, ids=[c.name for c in CASES])
def test_reduced_case_agrees_with_the_gpu(folder: Path, tmp_path: Path) -> None:
    import os

    from cass_cc.toolchain import Toolchain, ToolchainError

    try:
        nvcc = Toolchain(os.environ).nvcc.path
    except ToolchainError as e:
        pytest.skip(f"needs nvcc for the cubin: {e}")
    k, meta, inp = load_case(folder)
    shutil.copy(folder / "fz.cu", tmp_path / "fz.cu")
    subprocess.run([nvcc, *NVCC_FLAGS, "-arch=sm_90", "-o", str(tmp_path / "fz.cubin"),
                    str(tmp_path / "fz.cu")], check=True, capture_output=True)
    how, got = BUILDERS[meta["path"]](tmp_path, [k], tmp_path).run(k, inp)
    assert how == "ran", got
    n, notes = differences(k, got, (folder / "truth.bin").read_bytes())  # type: ignore[arg-type]
    assert n == 0, f"{meta['origin']} through {meta['path']}: {notes}"
