"""__dp4a and __dp2a_lo/_hi, which HIP lacks and cass-cc serves (translate/served.py): compiled for
gfx1100 and run on the emulator, against the H100's own answers for the same inputs
(data/dot_products_h100.npy: a, b, c, then the eight overloads' results, from dot_products.cu built
with -DDOT_PRODUCTS_MAIN by nvcc 13 for sm_90; extremes where the sum wraps are rows 0 and 1)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cass_cc.toolchain.bundle import code_objects, kernel_names
from tests.conftest import needs_clang, run_cass

DATA = Path(__file__).with_name("data")


@needs_clang
def test_dot_products_agree_with_the_h100(tmp_path: Path, cass_env: dict[str, str]) -> None:
    pytest.importorskip("tinygrad")
    from cass_cc.emu import launch, load

    run_cass(["-c", str(DATA / "dot_products.cu"), "-o", "dp.o"], tmp_path, cass_env, check=True)
    entry = next(e for e in code_objects(str(tmp_path / "dp.o")) if e.target == "gfx1100")
    (tmp_path / "dp.co").write_bytes(entry.data)
    truth = np.load(DATA / "dot_products_h100.npy")
    a, b, c = (np.ascontiguousarray(truth[:, k]) for k in range(3))
    n = len(a)
    out = launch(load(str(tmp_path / "dp.co")), kernel_names(entry.data)[0], grid=n // 256, block=256,
                 args=[a, b, c, np.zeros(12 * n, np.int32), np.int32(n)])[3].reshape(12, n).T
    np.testing.assert_array_equal(out[:, :8], truth[:, 3:])
    # __dp2a_lo/_hi's vector overloads (short2/char4, ushort2/uchar4) on the same bits: CUDA's answers
    # for the scalar overloads (the H100 run recorded those)
    np.testing.assert_array_equal(out[:, 8:], truth[:, 7:])
