"""The cmdline hostile family: a regression test per defect it found, and a CI slice of the
generated command lines against the real nvcc 13 (skipped where there is none)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc.nvcc import Invocation, UsageError, parse
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
    # found by the 100,000-line run (seed 2611)
    (["-dlink", "-astoolspatch", "-cubin", "k.cu"], "'--compile-as-tools-patch' is not compatible with '-rdc=true'"),
    (["--no-display-error-number", "-w", "--display-error-number", "k.cu"],
     "'--display-error-number' is not compatible with '--no-display-error-number'"),
    (["-ptx", "-arch", "all", "-dlink", "k.cu"],
     "Option '--ptx (-ptx)' is not allowed when compiling for multiple GPU architectures"),
    (["-ptx", "-arch=sm_80", "-gencode", "arch=compute_90,code=sm_90", "k.cu"],
     "Option '--ptx (-ptx)' is not allowed when compiling for multiple GPU architectures"),
    (["-cubin", "-gencode", "arch=compute_80,code=[sm_80,compute_80]", "k.cu"],
     "Option '--cubin' is not allowed when compiling for multiple GPU code instances"),
    (["-cubin", "-arch=compute_80", "-code=sm_80,sm_86", "k.cu"],
     "Option '--cubin' is not allowed when compiling for multiple GPU code instances"),
])
def test_phase_conflicts(argv: list[str], message: str) -> None:
    assert refusal(argv) == message


def test_phases_nvcc_allows() -> None:
    assert parse(["-cubin", "-M", "k.cu"]).phase.value == "deps"
    assert parse(["-c", "-E", "k.cu", "k2.cu"]).phase.value == "preprocess"
    assert parse(["-V", "-foo", "-arch=sm_99", "-lib", "-link"]).phase.value == "version"
    assert parse(["-cubin", "-arch=sm_80", "-gencode", "arch=compute_80,code=sm_80", "k.cu"]).phase.value == "cubin"
    assert parse(["-ptx", "-arch=compute_80", "-code=sm_80,sm_86", "k.cu"]).phase.value == "ptx"


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


def test_keep_dir_naming_a_file(folder: Path, cass_env: dict[str, str]) -> None:
    """-keep-dir k.cu (a file): the dry run writes nothing and exits 0 as nvcc's; a build says
    in one line why the translation cannot be kept (it was a FileExistsError traceback)."""
    dry = run_cass(["--dryrun", "k.cu", "-save-temps", "-keep-dir", "k.cu"], folder, cass_env)
    assert dry.returncode == 0, dry.stderr
    proc = run_cass(["-c", "k.cu", "-keep", "-keep-dir", "afile", "-o", "k.o"], folder, cass_env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert proc.stderr.strip().endswith("afile/k.cu.hip: cannot keep the translation: File exists")


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


# ---- round 2: the classes behind the 26 disagreements of 1,743 recorded lines ----------------------

def ok(argv: list[str], env: dict[str, str] | None = None, optf: dict[str, str] | None = None) -> Invocation:
    return parse(argv, env or {}, files(optf or {}))


@pytest.mark.parametrize("argv", [["-opt-info", ""], ["-opt-info=inline,"], ["--Werror="], ["--Werror=reorder,,reorder"],
                                  ["--Werror= reorder"], ["-diag-error=1,,2"], ["-I", ","], ["-D", ""]])
def test_list_values_drop_empty_pieces(argv: list[str]) -> None:
    """nvcc 13 drops the empty pieces of a list value (and trims each piece)."""
    assert ok([*argv, "-c", "k.cu"]).phase.value == "compile"


@pytest.mark.parametrize("argv,name", [(["-opt-info", "INLINE"], "optimization-info"), (["--Werror=ALL-WARNINGS"], "Werror"),
                                       (["-std", ""], "std"), (["-x="], "x"), (["-cudart", "Static"], "cudart")])
def test_choices_are_exact(argv: list[str], name: str) -> None:
    value = argv[-1].partition("=")[2] if "=" in argv[-1] else argv[-1]
    assert refusal([*argv, "-c", "k.cu"]) == f"Value '{value}' is not defined for option '{name}'"


@pytest.mark.parametrize("value", ["", "DEFAULT", "bogus", "size"])
def test_compress_mode_is_fatbinarys_to_check(value: str) -> None:
    """nvcc hands --compress-mode to fatbinary, which -dryrun never runs: any value passes there."""
    assert ok(["--dryrun", "-c", "k.cu", "--compress-mode", value]).dryrun


@pytest.mark.parametrize("value", ["", "DEFAULT", "bogus"])
def test_compress_mode_refused_when_building(value: str) -> None:
    assert refusal(["-c", "k.cu", "--compress-mode", value]) == f"Value '{value}' is not defined for option 'compress-mode'"


# -ccbin: nvcc runs the host compiler even for -dryrun; cass-cc looks for it the way nvcc does.

@pytest.fixture
def compilers(tmp_path: Path) -> Path:
    (tmp_path / "empty").mkdir()
    (tmp_path / "withgcc").mkdir()
    for exe in (tmp_path / "withgcc" / "gcc", tmp_path / "mycc"):
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
    (tmp_path / "notexec").write_text("")
    return tmp_path


@pytest.mark.parametrize("ccbin", ["a", "empty", "notexec", "", "a,b", "mycc/", "-c"])
def test_ccbin_nvcc_cannot_find(compilers: Path, ccbin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(compilers)
    assert refusal(["-ccbin", ccbin, "-c", "k.cu"], {"PATH": "/nonexistent"}) == "Failed to preprocess host compiler properties."


@pytest.mark.parametrize("ccbin,path", [("withgcc", "/nonexistent"), ("./mycc", "/nonexistent"), ("mycc", "."),
                                        ("gcc", None)])
def test_ccbin_found(compilers: Path, ccbin: str, path: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(compilers)
    if path is None and shutil.which("gcc") is None:
        pytest.skip("no gcc on PATH")
    env = {} if path is None else {"PATH": str(compilers) if path == "." else path}
    assert ok(["-ccbin", ccbin, "-c", "k.cu"], env).host_compiler == ccbin


def test_ccbin_from_nvcc_ccbin_variable() -> None:
    assert refusal(["-c", "k.cu"], {"NVCC_CCBIN": "no-such-compiler", "PATH": "/nonexistent"}) == \
        "Failed to preprocess host compiler properties."


def test_ccbin_checked_after_the_command_line_but_before_input_names() -> None:
    assert refusal(["-ccbin", "a", "-c"]) == "No input files specified; use option --help for more information"
    assert refusal(["-ccbin", "a", "-c", "k.xyz"], {"PATH": "/nonexistent"}) == "Failed to preprocess host compiler properties."
    assert ok(["-ccbin", "a", "-V"]).phase.value == "version"


def test_qpp_config_is_qnx_only() -> None:
    """nvcc passes -V<config> to the host compiler: gcc and clang refuse it, only QNX's qcc takes it."""
    assert refusal(["-qpp-config", "x", "-c", "k.cu"]) == "Option '--qpp-config' is not supported by cass-cc"
    assert ok(["-qpp-config", "x", "-V"]).phase.value == "version"


