"""`cass-cc emu-run` through bin/cass-cc: buf:/f32:/i32:/u64: arguments, outputs written to --out."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from tests.emu.conftest import needs_amd

pytestmark = needs_amd
CASS_CC = Path(__file__).resolve().parents[2] / "bin" / "cass-cc"


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CASS_CC), "emu-run", *args], cwd=cwd, capture_output=True, text=True)


def test_emu_run_writes_buffers(tmp_path, hip_co):
    x = np.linspace(-1, 1, 300).astype(np.float32)
    y = np.arange(300, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    p = run([hip_co.path, "saxpy", "--grid", "3", "--block", "128", "--arg", "f32:2.5", "--arg", "buf:x.npy",
             "--arg", "buf:y.npy", "--arg", "i32:300", "--out", "out"], tmp_path)
    assert p.returncode == 0, p.stderr
    got = np.load(tmp_path / "out" / "y.npy")
    assert np.allclose(got, np.float32(2.5) * x + y, rtol=1e-6)
    assert np.array_equal(np.load(tmp_path / "out" / "x.npy"), x)


def test_emu_run_u64_and_2d(tmp_path, hip_co):
    np.save(tmp_path / "a.npy", np.arange(10, dtype=np.int64))
    np.save(tmp_path / "b.npy", np.full(10, 3, np.int64))
    np.save(tmp_path / "o.npy", np.zeros(40, np.int64))
    p = run([hip_co.path, "int64_ops", "--grid", "1", "--block", "32", "--arg", "buf:a.npy", "--arg", "buf:b.npy",
             "--arg", "buf:o.npy", "--arg", "i32:10", "--out", str(tmp_path / "res")], tmp_path)
    assert p.returncode == 0, p.stderr
    o = np.load(tmp_path / "res" / "o.npy").reshape(10, 4)
    assert np.array_equal(o[:, 0], np.arange(10) * 3)
    np.save(tmp_path / "img.npy", np.zeros(6 * 5, np.float32))
    p = run([hip_co.path, "launch2d", "--grid", "1,1", "--block", "8,8", "--arg", "buf:img.npy", "--arg", "i32:6",
             "--arg", "i32:5", "--out", "res2"], tmp_path)
    assert p.returncode == 0, p.stderr
    img = np.load(tmp_path / "res2" / "img.npy").reshape(5, 6)
    assert img[4, 5] == 5 * 1000 + 4


def test_emu_run_u64_argument_and_uncovered(tmp_path, mc_co):
    np.save(tmp_path / "x.npy", np.arange(32, dtype=np.int32))
    # a u64 argument is laid out as 8 bytes: here it is a pointer-sized slot holding 0
    p = run([mc_co.path, "uncovered", "--grid", "1", "--block", "32", "--arg", "u64:7"], tmp_path)
    assert p.returncode == 1 and "V_CVT_PK_NORM_I16_F32" in p.stderr and p.stderr.count("\n") == 1


def test_emu_run_reports_fault_and_bad_args(tmp_path, hip_co):
    np.save(tmp_path / "a.npy", np.ones(64, np.float32))
    np.save(tmp_path / "b.npy", np.ones(64, np.float32))
    np.save(tmp_path / "c.npy", np.zeros(10, np.float32))
    p = run([hip_co.path, "vadd", "--grid", "1", "--block", "64", "--arg", "buf:a.npy", "--arg", "buf:b.npy",
             "--arg", "buf:c.npy", "--arg", "i32:64", "--out", "o"], tmp_path)
    assert p.returncode == 1 and "out-of-bounds" in p.stderr
    assert not (tmp_path / "o").exists()
    p = run([hip_co.path, "vadd", "--grid", "1", "--block", "64", "--arg", "i32:x"], tmp_path)
    assert p.returncode == 2 and "is not a i32" in p.stderr
    p = run([hip_co.path, "vadd", "--grid", "1", "--block", "64", "--arg", "buf:missing.npy"], tmp_path)
    assert p.returncode == 2 and "missing.npy" in p.stderr
