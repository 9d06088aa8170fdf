"""Damaged cubins through `cass-cc --emit-rdna3`, and the bound on every tool cass-cc runs
(issue 22): the CI slice of `cass-data hostile cubins`, then the defects it found: llc-16
looping forever on IR lifted from a damaged cubin, and tools outliving a killed cass-cc."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cass_cc.toolchain import Toolchain, ToolchainError
from cass_cc.toolchain.tool import COMPILE, QUICK, ToolTimeout, deadline, run_tool
from cass_data.hostile import cubins as fam
from tests.conftest import CASS_CC, SHARED_CACHE

DATA = Path(__file__).resolve().parent.parent / "data" / "hostile"


def _tools() -> Toolchain | None:
    tc = Toolchain(os.environ)
    try:
        for name in ("nvdisasm", "opt", "llc", "llvm-mc"):
            tc.tool(name)
    except ToolchainError:
        return None
    return tc


TC = _tools()
needs_lifter_tools = pytest.mark.skipif(TC is None, reason="needs nvdisasm and LLVM 16's opt, llc, llvm-mc")


def emit(cubin: Path, out: Path, env: dict[str, str], timeout: float = 120) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    proc = subprocess.run([sys.executable, str(CASS_CC), "--emit-rdna3", str(cubin), "-o", str(out)],
                          capture_output=True, text=True, env=env, timeout=timeout)
    return proc, time.monotonic() - start


def base_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASS_MODEL")}
    env["CASS_CACHE_DIR"] = str(SHARED_CACHE)
    return {**env, **extra}


# ---- the CI slice ----------------------------------------------------------------------


@needs_lifter_tools
@pytest.mark.skipif(fam.find_nvcc() is None, reason="needs the real nvcc to build the cubins")
def test_ci_slice_no_traceback_no_hang() -> None:
    tally, _ = fam.run(24, seed=22, jobs=2, tool_timeout=10)
    assert sum(tally.counts.values()) == 24
    assert tally.failures == 0, tally.to_json()


def test_mutations_are_a_function_of_seed_and_index(tmp_path: Path) -> None:
    base = tmp_path / "k.cubin"
    base.write_bytes((DATA / "llc-loop.sm_89.cubin").read_bytes())
    first = [fam.case([base], 5, i) for i in range(20)]
    assert first == [fam.case([base], 5, i) for i in range(20)]
    assert len({data for _, data, _ in first}) > 15  # and they differ from one another



def test_a_later_mutation_survives_a_section_table_offset_past_ssize_t(tmp_path: Path) -> None:
    # case 2:1309 of the 10^4 run: an ELF-header step set e_shoff near 2**64, and the next step's
    # section read raised OverflowError out of the harness (not out of cass-cc)
    import random
    import struct
    data = bytearray((DATA / "llc-loop.sm_89.cubin").read_bytes())
    struct.pack_into("<Q", data, 40, (1 << 64) - 16)
    for i in range(200):
        out, what = fam.mutate(bytes(data), random.Random(i))
        assert isinstance(out, bytes) and what

# ---- defect: llc-16 never returned --------------------------------------------------------


def lifter_plugin_built() -> None:
    """The LLVM fixes plugin for the lifter's opt, built in the shared cache with no deadline: a test
    that runs --emit-rdna3 under a short CASS_TOOL_TIMEOUT is about llc, not about the plugin's first
    build (a fresh cache, or an edited llvmfix.cpp, builds it then)."""
    from cass_cc.toolchain.llvmfix import for_llvm_tool

    assert TC is not None
    for_llvm_tool(TC.tool("opt").path, SHARED_CACHE)


@needs_lifter_tools
def test_looping_llc_is_stopped_with_one_line_naming_the_cubin(tmp_path: Path) -> None:
    # fam.case(seed 2, index 28) on nvcc 13's sm_89 cubin: llc-16 loops on the lifted IR
    lifter_plugin_built()
    cubin = tmp_path / "llc-loop.cubin"
    cubin.write_bytes((DATA / "llc-loop.sm_89.cubin").read_bytes())
    out = tmp_path / "out.s"
    proc, seconds = emit(cubin, out, base_env(CASS_TOOL_TIMEOUT="8"))
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert re.fullmatch(rf"cass-cc: {re.escape(str(cubin))}: llc(-\d+)? did not finish in 8 s and was stopped \(.*CASS_TOOL_TIMEOUT.*\)", last), last
    assert not out.exists()
    assert seconds < 60


# ---- defect: no bound, and tools outliving cass-cc -----------------------------------------


@pytest.fixture
def hanging_nvdisasm(tmp_path: Path) -> tuple[Path, Path]:
    """An nvdisasm that answers --version as the real one and otherwise starts a grandchild and
    then sleeps, writing both process ids to a file."""
    if TC is None:
        pytest.skip("needs the real nvdisasm's --version")
    version = subprocess.run([TC.nvdisasm.path, "--version"], capture_output=True, text=True).stdout
    pids = tmp_path / "pids"
    script = tmp_path / "nvdisasm"
    script.write_text("#!/bin/sh\n"
                      f"if [ \"$1\" = --version ]; then cat <<'EOF'\n{version}EOF\nexit 0; fi\n"
                      # the file from the environment: a path with "cass_cc" in it would make
                      # tool discovery take the script for cass-cc's own shim
                      'sleep 300 & echo $! >> "$FAKE_TOOL_PIDS"\necho $$ >> "$FAKE_TOOL_PIDS"\nexec sleep 300\n')
    script.chmod(0o755)
    return script, pids


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _wait_for(pids: Path, lines: int, seconds: float = 30) -> list[int]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pids.exists() and len(pids.read_text().split()) >= lines:
            return [int(p) for p in pids.read_text().split()]
        time.sleep(0.1)
    raise AssertionError("the fake nvdisasm never ran")


@needs_lifter_tools
def test_hung_tool_is_killed_with_what_it_started(tmp_path: Path, hanging_nvdisasm: tuple[Path, Path]) -> None:
    script, pids = hanging_nvdisasm
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes((DATA / "llc-loop.sm_89.cubin").read_bytes())
    env = base_env(CASS_NVDISASM=str(script), CASS_TOOL_TIMEOUT="2", CASS_CACHE_DIR=str(tmp_path / "cache"),
                   FAKE_TOOL_PIDS=str(pids))
    proc, seconds = emit(cubin, tmp_path / "out.s", env)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1].startswith(f"cass-cc: {cubin}: nvdisasm did not finish in 2 s")
    assert seconds < 30
    time.sleep(0.5)
    assert not any(_alive(p) for p in _wait_for(pids, 2)), "the tool or its child outlived the timeout"


@needs_lifter_tools
def test_tool_dies_when_cass_cc_is_killed(tmp_path: Path, hanging_nvdisasm: tuple[Path, Path]) -> None:
    script, pids = hanging_nvdisasm
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes((DATA / "llc-loop.sm_89.cubin").read_bytes())
    env = base_env(CASS_NVDISASM=str(script), CASS_CACHE_DIR=str(tmp_path / "cache"), FAKE_TOOL_PIDS=str(pids))
    cass = subprocess.Popen([sys.executable, str(CASS_CC), "--emit-rdna3", str(cubin), "-o", str(tmp_path / "o.s")],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _grandchild, tool = _wait_for(pids, 2)
        os.kill(cass.pid, signal.SIGKILL)  # no handler of cass-cc's can run
        cass.wait()
        end = time.monotonic() + 5
        while _alive(tool) and time.monotonic() < end:
            time.sleep(0.1)
        assert not _alive(tool), "nvdisasm outlived the cass-cc that ran it"
    finally:
        cass.kill()
        for p in [int(x) for x in pids.read_text().split()] if pids.exists() else []:
            if _alive(p):
                os.kill(p, signal.SIGKILL)


# ---- run_tool itself ------------------------------------------------------------------------


def test_deadline_scales_with_input_and_the_setting_wins(tmp_path: Path) -> None:
    big = tmp_path / "big.ll"
    big.write_bytes(b"x" * 2**21)
    out = tmp_path / "out.s"
    out.write_bytes(b"x" * 2**22)  # what -o names is not read
    assert deadline(["llc", str(big), "-o", str(out)], QUICK, 0.0) == QUICK[0] + 2 * QUICK[1]
    assert deadline(["clang", "-c", "k.cu"], COMPILE, 0.0) == COMPILE[0]
    assert deadline(["llc", str(big)], QUICK, 7.0) == 7.0


def test_run_tool_timeout_kills_the_group(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    start = time.monotonic()
    with pytest.raises(ToolTimeout, match=r"^sh did not finish in 1 s"):
        run_tool(["sh", "-c", f"sleep 300 & echo $! > {pids}; sleep 300"], timeout=1)
    assert time.monotonic() - start < 10
    time.sleep(0.3)
    assert not _alive(int(pids.read_text()))


def test_run_tool_gives_tools_a_deep_stack() -> None:
    # clang-15 overflows 8 MiB on a 50,000-deep brace nest that nvcc builds (test_sources.py)
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    got = run_tool(["sh", "-c", "ulimit -s"], text=True).stdout.strip()
    if soft == resource.RLIM_INFINITY:
        assert got == "unlimited"
    else:
        want = 1 << 30 if hard == resource.RLIM_INFINITY else min(hard, 1 << 30)
        assert int(got) * 1024 >= want


@needs_lifter_tools
def test_missing_llvm_dev_files_is_one_line_before_any_work(tmp_path: Path) -> None:
    # found by the 10^4 run on a machine with opt/llc-16 but no llvm-16-dev: the LLVM fixes
    # plugin's ToolchainError came out of gfx1100_asm as a traceback, after the lifting
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("opt", "llc", "llvm-mc", "nvdisasm", "c++filt"):
        (tools / name).symlink_to(TC.tool(name).path if name != "c++filt" else "/usr/bin/c++filt")
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes((DATA / "llc-loop.sm_89.cubin").read_bytes())
    env = base_env(PATH=str(tools), CASS_CACHE_DIR=str(tmp_path / "cache"), CASS_OPT=str(tools / "opt"),
                   CASS_LLC=str(tools / "llc"), CASS_LLVM_MC=str(tools / "llvm-mc"), CASS_NVDISASM=str(tools / "nvdisasm"))
    env.pop("CASS_CC_NO_LLVM_FIXES", None)
    proc, _ = emit(cubin, tmp_path / "out.s", env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "cass-cc: cass-cc needs LLVM 16's development files for its LLVM fixes plugin (install them with: "
        "apt-get install llvm-16-dev), or CASS_CC_NO_LLVM_FIXES=1 to build without it (some unsigned divisions "
        "in device code are then wrong)"]
    assert not (tmp_path / "out.s").exists()