@pytest.mark.parametrize("argv,message", [
    (["-dlto", "-G", "-c", "k.cu"], "Option --link-time-opt cannot be combined with --device-debug."),
    (["-lto", "-G", "-E", "k.cu"], "Option --link-time-opt cannot be combined with --device-debug."),
    (["-dlto", "-ewp", "-c", "k.cu"], "'-dlto' is not compatible with '-ewp'"),
    (["-dlto", "-ewp"], "'-dlto' is not compatible with '-ewp'"),  # before "No input files"
    (["-astoolspatch", "-fatbin", "-rdc=true", "k.cu"], "'--compile-as-tools-patch' is not compatible with '-rdc=true'"),
    (["-astoolspatch", "-fatbin", "-dc", "k.cu"], "'--compile-as-tools-patch' is not compatible with '-rdc=true'"),
    (["-astoolspatch", "-fatbin", "-dlto", "k.cu"], "'--compile-as-tools-patch' is not compatible with '-rdc=true'"),
    (["-astoolspatch", "-c", "-rdc=true", "k.cu"], "'--compile-as-tools-patch' is not compatible with '-rdc=true'"),
    (["-fdevice-time-trace=x", "-E", "k.cu"], "'-fdevice-time-trace' is not compatible with '-E'"),
    (["-fdevice-time-trace=", "-c", "-E"], "'-fdevice-time-trace' is not compatible with '-E'"),
])
def test_option_conflicts(argv: list[str], message: str) -> None:
    assert refusal(argv) == message


