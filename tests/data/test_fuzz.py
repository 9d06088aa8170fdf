"""cass_data/fuzz's own parts: the generator is deterministic and nvcc accepts what it writes, the
slot comparison knows NaNs and tolerances, the reducer shrinks a kernel to what keeps a property,
and a failing batch is bisected to the kernel that fails."""
from __future__ import annotations

import os
import struct
import subprocess

import pytest

from cass_data.fuzz import batch
from cass_data.fuzz.ast import Kernel, Slot
from cass_data.fuzz.check import bisect_build
from cass_data.fuzz.compare import differences
from cass_data.fuzz.gen import all_ops, batch_source, generate
from cass_data.fuzz.reduce import Outcome, reduce


def test_generator_is_a_function_of_seed_and_index() -> None:
    a = [generate("t", i).render() for i in range(6)]
    assert a == [generate("t", i).render() for i in range(6)]
    assert len(set(a)) == 6
    assert batch.inputs("t", 3) == batch.inputs("t", 3) != batch.inputs("t", 4)


def test_every_operation_has_a_one_operation_kernel() -> None:
    ops = all_ops()
    texts = {generate("ops", i).render() for i in range(len(ops))}
    assert len(texts) == len(ops) > 250


def test_nvcc_accepts_a_batch(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from cass_cc.toolchain import Toolchain, ToolchainError

    try:
        nvcc = Toolchain(os.environ).nvcc.path
    except ToolchainError as e:
        pytest.skip(f"needs nvcc: {e}")
    ks = batch.write(tmp_path, "ci", 0, 6)
    proc = subprocess.run([nvcc, "-cubin", "-O3", "-fmad=false", "-w", "-arch=sm_90", "-o", str(tmp_path / "fz.cubin"),
                           str(tmp_path / "fz.cu")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (tmp_path / "kernels.txt").read_text().count("\n") == len(ks) == 6


def _kernel(slots: list[Slot]) -> Kernel:
    return Kernel("k", 1, 1, [], [], slots, [])


def _words(*ws: int) -> bytes:
    return struct.pack(f"<{len(ws)}I", *ws)


def test_compare_nans_signed_zeros_and_tolerances() -> None:
    k = _kernel([Slot("f32"), Slot("f32", 2, "sinf"), Slot("f16"), Slot("u32")])
    same = differences(k, _words(0x7FC00000, 0x3F800001, 0x7E00, 5), _words(0x7FFFFFFF, 0x3F800000, 0x7FFF, 5))
    assert same == (0, [])  # any NaN is any NaN; 1 ulp within 2
    n, notes = differences(k, _words(0x80000000, 0x3F800004, 0x3C00, 6), _words(0x00000000, 0x3F800000, 0x3C01, 5))
    assert n == 4 and "slot 0" in notes[0]  # -0 is not +0; 4 ulps is not within 2; f16 bits; integers exact


def test_reduce_keeps_only_what_the_property_needs() -> None:
    k = generate("r", 11)
    marker = "fz_div_i32"
    if marker not in k.render():
        k = next(generate("r", i) for i in range(12, 200) if marker in generate("r", i).render())

    def test(c: Kernel) -> Outcome:
        return Outcome(marker in c.render(), "")

    small, tests = reduce(k, test, max_tests=3000)
    assert marker in small.render()
    assert small.size() < k.size() / 3, (small.size(), k.size())


def test_bisect_finds_the_one_bad_kernel() -> None:
    built: list[int] = []

    def build(items: list[int], tag: str) -> str:
        built.append(len(items))
        return "bad 13" if 13 in items else ""

    assert bisect_build(list(range(20)), build) == {13: "bad 13"}
    assert len(built) < 12
    assert batch_source([generate("t", 0)]).count('extern "C"') == 1


def test_resume_skips_whole_batches_and_drops_a_cut_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from cass_data.fuzz.run import finished

    report = tmp_path / "report.jsonl"
    rows = [{"seed": "s", "index": i, "path": p, "outcome": "same"} for i in range(40) for p in ("lifter", "rules")]
    rows = [r for r in rows if r["index"] < 20 or r["index"] in (20, 21)]  # batch 1 cut off after two kernels
    report.write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"seed": "s", "ind')
    assert finished(report, size=20) == {("s", 0)}
    assert report.read_text().endswith("}\n")  # the cut line is gone: the next record starts a line
    assert finished(tmp_path / "none.jsonl") == set()


def test_a_difference_the_unoptimised_build_agrees_with_is_nvccs() -> None:
    from cass_data.fuzz.check import judge

    k = generate("t", 0)
    words = k.out_words
    mine = struct.pack(f"<{words}I", *[0x3F800000] * words)  # 1.0 in every word, as float or integer
    other = struct.pack(f"<{words}I", *[0x40000000] * words)
    bad = struct.pack(f"<{words}I", *[0x40400000] * words)
    assert judge(k, mine, mine)["outcome"] == "same"
    assert judge(k, mine, other)["outcome"] == "differs"
    assert judge(k, mine, other, ("ok", mine))["outcome"] == "nvcc"
    assert judge(k, mine, other, ("ok", bad))["outcome"] == "differs"
    assert judge(k, mine, other, ("timeout", mine))["outcome"] == "differs"
