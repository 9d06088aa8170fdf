"""The lifted bodies compiled back for NVIDIA (cass_cc/sass/nvptx.py): every test kernel's
module becomes PTX that ptxas accepts, with one entry per kernel taking the parameter block
by pointer. (bench/sass_gpu_check.py runs them beside the original cubin on a GPU.)"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.sass import codegen
from cass_cc.sass.nvptx import NVPTX
from cass_cc.sass.targets import module
from cass_cc.toolchain import Toolchain
from tests.sass.kernels import CASES


@pytest.mark.parametrize("sm", [80, 90])
def test_every_kernel_becomes_ptx_that_ptxas_accepts(sass_build, sm: int, tmp_path: Path) -> None:
    smb = sass_build.sms[sm]
    tc = Toolchain(os.environ)
    report = codegen.lift_cubin(smb.cubin, tc.nvdisasm.path, NVPTX)
    assert not report.failed and len(report.lifted) == len(CASES)
    ll, bc, ptx = tmp_path / "m.ll", tmp_path / "m.bc", tmp_path / "m.ptx"
    ll.write_text(module(NVPTX, report.lifted, report.kernels))
    nv = ["-mtriple=nvptx64-nvidia-cuda", f"-mcpu=sm_{sm}"]
    subprocess.run([tc.tool("opt").path, "-O2", *nv, str(ll), "-o", str(bc)], check=True)
    subprocess.run([tc.tool("llc").path, "-O2", *nv, "-mattr=+ptx78", str(bc), "-o", str(ptx)], check=True)
    text = ptx.read_text()
    entries = dict(re.findall(r"\.visible \.entry (\S+)\(\s*\.param \.u64 (\S+)\s*\)", text))
    assert set(entries) == {k.name for k in smb.cubin.kernels}  # one pointer parameter each
    assert "llvm.nvvm" not in text  # every helper lowered to PTX, none left as an external call
    ptxas = shutil.which("ptxas", path=str(Path(tc.nvcc.path).parent)) or shutil.which("ptxas")
    if ptxas:
        subprocess.run([ptxas, f"-arch=sm_{sm}", str(ptx), "-o", str(tmp_path / "m.cubin")], check=True)
        assert (tmp_path / "m.cubin").read_bytes()[:4] == b"\x7fELF"