def test_more_found_in_10k_lines() -> None:
    assert refusal(["k.cu", "--ftemplate-depth="]) == "Argument for --ftemplate-depth must be greater than 0"
    assert ok(["k.cu", "--jump-table-density="]).phase.value == "link"  # empty is 0, and 0 is allowed
    assert refusal(["-use-local-env", "-force-cl-env-setup", "k.cu"]) == \
        "-use-local-env and -force-cl-env-setup cannot both be specified at the same time"
    assert ok(["-dlink", "-cubin", "-dlto", "k.cu"]).phase.value == "cubin"  # a device-linked cubin
    assert ok(["-M", "-E", "-MD", "k.cu"]).phase.value == "deps"  # -M wins: no -MD/-E complaint
    assert refusal(["-E", "-MD", "k.cu"]) == "'-MD'/'-MMD' is not supported when '-E' is also specified"
    for arch in (["-arch=compute_80"], ["-arch=lto_90a"], ["-gencode", "arch=compute_80,code=compute_80"]):
        assert refusal([*arch, "-cubin", "k.cu"]) == \
            "Option '--cubin' is not allowed when compiling for a virtual compute architecture"
    assert ok(["-arch=compute_80", "-code=sm_80", "-cubin", "k.cu"]).phase.value == "cubin"
    assert ok(["-arch=compute_80", "-fatbin", "k.cu"]).phase.value == "fatbin"
    assert refusal(["-dc", "-ewp", "k.cu"]) == "'--device-c' is not compatible with '--extensible-whole-program'"
    assert refusal(["-rdc=true", "-c", "-ewp", "k.cu"]) == \
        "'--relocatable-device-code=true' is not compatible with '--extensible-whole-program'"
    assert ok(["-dw", "-ewp", "k.cu"]).phase.value == "compile"


@pytest.mark.parametrize("value", ["3 ", "3\n", "-0\n"])
def test_numbers_take_no_trailing_blank(value: str) -> None:
    """strtol skips blanks before a number, nvcc then wants nothing after it (a list piece is trimmed
    of spaces and tabs first, so --diag-suppress="3 " passes; a newline stays)."""
    assert refusal(["-O=" + value, "-c", "k.cu"]) == f"'{value}': expected a number"
    assert ok(["-O=\n3", "-diag-suppress=3 ", "-c", "k.cu"]).opt == "3"


def test_found_in_4k_more_lines() -> None:
    assert refusal(["-t=\n", "-c", "k.cu"]) == "'\n': expected a number"  # blanks alone are no number
    assert ok(["-astoolspatch", "-E", "-fatbin", "k.cu"]).phase.value == "preprocess"  # -fatbin given
    for good in ("x86_64-linux", "", "x86_64-linux/", "../targets/x86_64-linux"):
        assert ok(["-target-dir", good, "-c", "k.cu"]).phase.value == "compile"
    for bad in ("foo", "X86_64-LINUX", "-sanitize=a,b"):
        assert refusal(["-target-dir", bad, "-c", "k.cu"]) == f"Invalid target directory: {bad}."
    assert ok(["-V", "-target-dir", "foo"]).phase.value == "version"


def test_found_in_8k_more_lines() -> None:
    assert ok(["-ptx", "-dlink", "-dlto", "k.cu"]).phase.value == "ptx"  # no -dlto/-ptx complaint with -dlink
    for argv in (["-cudart=none", "-dlink"], ["-nodlink", "-dlink"], ["-nodlink", "-dlink", "-cubin"],
                 ["-nodlink", "-dlink", "-lib"], ["-cudart=none", "-dlink", "-c", "-cubin"],
                 ["-nodlink", "-dlink", "-cuda", "-fatbin"]):
        assert refusal([*argv, "k.cu"]) == "'--device-link (-dlink)' is not compatible with '--no-device-link (-nodlink)'"
    for argv in (["-c"], ["-dc"], ["-ptx"], ["-E"], ["-M"], ["-cuda"]):
        assert ok([*argv, "-nodlink", "-dlink", "k.cu"]).phase.value != "dlink"


