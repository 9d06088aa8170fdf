"""`cass-cc port` on hostile trees and under hostile conditions: no hang, no traceback, no lost
edit, modes and hard links kept, one-line errors naming the path (issue 22)."""
from __future__ import annotations

import errno
import json
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

import cass_cc.port as port_pkg
import cass_cc.port.writes as writes
from cass_cc.port.walk import MANIFEST, walk

from .conftest import TREE, snapshot

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 60  # seconds: a port of this small tree takes a few; a blocked read never ends


def cass_port(args: list[str], env: dict[str, str], fsize: int | None = None) -> subprocess.CompletedProcess[str]:
    """`cass-cc port` in its own process, killed at LIMIT (a hang must fail the test, not stop it).
    `fsize`: RLIMIT_FSIZE in bytes, a disk that fills up (Python ignores SIGXFSZ: writes get EFBIG)."""
    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run([sys.executable, str(ROOT / "bin" / "cass-cc"), "port", *args], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=LIMIT, preexec_fn=limit)


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """In-process runs: a read that blocks raises here instead of hanging the suite."""
    def expired(signum: int, frame: Any) -> None:
        raise TimeoutError(f"port still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def no_temporaries(root: Path) -> bool:
    return not [p for p in root.rglob(".*.tmp")]


# ---- files that are not regular files -------------------------------------------------------

def test_special_files_are_skipped_with_a_warning(tree: Path, tmp_path: Path, port_env: dict[str, str]) -> None:
    os.mkfifo(tree / "pipe.cu")
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(tree / "sock.cu"))
    (tree / "folder.cu").mkdir()
    (tree / "folder.cu/inner.cu").write_text("__global__ void k() {}\nvoid f() { cudaDeviceSynchronize(); }\n")
    (tree / "broken.cu").symlink_to("nowhere.cu")
    (tree / "loop_a").symlink_to("loop_b")
    (tree / "loop_b").symlink_to("loop_a")
    (tmp_path / "elsewhere.h").write_text("int x;\n")
    (tree / "outside.h").symlink_to(tmp_path / "elsewhere.h")
    (tree / "inside.cu").symlink_to("scale.cu")
    out = tmp_path / "out"
    start = time.monotonic()
    proc = cass_port([str(tree), "-o", str(out), "--hip-version", "5.2"], port_env)
    assert time.monotonic() - start < LIMIT and proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert "warning     pipe.cu: a FIFO (named pipe), not a regular file; skipped" in lines
    assert "warning     sock.cu: a socket, not a regular file; skipped" in lines
    assert "warning     broken.cu: symbolic link to nowhere.cu, which does not exist; recreated as it is" in lines
    assert "warning     loop_a: symbolic link to loop_b, a loop of links; recreated as it is" in lines
    assert f"warning     outside.h: symbolic link to {tmp_path / 'elsewhere.h'}, outside the tree (not ported with it); recreated as it is" in lines
    assert not any("inside.cu" in line for line in lines)  # a link within the tree is nothing odd
    assert not (out / "pipe.cu").exists() and not (out / "sock.cu").exists()
    assert "hipDeviceSynchronize" in (out / "folder.cu/inner.cu").read_text()  # a folder named *.cu is a folder
    for link in ("broken.cu", "loop_a", "loop_b", "outside.h", "inside.cu"):
        assert os.readlink(out / link) == os.readlink(tree / link)
    # the inplace port leaves them all where they are
    proc = cass_port([str(tree), "--inplace", "--hip-version", "5.2", "-q"], port_env)
    assert proc.returncode == 0 and stat.S_ISFIFO(os.lstat(tree / "pipe.cu").st_mode), proc.stderr
    assert not (tree / "pipe.cu.cuda-orig").exists() and os.readlink(tree / "inside.cu") == "scale.cu"


def test_device_file_is_skipped(tree: Path, tmp_path: Path, port_env: dict[str, str]) -> None:
    try:
        os.mknod(tree / "zero.cu", stat.S_IFCHR | 0o666, os.makedev(1, 5))  # /dev/zero: a read never ends
    except PermissionError:
        pytest.skip("mknod needs privileges")
    proc = cass_port([str(tree), "-o", str(tmp_path / "out"), "--hip-version", "5.2", "-q"], port_env)
    assert proc.returncode == 0, proc.stderr
    assert "warning     zero.cu: a character device, not a regular file; skipped" in proc.stderr.splitlines()


