"""Damaged gfx1100 code objects through `cass-cc emu-run`: a one-line refusal naming the file, never
a traceback, a hang or a huge allocation (issue 22). The CI slice of cass-data hostile codeobjects,
then one test per defect it found, each on a seed kernel with one field changed."""
from __future__ import annotations

import os
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cass_data.hostile import codeobjects as fam
from tests.conftest import SHARED_CACHE
from tests.emu.conftest import needs_amd

pytestmark = needs_amd
WORK = SHARED_CACHE / "hostile-codeobjects"


@pytest.fixture(scope="module")
def seeds() -> dict[str, fam.Built]:
    return {b.seed.name: b for b in fam.build_seeds(WORK)}


def emu_run(built: fam.Built, data: bytes, tmp_path: Path, *extra: str, pre: str = "") -> subprocess.CompletedProcess:
    """bin/cass-cc emu-run on `data` (the seed's arguments) under the harness's host memory cap;
    `pre` is Python run first in the child (to hide a module)."""
    path = tmp_path / f"{built.seed.name}.co"
    path.write_bytes(data)
    case = fam.Case(0, built, path, "")
    argv = case.argv()[:-2] + ["--time-limit", "20", *extra]
    code = (f"import resource, runpy, sys\n{pre}\n"
            f"resource.setrlimit(resource.RLIMIT_AS, ({fam.HOST_MEMORY_LIMIT}, {fam.HOST_MEMORY_LIMIT}))\n"
            f"sys.argv = ['cass-cc', *sys.argv[1:]]\n"
            f"runpy.run_path({str(fam.CASS_CC[1])!r}, run_name='__main__')\n")
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))


def refused(p: subprocess.CompletedProcess, path_part: str, *words: str) -> None:
    """Exit 1, one stderr line naming the file and saying `words`, no traceback."""
    lines = p.stderr.splitlines()
    assert p.returncode == 1, p.stderr
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    assert path_part in lines[0] and all(w in lines[0] for w in words), lines[0]


def test_ci_slice_no_traceback_or_hang(seeds, tmp_path):
    """200 mutants (seed "ci") in forked workers: 0 tracebacks, hangs or unclear refusals. emu-run's
    time limit is 1 s here (mutants that loop forever cost that much each)."""
    fam.preload()
    built = list(seeds.values())
    tally = fam.Tally("codeobjects")
    for i in range(200):
        case = fam.make_case(built, "ci", i, tmp_path, time_limit=1)
        tally.add(fam.judge(case, fam.run_inprocess(case, fam.TIMEOUT)), (case.what, case.path.name))
    assert tally.failures == 0, tally.to_json()
    assert tally.counts["ok"] and tally.counts["refused"] > 50, tally.summary()  # both kinds are exercised


def _kd(built: fam.Built, field: str, value: int) -> bytes:
    data = bytearray(built.data)
    off, width = fam.KD_FIELDS[field]
    data[built.layout.descriptors[0] + off: built.layout.descriptors[0] + off + width] = value.to_bytes(width, "little")
    return bytes(data)


def test_truncated_file_is_one_line(seeds, tmp_path):  # was ELFParseError from pyelftools
    b = seeds["vadd"]
    refused(emu_run(b, b.data[: b.layout.shdrs[0] + 10], tmp_path), "vadd.co", "section header table",
            "past the end of the file")


def test_metadata_string_not_utf8(seeds, tmp_path):  # was UnicodeDecodeError in the msgpack reader
    b = seeds["vadd"]
    off, size = b.layout.note
    at = b.data.index(b".value_kind", off, off + size)
    data = b.data[:at + 1] + b"\xff" + b.data[at + 2:]
    refused(emu_run(b, data, tmp_path), "vadd.co", "metadata note", "not UTF-8")


def test_metadata_root_not_a_map(seeds, tmp_path):  # was AttributeError: 'int' object has no attribute 'get'
    b = seeds["vadd"]
    off = b.layout.note[0]
    data = b.data[:off] + b"\x05" + b.data[off + 1:]
    refused(emu_run(b, data, tmp_path), "vadd.co", "metadata note", "not a map")


def test_huge_private_segment_is_refused_not_allocated(seeds, tmp_path):  # was 32 GiB of scratch
    b = seeds["local_pick"]
    start = time.monotonic()
    p = emu_run(b, _kd(b, "private_segment_fixed_size", 0xFFFF0000), tmp_path)
    refused(p, "local_pick.co", "private segment", str(fam_limit("SCRATCH_PER_LANE_MAX")))
    assert time.monotonic() - start < 60