@pytest.mark.parametrize("arch,code,fine", [
    ("compute_80", "compute_86", False), ("compute_86", "compute_80", False), ("lto_80", "compute_80", False),
    ("compute_80", "compute_80", True), ("compute_80", "sm_86", True), ("lto_80", "sm_86", True),
    ("compute_90a", "sm_90", False), ("compute_90", "sm_90a", True), ("compute_90a", "compute_90", False),
    ("compute_90a", "sm_90a", True), ("compute_86", "sm_80", False),
])
def test_arch_code_compatibility(arch: str, code: str, fine: bool) -> None:
    """Virtual code is the arch's own PTX; real code needs a number >= the arch's, the same suffix if any."""
    argv = ["-gencode", f"arch={arch},code={code}", "-c", "k.cu"]
    if fine:
        assert ok(argv).targets == [code]
    else:
        assert refusal(argv) == f"Incompatible code generation requested: arch='{arch}', code='{code}'"


def test_nvcc_crash_is_no_answer() -> None:
    crashed = {"rc": 255, "fatal": "nvcc: Segmentation fault"}
    assert cmdline.judge(crashed, cmdline.Result(0, b"", b"", 0.0)) == "excused"
    assert cmdline.judge({"rc": 1, "fatal": "nvcc fatal   : x"}, cmdline.Result(0, b"", b"", 0.0)) == "disagrees"


def test_architecture_ranks_are_the_same_numbers_for_both() -> None:
    token = "@compute:c5@,@sm:a@"
    assert cmdline.render(token, "12.4") == cmdline.render(token, "13.0") == f"compute_{cmdline.COMMON[5]},sm_90a"


def test_optional_values() -> None:
    """-Ofc and -hls take the next word only if it is no option (nvcc 13)."""
    assert ok(["-c", "k.cu", "-Ofc", "-ewp"]).phase.value == "compile"
    assert ok(["-c", "k.cu", "-Ofc"]).phase.value == "compile"
    assert ok(["-c", "k.cu", "-Ofc", "max"]).ignored == ["--Ofast-compile=max"]
    assert refusal(["-c", "k.cu", "-Ofc", "k.cu"]) == "Value 'k.cu' is not defined for option 'Ofast-compile'"
    assert refusal(["-c", "k.cu", "-Ofc", "-foo"]) == "Unknown option '-foo'"
    # at the end of an options file it takes nothing from the command line after it
    assert ok(["-optf", "f", "max.cu", "-c"], optf={"f": "-Ofc"}).inputs[0].path == "max.cu"
    assert ok(["-optf", "f", "k.cu"], optf={"f": "-Ofc  \t-ewp"}).phase.value == "link"


def test_conflicts_nvcc_allows() -> None:
    assert ok(["-astoolspatch", "-fatbin", "-dw", "k.cu"]).phase.value == "fatbin"
    assert ok(["-fdevice-time-trace=x", "-M", "k.cu"]).phase.value == "deps"
    assert ok(["-dlto", "-c", "k.cu"]).phase.value == "compile"


# -time: nvcc opens (appends to) its file even for -dryrun, after checking the command line.

