"""Warp-synchronous shared memory: a warp issues its LDS/STS in program order and lanes read
each other's earlier stores (a scan through a `volatile` array, as in HeCBench radixsort's
scanwarp). The lifted IR, optimised, must keep every shared access of the SASS in the same
order; otherwise LLVM forwards a lane's own store and hoists the neighbours' loads above it,
and the scan is wrong on lock-step hardware (the CPU harness runs threads one at a time,
so it cannot show this: the check is on the IR and the gfx1100 code)."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from cass_cc.sass import codegen, cubin
from cass_cc.sass.targets import GFX1100, module
from cass_cc.toolchain import Toolchain, ToolchainError
from tests.sass.harness import _hash, _run, cached

SCAN = r"""
__global__ void warp_scan(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[2 * 128];
  volatile unsigned* v = s;
  int lane = threadIdx.x & 31, idx = 2 * threadIdx.x - lane + 32;
  unsigned x = in[blockIdx.x * blockDim.x + threadIdx.x];
  v[idx - 32] = 0;
  v[idx] = x;
  v[idx] += v[idx - 1]; v[idx] += v[idx - 2]; v[idx] += v[idx - 4]; v[idx] += v[idx - 8]; v[idx] += v[idx - 16];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v[idx] - x;
}
"""


@pytest.fixture(scope="module")
def tools() -> Toolchain:
    try:
        tc = Toolchain(os.environ)
        tc.nvcc, tc.nvdisasm, tc.tool("opt"), tc.tool("llc")
    except ToolchainError as e:
        pytest.skip(f"needs nvcc, nvdisasm and LLVM 16: {e}")
    return tc


@pytest.mark.parametrize("sm", [80, 90])
def test_warp_synchronous_shared_accesses_keep_their_order(tools: Toolchain, sm: int, tmp_path: Path) -> None:
    def build(path: Path) -> None:
        cu = path.with_suffix(".cu")
        cu.write_text(SCAN)
        _run([tools.nvcc.path, "-cubin", f"-arch=sm_{sm}", "-O3", "-o", str(path), str(cu)])

    cb = cubin.read(cached(f"warp_scan_sm_{sm}.cubin", _hash(SCAN, tools.nvcc.version_text, str(sm)), build))[0]
    report = codegen.lift_cubin(cb, tools.nvdisasm.path, GFX1100)
    assert not report.failed
    sass = [i.opcode for i in report.functions["_Z9warp_scanPKjPj"].insns if i.opcode in ("LDS", "STS")]
    assert sass.count("STS") == 7 and sass.count("LDS") == 11  # nvcc kept every volatile access

    ll = tmp_path / "m.ll"
    ll.write_text(module(GFX1100, report.lifted, report.kernels))
    optimised = subprocess.run([tools.tool("opt").path, "-O2", "-S", str(ll), "-o", "-"], check=True,
                               capture_output=True, text=True).stdout
    lifted = ["LDS" if m.startswith("load") else "STS"
              for m in re.findall(r"\b(load volatile i32, ptr addrspace\(3\)|store volatile i32 [^,]+, ptr addrspace\(3\))", optimised)]
    assert lifted == sass

    asm = codegen.gfx1100_asm(module(GFX1100, report.lifted, report.kernels), tools.tool("opt").path, tools.tool("llc").path)
    ds = ["LDS" if "load" in m else "STS" for m in re.findall(r"\bds_(load|store)_b32\b", asm)]
    assert ds == sass