def test_file_turned_fifo_after_the_walk_fails_without_blocking(tree: Path, tmp_path: Path, run_port,  # type: ignore[no-untyped-def]
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    real = port_pkg.walk

    def then_swap(*args: Any) -> Any:
        entries = real(*args)
        (tree / "scale.cu").unlink()
        os.mkfifo(tree / "scale.cu")
        (tree / "data/input.txt").unlink()
        os.mkfifo(tree / "data/input.txt")
        return entries

    monkeypatch.setattr(port_pkg, "walk", then_swap)
    with deadline(LIMIT):
        result = run_port(str(tree), "-o", str(tmp_path / "out"), "--hip-version", "5.2", "-q")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert f"failed      scale.cu: cannot read {tree / 'scale.cu'}: a FIFO (named pipe), not a regular file" in lines
    assert f"failed      data/input.txt: cannot read {tree / 'data/input.txt'}: a FIFO (named pipe), not a regular file" in lines
    assert not (tmp_path / "out/scale.cu").exists() and (tmp_path / "out/main.cpp").is_file()


def test_walk_kinds(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_text("")
    os.mkfifo(tmp_path / "f.cu")
    (tmp_path / "d.cu").mkdir()
    (tmp_path / "self").symlink_to("self")
    (tmp_path / MANIFEST).write_text("{}")
    entries = {e.rel: e for e in walk(tmp_path, True)}
    assert {rel: e.kind for rel, e in entries.items()} == {"a.cu": "source", "f.cu": "skipped", "self": "link"}
    assert "loop" in entries["self"].warning


# ---- hand edits ------------------------------------------------------------------------------

def test_second_inplace_keeps_hand_edits(tree: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    assert run_port(str(tree), "--inplace", "--hip-version", "5.2", "-q").exit_code == 0
    edited = (tree / "scale.cu").read_text() + "// tuned by hand for gfx1100\n"
    (tree / "scale.cu").write_text(edited)
    (tree / "Makefile").write_text((tree / "Makefile").read_text() + "# mine\n")
    before = snapshot(tree)
    result = run_port(str(tree), "--inplace", "--hip-version", "5.2", "-q")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        f"Error: ported files changed since the last port: {tree / 'Makefile'}, {tree / 'scale.cu'}; "
        "nothing written (--overwrite-edits replaces them)"]
    assert snapshot(tree) == before  # nothing changed, the edits are there
    # a file put back to its original by hand loses nothing: not named
    (tree / "Makefile").write_bytes((tree / "Makefile.cuda-orig").read_bytes())
    result = run_port(str(tree), "--inplace", "--hip-version", "5.2", "-q")
    assert result.exit_code == 1 and "Makefile" not in result.stderr and "scale.cu" in result.stderr
    result = run_port(str(tree), "--inplace", "--hip-version", "5.2", "-q", "--overwrite-edits")
    assert result.exit_code == 0, result.output
    assert "tuned by hand" not in (tree / "scale.cu").read_text()
    assert run_port(str(tree), "--inplace", "--hip-version", "5.2", "-q").exit_code == 0  # recorded again


def test_port_into_existing_output_keeps_edits(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    assert run_port(str(tree), "-o", str(out), "--hip-version", "5.2", "-q").exit_code == 0
    assert run_port(str(tree), "-o", str(out), "--hip-version", "5.2", "-q").exit_code == 0  # unchanged: fine
    (out / "main.cpp").write_text("// mine now\n")
    (out / "data/input.txt").write_text("4 5 6\n")
    before = snapshot(out)
    result = run_port(str(tree), "-o", str(out), "--hip-version", "5.2", "-q")
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1
    assert f"{out / 'data/input.txt'}, {out / 'main.cpp'}; nothing written" in result.stderr
    assert snapshot(out) == before
    # an output folder a port never wrote: its files are the user's
    other = tmp_path / "other"
    (other / "util").mkdir(parents=True)
    (other / "util/plain.c").write_text("int mine;\n")
    result = run_port(str(tree), "-o", str(other), "--hip-version", "5.2", "-q")
    assert result.exit_code == 1 and str(other / "util/plain.c") in result.stderr
    assert (other / "util/plain.c").read_text() == "int mine;\n" and not (other / "scale.cu").exists()
    assert run_port(str(tree), "-o", str(out), "--hip-version", "5.2", "-q", "--overwrite-edits").exit_code == 0
    assert (out / "data/input.txt").read_text() == TREE["data/input.txt"]


# ---- modes and hard links ----------------------------------------------------------------------

def _modes_and_links(tree: Path) -> None:
    (tree / "scale.cu").chmod(0o755)
    (tree / "data/input.txt").chmod(0o444)
    (tree / "Makefile").chmod(0o640)
    os.link(tree / "scale.cu", tree / "scale2.cu")  # a ported file under two names
    os.link(tree / "data/input.txt", tree / "data/same.txt")  # a copied one


def test_output_keeps_modes_and_hard_links(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    _modes_and_links(tree)
    out = tmp_path / "out"
    for _ in range(2):  # and again over the first output (read-only files included)
        assert run_port(str(tree), "-o", str(out), "--hip-version", "5.2", "-q").exit_code == 0
        for rel in ("scale.cu", "scale2.cu", "data/input.txt", "data/same.txt", "Makefile", "main.cpp"):
            assert stat.S_IMODE((out / rel).stat().st_mode) == stat.S_IMODE((tree / rel).stat().st_mode), rel
        assert (out / "scale.cu").stat().st_ino == (out / "scale2.cu").stat().st_ino
        assert (out / "data/input.txt").stat().st_ino == (out / "data/same.txt").stat().st_ino
        assert (out / "scale.cu").stat().st_ino != (out / "data/input.txt").stat().st_ino
        assert "hipStream_t" in (out / "scale2.cu").read_text()
        assert (out / "data/input.txt").stat().st_mtime_ns == (tree / "data/input.txt").stat().st_mtime_ns


def test_inplace_keeps_modes_and_hard_links(tree: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    _modes_and_links(tree)
    for _ in range(2):
        assert run_port(str(tree), "--inplace", "--hip-version", "5.2", "-q").exit_code == 0
        for rel in ("scale.cu", "scale2.cu", "scale.cu.cuda-orig", "Makefile", "Makefile.cuda-orig"):
            assert stat.S_IMODE((tree / rel).stat().st_mode) == (0o640 if "Makefile" in rel else 0o755), rel
        assert (tree / "scale.cu").stat().st_ino == (tree / "scale2.cu").stat().st_ino
        assert (tree / "scale.cu.cuda-orig").stat().st_ino == (tree / "scale2.cu.cuda-orig").stat().st_ino
        assert (tree / "scale.cu.cuda-orig").read_text() == TREE["scale.cu"]
        assert "hipStream_t" in (tree / "scale2.cu").read_text()


# ---- read and write failures -----------------------------------------------------------------

def test_write_failures_are_one_line_and_leave_nothing_half_written(tree: Path, tmp_path: Path, port_env: dict[str, str]) -> None:
    whole = tmp_path / "whole"
    assert cass_port([str(tree), "-o", str(whole), "--hip-version", "5.2", "-q"], port_env).returncode == 0
    out = tmp_path / "out"
    proc = cass_port([str(tree), "-o", str(out), "--hip-version", "5.2", "-q"], port_env, fsize=1024)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert f"failed      scale.cu: cannot write {out / 'scale.cu'}: File too large" in proc.stderr.splitlines()
    whole_files = snapshot(whole)
    for rel, data in snapshot(out).items():  # each file is there whole or not at all
        if rel != MANIFEST:
            assert data == whole_files[rel], rel
    records = json.loads((out / MANIFEST).read_text())["files"]  # and recorded only when it is
    assert "scale.cu" not in records and records["data/input.txt"] == writes.file_identity(out / "data/input.txt")
    assert (out / "data/input.txt").exists() and no_temporaries(out)


def test_disk_full_during_inplace_keeps_the_original(tree: Path, run_port, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    real = writes.atomic_path

    @contextmanager
    def full(final: Any) -> Iterator[str]:
        with real(final) as tmp:
            if Path(final).name == "main.cpp.cuda-orig":
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), tmp)
            yield tmp

    monkeypatch.setattr(writes, "atomic_path", full)
    result = run_port(str(tree), "--inplace", "--hip-version", "5.2", "-q")
    assert result.exit_code == 1
    assert f"failed      main.cpp: cannot write {tree / 'main.cpp.cuda-orig'}: No space left on device" in result.stderr.splitlines()
    assert (tree / "main.cpp").read_text() == TREE["main.cpp"]  # without its backup it is not replaced
    assert not (tree / "main.cpp.cuda-orig").exists() and "hipStream_t" in (tree / "scale.cu").read_text()
    assert no_temporaries(tree)


def test_unreadable_and_vanished_files(tree: Path, tmp_path: Path, run_port, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    real_open, real_walk = writes.open_regular, port_pkg.walk

    def denied(path: Path) -> int:  # chmod 000 does not stop root: the error as the kernel gives it
        if path.name in ("main.cpp", "input.txt"):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(path)

    def then_remove(*args: Any) -> Any:
        entries = real_walk(*args)
        (tree / "kernels.cuh").unlink()
        return entries

    monkeypatch.setattr(writes, "open_regular", denied)
    monkeypatch.setattr(port_pkg, "walk", then_remove)
    out = tmp_path / "out"
    result = run_port(str(tree), "-o", str(out), "--hip-version", "5.2", "-q")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert f"failed      main.cpp: cannot read {tree / 'main.cpp'}: Permission denied" in lines
    assert f"failed      data/input.txt: cannot read {tree / 'data/input.txt'}: Permission denied" in lines
    assert f"failed      kernels.cuh: cannot read {tree / 'kernels.cuh'}: No such file or directory" in lines
    assert (out / "scale.cu").is_file() and not (out / "main.cpp").exists() and not (out / "data/input.txt").exists()


def test_output_folder_refusals(tree: Path, tmp_path: Path, run_port, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    cases = {
        str(a_file): f"Error: output {a_file} exists and is not a folder",
        str(a_file / "sub"): f"Error: cannot make the output folder {a_file / 'sub'}: Not a directory",
        str(tree / "sub"): f"Error: output folder {tree / 'sub'} is inside the source folder {tree}; choose one outside it",
    }
    for out, message in cases.items():
        result = run_port(str(tree), "-o", out, "--hip-version", "5.2", "-q")
        assert result.exit_code == 1 and result.stderr.strip().splitlines() == [message]
    locked = tmp_path / "locked"
    locked.mkdir()
    # chmod does not stop root: the probe's error as the kernel gives it for a read-only folder
    real_problem = port_pkg.output_problem
    monkeypatch.setattr(port_pkg, "output_problem",
                        lambda final: os.strerror(errno.EROFS) if Path(final).parent == locked else real_problem(final))
    result = run_port(str(tree), "-o", str(locked), "--hip-version", "5.2", "-q")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [f"Error: cannot write in the output folder {locked}: Read-only file system"]
    assert list(locked.iterdir()) == [] and not (tree / "sub").exists()


def test_unwritable_report_is_one_line(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "f").write_text("")
    result = run_port(str(tree), "--examine", "--hip-version", "5.2", "--report-json", str(tmp_path / "f/r.json"))
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1].startswith(f"Error: cannot write the report {tmp_path / 'f/r.json'}: ")


def test_inplace_leaves_a_non_utf8_file_alone(tree: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    bad = b"__global__ void k() {}\nint x\xff = 1;\n"
    (tree / "bad.cu").write_bytes(bad)
    result = run_port(str(tree), "--inplace", "--hip-version", "5.2", "-q")
    assert result.exit_code == 1 and "failed      bad.cu: bad.cu:2: source is not UTF-8 text (byte 0xff" in result.stderr
    assert (tree / "bad.cu").read_bytes() == bad and not (tree / "bad.cu.cuda-orig").exists()
    assert "hipStream_t" in (tree / "scale.cu").read_text()


def test_no_write_through_a_linked_folder_in_the_output(tree: Path, tmp_path: Path, run_port) -> None:  # type: ignore[no-untyped-def]
    (tree / "real").mkdir()
    (tree / "inc").symlink_to("real")  # recreated as a link in OUT
    out = tmp_path / "out"
    assert run_port(str(tree), "-o", str(out), "--hip-version", "5.2", "-q").exit_code == 0
    (tree / "inc").unlink()
    (tree / "inc").mkdir()  # now a folder of its own: OUT/inc is still the link
    (tree / "inc/extra.cuh").write_text("__device__ int one() { return 1; }\n")
    result = run_port(str(tree), "-o", str(out), "--hip-version", "5.2", "-q")
    assert result.exit_code == 1
    assert f"failed      inc/extra.cuh: cannot write {out / 'inc/extra.cuh'}: {out / 'inc'} is a symbolic link, not a folder" \
        in result.stderr.splitlines()
    assert not (out / "real/extra.cuh").exists()  # nothing written where the link leads
