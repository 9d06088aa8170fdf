"""toolchain/found.py: the one record of the toolchain that cass_train, cass_data and verify hand to
their workers."""
from __future__ import annotations

import os
import pickle
from pathlib import Path

from cass_cc.toolchain.found import TOOLS, Found
from tests.conftest import needs_clang


@needs_clang
def test_found_here_is_plain_data_and_owns_the_hip_command() -> None:
    found = Found.find(os.environ)
    assert found.clang and Path(found.device_libs, "ockl.bc").is_file() and found.hip_version >= (5, 2)
    assert pickle.loads(pickle.dumps(found)) == found  # workers get it from the parent
    assert found.version("hip").startswith("HIP ") and found.version("clang").startswith("clang ")
    command = found.hip_clang().command("k.hip", "k.o", flags=["-O2"])
    assert command[0] == found.clang and "--offload-arch=gfx1100" in command
    assert f"--rocm-device-lib-path={found.device_libs}" in command
    assert {t for t in TOOLS if found.has(t)} >= {"clang", "llvm-mc", "ld.lld"}


def test_a_tool_not_here_is_empty_with_the_reason(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), "CASS_NVCC": str(tmp_path / "nvcc"),
           "CASS_CLANG": str(tmp_path / "clang-15")}
    found = Found.find(env, ("nvcc", "clang"))
    assert found.nvcc == "" and found.why_no_nvcc
    assert found.clang == "" and found.rocm == "" and found.device_libs == "" and found.why_no_hip
    assert not found.has("nvcc") and found.path("clang") == ""
    assert Found.find(env, ("nvcc",), amd=False).why_no_hip == "not asked for"