def fam_limit(name: str) -> int:
    from cass_cc.emu import loader

    return getattr(loader, name)


def test_large_legal_private_segment_runs(seeds, tmp_path):
    """The bounds refuse only what gfx1100 cannot do: 65,535 bytes of scratch per lane (metadata
    field raised in place) is allowed and runs."""
    b = seeds["local_pick"]
    off, size = b.layout.note
    key = b.data.index(b".private_segment_fixed_size", off, off + size) + len(".private_segment_fixed_size")
    assert b.data[key] == 0xCD  # MessagePack uint16 (272 in the seed)
    data = b.data[:key + 1] + b"\xff\xff" + b.data[key + 3:]
    p = emu_run(b, data, tmp_path)
    assert p.returncode == 0, p.stderr


def test_group_segment_over_64k(seeds, tmp_path):
    b = seeds["block_sum"]
    refused(emu_run(b, _kd(b, "group_segment_fixed_size", 0x10001), tmp_path), "block_sum.co", "group segment",
            str(64 * 1024))


def test_vgpr_count_over_256(seeds, tmp_path):
    b = seeds["vadd"]
    raw = struct.unpack_from("<I", b.data, b.layout.descriptors[0] + 48)[0]
    refused(emu_run(b, _kd(b, "compute_pgm_rsrc1", raw | 0x3F), tmp_path), "vadd.co", "VGPR count", "256")


def test_vgprs_fewer_than_used(seeds, tmp_path):
    """A descriptor allocating fewer VGPRs than the code uses: one line that says so, not a bare IndexError."""
    b = seeds["local_pick"]
    raw = struct.unpack_from("<I", b.data, b.layout.descriptors[0] + 48)[0]
    refused(emu_run(b, _kd(b, "compute_pgm_rsrc1", raw & ~0x3F), tmp_path), "local_pick.co",
            "the kernel descriptor allocates 8 VGPRs")


def test_kernarg_size_over_limit(seeds, tmp_path):
    b = seeds["vadd"]
    refused(emu_run(b, _kd(b, "kernarg_size", 0xFFFFFFFF), tmp_path), "vadd.co", "kernarg segment")


def test_segment_span_past_memory_budget(seeds, tmp_path):  # was bytearray(p_vaddr + p_memsz)
    b = seeds["vadd"]
    data = bytearray(b.data)
    struct.pack_into("<Q", data, b.layout.phdrs[1] + 40, 1 << 40)  # PT_LOAD p_memsz: 1 TiB
    refused(emu_run(b, bytes(data), tmp_path), "vadd.co", "budget for a code object's image")


def test_memory_limit_refuses_large_buffer(seeds, tmp_path):
    b = seeds["vadd"]
    p = emu_run(b, b.data, tmp_path, "--memory-limit", "256")  # smaller than the kernarg segment
    refused(p, "vadd.co", "memory budget")


def test_loop_that_never_ends_stops_at_time_limit(seeds, tmp_path):
    b = seeds["vadd"]
    entry_file = b.layout.text[0]  # the kernel's first instruction: s_branch -1 (branch to itself)
    data = b.data[:entry_file] + struct.pack("<I", 0xBFA0FFFF) + b.data[entry_file + 4:]
    start = time.monotonic()
    p = emu_run(b, data, tmp_path, "--time-limit", "1")
    refused(p, "vadd.co", "time limit")
    assert time.monotonic() - start < 30


def test_seed_runs(seeds, tmp_path):
    """The unmutated seeds run (so the refusals above are the mutation's doing)."""
    for b in seeds.values():
        p = emu_run(b, b.data, tmp_path)
        assert p.returncode == 0, (b.seed.name, p.stderr)


@pytest.mark.parametrize("module", ["numpy", "tinygrad"])
def test_missing_emu_extra_is_one_line(seeds, tmp_path, module):
    b = seeds["vadd"]
    p = emu_run(b, b.data, tmp_path, pre=f"sys.modules[{module!r}] = None")
    assert p.returncode == 1 and len(p.stderr.splitlines()) == 1, p.stderr
    assert "'emu'" in p.stderr and "cass-cc[emu]" in p.stderr and module in p.stderr


def test_extra_named_from_setup_cfg():
    from cass_cc.extras import extras_providing

    assert extras_providing("numpy") == ["emu"] and extras_providing("tinygrad.renderer.amd") == ["emu"]
    assert extras_providing("click") == []  # a required dependency is no extra
