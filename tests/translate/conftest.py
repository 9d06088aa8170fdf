from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

GOLDEN = Path(__file__).with_name("golden")


@pytest.fixture(scope="session")
def golden_dir() -> Path:
    return GOLDEN


def cass_cc_build(source: str, path: Path, *flags: str) -> None:
    """`cass-cc FLAGS path.cu -o path` on `source`; no error and no warning."""
    src = path.with_suffix(".cu")
    src.write_text(source)
    proc = subprocess.run([sys.executable, str(ROOT / "bin" / "cass-cc"), *flags, str(src), "-o", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "warning" not in proc.stderr, proc.stderr[-2000:]


def kernel_named(co, stem: str) -> str:  # type: ignore[no-untyped-def]
    """The one kernel of a code object whose mangled name is `stem`'s."""
    names = [k for k in co.kernels if k.startswith(f"_Z{len(stem)}{stem}")]
    assert len(names) == 1, co.kernels
    return names[0]


def run_translated(source: str, tmp_path: Path, kernel: str, grid, block, args: list, *flags: str) -> list:  # type: ignore[no-untyped-def]
    """`source` built by cass-cc for gfx1100 (`-cubin -arch=sm_90` and `flags`), `kernel` launched on
    the emulator: the argument arrays after the run."""
    from cass_cc.emu import launch, load

    co_path = tmp_path / f"{kernel}.co"
    cass_cc_build(source, co_path, "-cubin", "-arch=sm_90", *flags)
    return launch(load(co_path), kernel, grid, block, args)
