"""The lifted bodies compiled back for NVIDIA (cass_cc/sass/nvptx.py): every test kernel's
module becomes PTX that ptxas accepts, with one entry per kernel taking the parameter block
by pointer. (bench/sass_gpu_check.py runs them beside the original cubin on a GPU.)"""
from __future__ import annotations

import ctypes
import dataclasses
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.sass import codegen
from cass_cc.sass.nvptx import NVPTX
from cass_cc.sass.targets import CPU, _cpu_module, module
from cass_cc.toolchain import Toolchain
from tests.sass.harness import HERE, _hash, _run, cached, lifter_identity, run_case
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
    # 128-bit accesses are <4 x i32> vectors, no i128 split into u64 halves (ptxas misplaced
    # 32-bit words when it packed those back into register pairs: HeCBench relu on the H100)
    assert "membar.sys" in _entry(text, "fence_last_block")  # MEMBAR: LLVM 16's NVPTX selects no `fence`
    relu = _entry(text, "half8_relu_grad")
    assert relu.count("ld.global.v4.u32") == 2 and relu.count("st.global.v4.u32") == 1
    assert not re.search(r"(ld|st)\.global\.(u64|b64|b128)", relu) and "mov.b128" not in relu
    ptxas = shutil.which("ptxas", path=str(Path(tc.nvcc.path).parent)) or shutil.which("ptxas")
    if ptxas:
        subprocess.run([ptxas, f"-arch=sm_{sm}", str(ptx), "-o", str(tmp_path / "m.cubin")], check=True)
        assert (tmp_path / "m.cubin").read_bytes()[:4] == b"\x7fELF"
        sass = subprocess.run([tc.nvdisasm.path, "-c", str(tmp_path / "m.cubin")], check=True, capture_output=True, text=True).stdout
        relu_sass = sass[sass.index(".text._Z15half8_relu_grad"):]
        relu_sass = relu_sass[: relu_sass.find("//----", 1) if "//----" in relu_sass else None]
        assert relu_sass.count("LDG.E.128") == 2 and relu_sass.count("STG.E.128") == 1


def _entry(ptx: str, name: str) -> str:
    """The body of the PTX entry whose mangled name holds `name`."""
    start = ptx.index(".entry " + next(m for m in re.findall(r"\.entry (\S+)\(", ptx) if name in m))
    return ptx[start : ptx.index("\n}", start)]


def test_vector_accesses_give_the_references_on_the_cpu(sass_build) -> None:
    """The NVPTX form of 64- and 128-bit loads and stores (<2/4 x i32>, element i = register
    i), lifted for the CPU harness instead: every test kernel still equals its reference."""
    sm = 90
    smb = sass_build.sms[sm]
    tc = Toolchain(os.environ)
    target = dataclasses.replace(CPU, spaces=dataclasses.replace(CPU.spaces, vector_wide=True))
    report = codegen.lift_cubin(smb.cubin, tc.nvdisasm.path, target)
    assert not report.failed
    ir = _cpu_module(report.lifted)
    assert "load <4 x i32>" in ir and "store <4 x i32>" in ir and "load <2 x i32>" in ir

    def build(path: Path) -> None:
        ll, bc, obj = path.with_suffix(".ll"), path.with_suffix(".bc"), path.with_suffix(".o")
        ll.write_text(ir)
        _run([tc.tool("opt").path, "-O2", str(ll), "-o", str(bc)])
        _run([tc.tool("llc").path, "-O2", "-filetype=obj", "-relocation-model=pic", str(bc), "-o", str(obj)])
        _run([tc.host_cc().path, "-O2", "-shared", "-fPIC", "-o", str(path), str(obj), str(HERE / "simt.c"), "-lm"])

    lib = cached(f"sm_{sm}.vector.so", _hash(ir, lifter_identity(), (HERE / "simt.c").read_text()), build)
    vector_build = dataclasses.replace(sass_build, sms={sm: dataclasses.replace(smb, cpu=report, lib=ctypes.CDLL(str(lib)))})
    bad = {}
    for case in CASES:
        if case.xfail:  # known to differ on the CPU harness (test_kernels.py expects that)
            continue
        outcome = run_case(vector_build, sm, case)
        assert outcome.checked > 0
        if outcome.mismatches:
            bad[case.name] = outcome.mismatches[:3]
    assert not bad