@pytest.mark.parametrize("where", ["nd/t.csv", "adir", ""])
def test_time_file_that_cannot_open(folder: Path, cass_env: dict[str, str], where: str) -> None:
    proc = run_cass(["--dryrun", "-c", "k.cu", "-time", where], folder, cass_env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == f"nvcc fatal   : Cannot open file '{where}'"
    assert not (folder / "nd").exists()


def test_time_file_appended(folder: Path, cass_env: dict[str, str]) -> None:
    (folder / "t.csv").write_text("kept\n")
    assert run_cass(["--dryrun", "-c", "k.cu", "-time", "t.csv"], folder, cass_env).returncode == 0
    assert (folder / "t.csv").read_text() == "kept\n"  # appended to, never truncated
    assert run_cass(["--dryrun", "-c", "k.cu", "-time", "new.csv"], folder, cass_env).returncode == 0
    assert (folder / "new.csv").read_text().startswith("source file name , phase name")
    assert run_cass(["-V", "-time", "nd/x"], folder, cass_env).returncode == 0  # --version opens nothing


# What nvcc checks as it reads an option (so even --version is refused) and what only later.

@pytest.mark.parametrize("argv,message", [
    (["-gencode", "k.cu"], "'k.cu' is not in 'keyword=value' format"),
    (["-gencode", "arch=compute_80,code=sm_80,arch=compute_80"], "redefinition of keyword 'arch' "),
    (["-gencode", "arch=compute_80,x=1"], "Keyword 'x' is not defined for option 'generate-code'"),
    (["-gencode", "arch=compute_80,code=[sm_80"], "Stray '[' character"),
    (["-code=sm_90f"], "Value 'sm_90f' is not defined for option 'gpu-code'"),  # no f for 90
    (["-code=sm_99"], "Value 'sm_99' is not defined for option 'gpu-code'"),
    (["-code=all"], "Value 'all' is not defined for option 'gpu-code'"),
    (["-O=x"], "'x': expected a number"),
    (["-Xcompiler", "a\\"], "Stray '' character"),
    (["-I", 'a"b'], "Stray '\"' character"),
])
def test_refused_even_with_version(argv: list[str], message: str) -> None:
    assert refusal(["-V", *argv]) == message


@pytest.mark.parametrize("argv", [["-gencode", "arch=sm_99"], ["-gencode", "code=sm_80"], ["-gencode", ""],
                                  ["-arch=sm_87f"], ["-ftemplate-depth=0"], ["-jtd=102"], ["-o", 'a"b'],
                                  ["-code=", "-arch=compute_80"]])
def test_checked_only_after_version(argv: list[str]) -> None:
    assert ok(["-V", *argv]).phase.value == "version"


def test_gencode_missing_parts_named_as_nvcc() -> None:
    assert refusal(["-c", "k.cu", "-gencode", ","]) == "Option '--generate-code code=(null)', missing architecture"
    assert refusal(["-c", "k.cu", "-gencode", "code=sm_80"]) == "Option '--generate-code code=sm_80', missing architecture"
    assert refusal(["-c", "k.cu", "-gencode", "arch=compute_80"]) == "Option '--generate-code arch=compute_80', missing code"


# --list-gpu-arch / --list-gpu-code print (after unknown options are refused) and exit.

def test_list_gpu_arch_prints_whatever_follows() -> None:
    inv = ok(["-ccbin", "a", "k.cu", "-arch-ls", "-ftemplate-depth=0", "-arch=sm_99", "-c", "-M", "-ptx"])
    assert inv.phase.value == "list-arch"
    assert refusal(["-arch-ls", "-foo"]) == "Unknown option '-foo'"
    assert ok(["-arch-ls", "-V"]).phase.value == "version"


def test_list_gpu_output(folder: Path, cass_env: dict[str, str]) -> None:
    out = run_cass(["-arch-ls", "--dryrun"], folder, cass_env).stdout.split()
    assert out == [f"compute_{n}" for n in sorted((n for n in tg.ACCEPTED if n.isdigit()), key=int)]
    assert run_cass(["-code-ls", "-arch-ls"], folder, cass_env).stdout.split()[0] == f"arch=compute_{out[0][8:]},code=sm_{out[0][8:]}"


@needs_nvcc
@pytest.mark.parametrize("flags", [["-arch-ls"], ["-code-ls"], ["-arch-ls", "-code-ls"]])
def test_listing_rule_is_nvccs(flags: list[str]) -> None:
    """The same rule over nvcc 13's table prints what nvcc 13 prints (its order aside)."""
    out = subprocess.run([NVCC, *flags], capture_output=True, text=True, check=True).stdout.split()
    ours = tg.listing("-arch-ls" in flags, "-code-ls" in flags, tg.ARCHS_BY_CUDA["13.0"])
    assert sorted(out) == sorted(ours)


# Backslashes and quotes inside option values: unescaped in -D/-U/-Xcompiler/-Xptxas/-Xnvlink/-Xcicc,
# kept in the other lists (-I, -L, -l, -Xlinker, ...), untouched in single values (-o, -MF, -ccbin).

@pytest.mark.parametrize("argv,field,value", [
    (["-DX=a\\b"], "defines", ["X=ab"]),
    (["-DX=a\\\\b"], "defines", ["X=a\\b"]),
    (["-DX=a\\,b"], "defines", ["X=a,b"]),
    (["-D", 'X="a,b"'], "defines", ['X="a,b"']),
    (["-DX=a,b"], "defines", ["X=a", "b"]),
    (["-D", "A "], "defines", ["A"]),
    (["-Xcompiler", "a\\,b"], "host_args", ["a,b"]),
    (["-Xcompiler", '\\"a,b\\"'], "host_args", ['"a', 'b"']),
    (["-I", "a\\b"], "include_dirs", ["a\\b"]),
    (["-I", "a\\,b"], "include_dirs", ["a\\", "b"]),
    (["-I", '"a,b"'], "include_dirs", ["a,b"]),
    (["-I", 'a"b,c"d'], "include_dirs", ["ab,cd"]),
    (["-I", "a\\"], "include_dirs", ["a\\"]),
    (["-o", 'a"b\\'], "output", 'a"b\\'),
])
def test_value_escapes(argv: list[str], field: str, value: object) -> None:
    inv = ok([*argv, "-c", "k.cu"])
    got = inv.host_args if field == "host_args" else getattr(inv, field)
    assert got == value


@pytest.mark.parametrize("argv,message", [(["-DX=a\\"], "Stray '' character"), (["-DX=a\"b"], "Stray '\"' character"),
                                          (["-Xptxas", "a\\"], "Stray '' character"), (["-I", '\\"a,b\\"'], "Stray '\"' character")])
def test_value_escapes_refused(argv: list[str], message: str) -> None:
    assert refusal([*argv, "-c", "k.cu"]) == message


@pytest.mark.parametrize("text,field,value", [
    ("\\ -dlink -Ofc=mid", "phase", "dlink"),  # escaped blanks at a word's ends are trimmed
    ("-DA\\ -DB", "defines", ["A -DB"]),
    ("-DA=a\\\\b", "defines", ["A=ab"]),  # the file's \\ is \, then -D's \b is b
    ("-o \\\"x.o\\\"", "output", "x.o"),  # escaped quotes are dropped
    ("-o a\\\"b.o", "output", "ab.o"),
    ("-I=\"a\\b\"", "include_dirs", ["ab"]),  # inside quotes too, a backslash escapes
    ("-Xcompiler=\"a,b\"", "host_args", ["a", "b"]),  # the file's quotes are gone before the split
    ("\\  -DA", "defines", ["A"]),  # a word of escaped blanks only is no word
])
def test_options_file_escapes(text: str, field: str, value: object) -> None:
    inv = ok(["-optf", "f", "k.cu"], optf={"f": text})
    got = inv.phase.value if field == "phase" else inv.host_args if field == "host_args" else getattr(inv, field)
    assert got == value


@pytest.mark.parametrize("text,message", [('-c ""', "Don't know what to do with ''"),
                                          ("-c \\\n-DA", "Don't know what to do with '\n-DA'"),
                                          ('-c " -DA"', "Don't know what to do with ' -DA'")])
def test_options_file_words_nvcc_cannot_place(text: str, message: str) -> None:
    assert refusal(["-optf", "f", "k.cu"], optf={"f": text}) == message


def test_options_file_only_where_an_option_can_be() -> None:
    """-optf as another option's value is that value: its file is not read."""
    assert refusal(["-cudart", "--options-file", "f", "none", "k.cu"], optf={"f": ""}) == \
        "Value '--options-file' is not defined for option 'cudart'"
    inv_refusal = refusal(["k.cu", "--output-file", "-optf", "f", "out.o"], optf={"f": ""})
    assert inv_refusal == "Don't know what to do with 'f'"


def test_unknown_input_named_last_as_nvcc() -> None:
    assert refusal(["-E", "a.xyz", "b.xyz", "k.cu"]) == "Don't know what to do with 'b.xyz'"


def test_forwarded_unknowns_keep_their_place() -> None:
    inv = ok(["-Xcompiler=-a", "-foo", "-Xcompiler=-b", "-forward-unknown-to-host-compiler", "-c", "k.cu"])
    assert inv.host_args == ["-a", "-foo", "-b"]
    inv = ok(["-optf", "f", "-c", "k.cu"], optf={"f": "-bar -forward-unknown-opts"})
    assert inv.host_args == ["-bar"] and inv.linker_args == ["-bar"]


# ---- the 6 disagreements of the 100,000-line replay (seed 2611), each as a class probed with nvcc 13 -dryrun

DLTO_CONFLICT = ("'-dlto' conflicts with '-gencode' or '-code' to control what is generated; "
                 "use 'code=lto_<arch>' instead of '-dlto' to request lto intermediate")
PTX_LTO = "Cannot use '-ptx' with '-arch=lto_<arch>'"


@pytest.mark.parametrize("argv,message", [
    # -dlto with a CUDA source: any -gencode (even of lto_ code), a -code of other than lto_ code
    (["-lto", "-fatbin", "k.cu", "-gencode=arch=compute_80,code=\"sm_89,compute_80\""], DLTO_CONFLICT),
    (["-dlto", "-gencode", "arch=native,code=lto_80", "k.cu"], DLTO_CONFLICT),  # before the arch's fault
    (["-dlto", "-code=sm_80", "k.cu"], DLTO_CONFLICT),  # before "-arch option not specified"
    (["-dlto", "-code=sm_80", "-x", "cu", "h.cpp"], DLTO_CONFLICT),
    (["-dlto", "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_80", "k.cu"], DLTO_CONFLICT),
    (["-dlto", "-gencode", "arch=compute_80", "-gencode", "arch=compute_80,code=sm_80", "k.cu"],
     "Option '--generate-code arch=compute_80', missing code"),
    (["-dlto", "-code=lto_80", "k.cu"], "-arch option not specified"),
    (["-dlto", "-code=sm_80", "-arch=sm_99", "k.cu"], "Unsupported gpu architecture 'sm_99'"),
    (["-dlto", "-code=sm_80"], "-arch option not specified"),  # no CUDA source to build
    (["-dlto", "-code=sm_80", "-x", "c", "k.cu", "k2.cu"], "-arch option not specified"),
    # -ptx given (with -E, with -dlink too) and lto_ code from -code or -gencode
    (["-gencode=arch=lto_75,code=[sm_86,lto_75]", "-ptx", "k.cu"], PTX_LTO),
    (["-E", "-ptx", "-code=lto_80", "k.cu"], PTX_LTO),
    (["-ptx", "-dlink", "-code=lto_80", "k.cu"], PTX_LTO),
    (["-ptx", "-code=lto_80"], PTX_LTO),
    (["-ptx", "-dlink", "-dlto", "-arch=compute_80", "-code=lto_80,sm_80", "k.cu"], PTX_LTO),  # the first code at fault
    (["-ptx", "-dlink", "-dlto", "-arch=compute_80", "-code=sm_80,lto_80", "k.cu"], DLTO_CONFLICT),
    (["-ptx", "-gencode", "arch=compute_90,code=sm_80", "-gencode", "arch=compute_80,code=lto_80", "k.cu"],
     "Incompatible code generation requested: arch='compute_90', code='sm_80'"),  # -gencode by -gencode
    # checked later than they were: -dlto/-ewp after the architectures, -dlto/-cubin after -G,
    # what -cubin/-ptx make of the targets after the inputs' number
    (["-dlto", "-ewp", "-dc", "k.cu"], "'--device-c' is not compatible with '--extensible-whole-program'"),
    (["-dlto", "-ewp", "-code=lto_80", "k.cu"], "-arch option not specified"),
    (["-dlto", "-cubin", "-G", "k.cu"], "Option --link-time-opt cannot be combined with --device-debug."),
    (["-dlto", "-cubin", "-arch=compute_80", "k.cu"],
     "Option '-dlto' cannot generate '--cubin' intermediate at compile time"),
    (["-cubin", "-arch=all"], "No input files specified; use option --help for more information"),
    (["-ptx", "-arch=all", "-o", "x", "k.cu", "k2.cu"],
     "A single input file is required for a non-link phase when an outputfile is specified"),
])
def test_lto_refusals(argv: list[str], message: str) -> None:
    assert refusal(argv) == message


@pytest.mark.parametrize("argv", [
    ["-dlto", "-gencode", "arch=compute_80,code=sm_80", "h.cpp"],  # no CUDA source: nothing to conflict
    ["-dlto", "-arch=compute_80", "-code=sm_80", "-x", "c", "k.cu"],
    ["-dlto", "-arch=compute_80", "-code=lto_80", "k.cu"],
    ["-ptx", "-arch=lto_80", "k.cu"],  # -arch=lto_XX alone, whatever the message says
    ["-ptx", "-dlink", "-arch=lto_80", "k.cu"],
    ["-ptx", "-arch=lto_80", "-code=sm_80", "k.cu"],
])
def test_lto_accepted(argv: list[str]) -> None:
    assert ok(argv).targets


@pytest.mark.parametrize("argv,phase", [
    (["-E", "-ptx", "-ewp", "k.cu", "--gpu-architecture", "all-major", "-c"], "preprocess"),  # -E runs, not -ptx
    (["-M", "-ptx", "-arch=all", "k.cu"], "deps"),
    (["-E", "-ptx", "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90", "k.cu"],
     "preprocess"),
])
def test_one_target_only_for_the_phase_that_runs(argv: list[str], phase: str) -> None:
    assert ok(argv).phase.value == phase


@pytest.mark.parametrize("blank", ["\n", "\r", "\v", "\f", "\x1c", "\x1f"])
def test_env_flags_keep_other_blanks_in_the_word(blank: str) -> None:
    """nvcc 13 splits NVCC_*_FLAGS at spaces and tabs alone: -arch=sm_80<newline>-c is one word,
    refused whole (it was read as sm_80, a regex's $ matching before a final newline)."""
    for var in ("NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"):
        assert refusal(["k.cu"], {var: f"-arch=sm_80{blank}-c"}) == f"Unsupported gpu architecture 'sm_80{blank}-c'"
    assert refusal(["k.cu", "-Dk.cu"], {"NVCC_APPEND_FLAGS": "--lib  \t-arch=sm_89\n"}) == \
        "Unsupported gpu architecture 'sm_89\n'"
    assert refusal(["k.cu"], {"NVCC_APPEND_FLAGS": "-code=sm_80\n"}) == \
        "Value 'sm_80\n' is not defined for option 'gpu-code'"
    assert ok(["k.cu"], {"NVCC_APPEND_FLAGS": "-arch=sm_80 \t-c"}).phase.value == "compile"


def test_empty_argument_is_an_input_named_nothing() -> None:
    """nvcc 13 takes an empty word (command line, options file) as an input file: one it cannot
    place, unless -x names its language (then --dryrun, which opens no input, passes)."""
    assert refusal(["-c", "k.cu", ""]) == "Don't know what to do with ''"
    inv = ok(["-dlto", "k.cu", "-optf", "f", "-use_fast_math", "--x=cu"], optf={"f": '""\n-lineinfo'})
    assert [(i.path, i.lang.value) for i in inv.inputs] == [("k.cu", "cu"), ("", "cu")]



@needs_clang
@pytest.mark.parametrize("line", [
    # an options file's "" with -x: the driver read Path(""), the folder ("Is a directory")
    {"argv": ["-dlto", "k.cu", "-optf", "f.opt", "-use_fast_math", "--x=cu"], "optf": '""\n-lineinfo'},
    # -dlink of an object that is not there: clang's failed plan was "unexpected device-link plan"
    {"argv": ["-o", "k.cu", "out.o", "--diag-suppress", "2147483647", "--device-link", "--verbose", "--entries="]},
], ids=["empty-input-with-x", "dlink-missing-object"])
def test_missing_input_is_named_as_nvcc_dryrun_never_opens_it(line: dict, tmp_path: Path) -> None:
    """Table lines 2611 replayed: nvcc's --dryrun passes (it opens no input); cass-cc opens them
    and must say the file's name with 'cannot read', the refusal the harness excuses."""
    case = cmdline.Case(line["argv"], {}, line.get("optf"))
    ours = cmdline.run_cass_inprocess(case, tmp_path)
    assert ours.rc == 1 and b"cannot read: No such file or directory" in ours.stderr, ours.stderr
    assert cmdline.judge({"rc": 0, "fatal": ""}, ours) == "excused"

# ---- the harness itself -------------------------------------------------------------------------

def test_prepend_flag_wanting_a_value_does_not_eat_dryrun() -> None:
    """NVCC_PREPEND_FLAGS ending in -o takes argv[0] (nvcc 13): the case gives it a word of its own."""
    seen = 0
    for case in cmdline.cases(3000, 7):
        command = case.command()
        if cmdline._wants_value(case.env.get("NVCC_PREPEND_FLAGS", "")):
            seen += 1
            assert command[0] != "--dryrun" and command[1] == "--dryrun"
        else:
            assert command[0] == "--dryrun"
    assert seen > 0


@needs_nvcc
def test_parallel_record_is_the_serial_one(tmp_path: Path) -> None:
    """--jobs N --nvcc-only: the same table, row for row, as one process."""
    one = cmdline.run(24, 3, record=tmp_path / "one.jsonl", nvcc_only=True, folder=tmp_path / "a")
    two = cmdline.run(24, 3, record=tmp_path / "two.jsonl", nvcc_only=True, folder=tmp_path / "b", jobs=3)
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()
    assert one.counts == two.counts and sum(one.counts.values()) == 24 and set(one.counts) <= {"ok", "refused"}


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
