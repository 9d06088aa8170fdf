"""The cmdline hostile family: a regression test per defect it found, and a CI slice of the
generated command lines against the real nvcc 13 (skipped where there is none)."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from cass_cc.nvcc import UsageError, parse
from cass_cc.nvcc import targets as tg
from cass_data.hostile import cmdline
from tests.conftest import needs_clang, run_cass

NVCC = cmdline.real_nvcc()
needs_nvcc = pytest.mark.skipif(NVCC is None, reason="no real NVIDIA nvcc (cass-cc's own shim does not count)")


def files(d: dict[str, str]):  # type: ignore[no-untyped-def]
    def read(path: str) -> str:
        if path not in d:
            raise OSError(path)
        return d[path]

    return read


def refusal(argv: list[str], env: dict[str, str] | None = None, optf: dict[str, str] | None = None) -> str:
    with pytest.raises(UsageError) as e:
        parse(argv, env or {}, files(optf or {}))
    return str(e.value)


# ---- quotes and backslashes in NVCC_*_FLAGS and options files ----------------------------------

@pytest.mark.parametrize("var", ["NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"])
def test_env_stray_quote(var: str) -> None:
    assert refusal(["-c", "k.cu"], {var: '-c "k.cu'}) == "Stray '\"' character"


def test_env_trailing_backslash_is_a_file_nvcc_cannot_place() -> None:
    assert refusal(["-c", "k.cu"], {"NVCC_APPEND_FLAGS": "-c \\"}) == "Don't know what to do with '\\'"


@pytest.mark.parametrize("text,message", [('-c "k.cu', "Stray '\"' character"), ("-c k.cu \\", "Stray '' character")])
def test_options_file_stray(text: str, message: str) -> None:
    assert refusal(["-optf", "f"], optf={"f": text}) == message


def test_options_file_quoting_as_nvcc() -> None:
    inv = parse(["-optf", "f"], {}, files({"f": "-c \"-DA=x y\" a\\ b.cu 'q.cu\n"}))
    assert inv.defines == ["A=x y"] and [i.path for i in inv.inputs] == ["a b.cu", "'q.cu"]


def test_options_file_ending_in_o_takes_nothing_from_the_command_line() -> None:
    assert refusal(["--options-file", "f", "-c"], optf={"f": "-c k.cu -o"}) == "argument expected after '-o'"
    assert refusal(["-c", "k.cu"], {"NVCC_APPEND_FLAGS": "-o"}) == "argument expected after '-o'"
    assert parse(["-optf", "f"], {}, files({"f": "-I -o k.cu"})).include_dirs == ["-o"]


def test_no_traceback_from_the_driver(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "k.cu").write_text(cmdline.SOURCE)
    (tmp_path / "f").write_text('-c "k.cu')
    proc = run_cass(["--dryrun", "-optf", "f"], tmp_path, {**cass_env, "NVCC_PREPEND_FLAGS": "-c \\"})
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "nvcc fatal   : Stray '\"' character"


# ---- architectures: CUDA 12.4's list --------------------------------------------------------------

@pytest.mark.parametrize("arch", ["sm_99", "sm_800", "compute_80a", "sm_30", "sm_100", "lto_35"])
def test_architecture_outside_12_4(arch: str) -> None:
    assert refusal([f"-arch={arch}", "-c", "k.cu"]) == f"Unsupported gpu architecture '{arch}'"


@pytest.mark.parametrize("arch", ["sm_50", "sm_72", "sm_90a", "compute_87", "lto_80"])
def test_architecture_of_12_4(arch: str) -> None:
    assert parse([f"-arch={arch}", "-c", "k.cu"]).targets[0] == arch


def test_release_table_difference() -> None:
    """nvcc 13 dropped everything below 75 and added the 100s; the harness reads this difference."""
    old, new = tg.ARCHS_BY_CUDA["12.4"], tg.ARCHS_BY_CUDA["13.0"]
    assert {n for n in old - new} == {"50", "52", "53", "60", "61", "62", "70", "72"}
    assert all(int(n.rstrip("af")) >= 75 for n in new)


@needs_nvcc
def test_13_0_row_is_what_nvcc_lists() -> None:
    out = subprocess.run([NVCC, "--list-gpu-code"], capture_output=True, text=True, check=True).stdout
    listed = {line.strip().removeprefix("sm_") for line in out.split() if line.strip()}
    assert listed == {n for n in tg.ARCHS_BY_CUDA["13.0"] if n.isdigit()}


# ---- numbers --------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,message", [
    (["--diag-error=x"], "'x': expected a number"),
    (["-diag-error", "-use_fast_math"], "'-use_fast_math': expected a number"),
    (["--optimize=99999999999999999999"], "32-bit integer value (99999999999999999999) out of range"),
    (["--maxrregcount=0x80000000"], "32-bit integer value (0x80000000) out of range"),
    (["-O08"], "'08': expected a number"),
    (["-O-1"], "Argument for --optimize (-O) must be non-negative"),
    (["-ftemplate-depth=0"], "Argument for --ftemplate-depth must be greater than 0"),
    (["--jump-table-density=102"], "Argument for --jump-table-density must be between [0-101]"),
])
def test_numbers_refused(argv: list[str], message: str) -> None:
    assert refusal([*argv, "-c", "k.cu"]) == message


def test_numbers_read_as_nvcc_reads_them() -> None:
    assert parse(["-O0x3", "-c", "k.cu"]).opt == "3"
    assert parse(["-O=", "-c", "k.cu"]).opt is None
    assert parse(["-ftemplate-depth=010", "-c", "k.cu"]).host_args == ["-ftemplate-depth=8"]
    assert parse(["--maxrregcount=-5", "--diag-error=1,,2", "-c", "k.cu"]).phase.value == "compile"


# ---- phases -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,message", [
    (["-c", "-ptx", "-M", "k.cu"], "More than one compilation phase specified"),
    (["-lib", "-link", "k.cu"], "More than one compilation phase specified"),
    (["-M", "-dc", "-cubin", "k.cu"], "More than one compilation phase specified"),
    (["-dlto", "-ptx", "k.cu"], "'-dlto' is not compatible with '-ptx'"),
    (["-dlto", "-cubin", "k.cu"], "Option '-dlto' cannot generate '--cubin' intermediate at compile time"),
    (["-c", "-E", "-o", "x.i", "k.cu", "k2.cu"],
     "A single input file is required for a non-link phase when an outputfile is specified"),
    (["-astoolspatch", "-c", "k.cu"], "--compile-as-tools-patch requires -ptx, -cubin or -fatbin"),
])
def test_phase_conflicts(argv: list[str], message: str) -> None:
    assert refusal(argv) == message


def test_phases_nvcc_allows() -> None:
    assert parse(["-cubin", "-M", "k.cu"]).phase.value == "deps"
    assert parse(["-c", "-E", "k.cu", "k2.cu"]).phase.value == "preprocess"
    assert parse(["-V", "-foo", "-arch=sm_99", "-lib", "-link"]).phase.value == "version"


# ---- output paths -------------------------------------------------------------------------------

@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "k.cu").write_text(cmdline.SOURCE)
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("")
    return tmp_path


@pytest.mark.parametrize("out,why", [("newdir/sub/k.o", "No such file or directory"), ("adir", "Is a directory"),
                                     ("afile/x.o", "Not a directory")])
def test_bad_output_path(folder: Path, cass_env: dict[str, str], out: str, why: str) -> None:
    before = sorted(p.name for p in folder.rglob("*"))
    proc = run_cass(["-c", "k.cu", "-o", out], folder, cass_env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert proc.stderr.strip() == f"cass-cc fatal   : Could not open output file {out}: {why}"
    assert sorted(p.name for p in folder.rglob("*")) == before  # no folder made, nothing half written


def test_unwritable_output_folder(folder: Path, cass_env: dict[str, str]) -> None:
    if os.access("/sys", os.W_OK) and os.getuid() != 0:
        pytest.skip("needs a folder this user cannot write")
    proc = run_cass(["-M", "k.cu", "-o", "/sys/dep.txt"], folder, cass_env)
    assert proc.returncode == 1 and proc.stderr.strip().endswith("Could not open output file /sys/dep.txt: Permission denied")


def test_dryrun_deps_to_file_makes_nothing(folder: Path, cass_env: dict[str, str]) -> None:
    proc = run_cass(["--dryrun", "-M", "k.cu", "-o", "dep.txt"], folder, cass_env)
    assert proc.returncode == 0, proc.stderr
    assert not (folder / "dep.txt").exists()


@needs_nvcc
@pytest.mark.parametrize("out,why", [("adir", "Is a directory"), ("nd/x.s", "No such file or directory"),
                                     ("/sys/x.s", "Permission denied")])
def test_emit_rdna3_bad_output(folder: Path, cass_env: dict[str, str], out: str, why: str) -> None:
    (folder / "e.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
    subprocess.run([NVCC, "-cubin", "-arch=sm_80", "-o", str(folder / "e.cubin"), str(folder / "e.cu")], check=True)
    proc = run_cass(["--emit-rdna3", "e.cubin", "-o", out], folder, cass_env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and ".tmp" not in proc.stderr
    assert proc.stderr.strip() == f"cass-cc: {out}: cannot write the output: {why}; nothing written"


# ---- a UTF-8 byte order mark --------------------------------------------------------------------

@needs_clang
@pytest.mark.parametrize("mode", [["-c", "-o", "bom.o"], ["-E"], ["-M"]])
def test_bom_source(tmp_path: Path, cass_env: dict[str, str], mode: list[str]) -> None:
    (tmp_path / "bom.cu").write_bytes(b"\xef\xbb\xbf" + cmdline.SOURCE.encode())
    (tmp_path / "h.cuh").write_bytes(b"\xef\xbb\xbf__device__ int h() { return 1; }\n")
    (tmp_path / "use.cu").write_text('#include "h.cuh"\n__global__ void g(int* p) { *p = h(); }\n')
    for src in ("bom.cu", "use.cu"):
        proc = run_cass([*mode, src], tmp_path, cass_env)
        assert proc.returncode == 0, proc.stderr
        assert "FEFF" not in proc.stderr


# ---- the CI slice -------------------------------------------------------------------------------

@needs_nvcc
def test_ci_slice(tmp_path: Path) -> None:
    """200 generated command lines, both tools --dryrun: no traceback, hang or disagreement."""
    tally = cmdline.run(200, seed=22, record=tmp_path / "table.jsonl", folder=tmp_path / "scratch")
    assert sum(tally.counts.values()) == 200
    assert tally.failures == 0, json.dumps(tally.examples, indent=1)[:3000]
    # the table replays without nvcc, to the same outcomes
    again = cmdline.run(0, 0, table=tmp_path / "table.jsonl", folder=tmp_path / "scratch2")
    assert again.counts == tally.counts
