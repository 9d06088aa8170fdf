"""Level `proven`: lifted kernels run beside clang's kernel of the HIP translation on the gfx1100
emulator (cass_data/prove.py), inputs from the planner (cass_cc/sass/inputs.py)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from cass_cc.sass.cubin import Kernel, Param
from cass_cc.sass.inputs import SHAPES, PlanError, compare, make_buffers, pack, param_types, plan
from tests.data import helpers
from tests.data.test_pipeline import jsonl, needs_tools


def kernel(demangled: str, sizes: list[int], reqntid: tuple[int, int, int] | None = None) -> Kernel:
    params, off = [], 0
    for i, n in enumerate(sizes):
        off = (off + n - 1) // n * n if n in (1, 2, 4, 8) else off
        params.append(Param(i, off, n))
        off += n
    return Kernel(name="k", demangled=demangled, text=b"", params=params, param_size=off, reqntid=reqntid)


# ------------------------------------------------------------------ the planner

@pytest.mark.parametrize("demangled, types", [
    ("vecadd(float const*, float const*, float*, int)", ["float const*", "float const*", "float*", "int"]),
    ("void block_sum<256>(int const*, int*, int)", ["int const*", "int*", "int"]),
    ("void f<float, 3>(Pair<int, float>, double*)", ["Pair<int, float>", "double*"]),
    ("k()", []),
    ("k(void)", []),
    ("kernel_c", None),
])
def test_param_types(demangled: str, types: list[str] | None) -> None:
    assert param_types(demangled) == types


def test_plan_from_signature_and_offsets() -> None:
    p = plan(kernel("saxpy(int, float, float const* __restrict__, double*, unsigned char, Pair)", [4, 4, 8, 8, 1, 8]))
    assert [(a.kind, a.offset, a.size, a.dtype) for a in p.args] == [
        ("int", 0, 4, ""), ("float", 4, 4, ""), ("buf", 8, 8, "float32"), ("buf", 16, 8, "float64"),
        ("int", 24, 1, ""), ("bytes", 32, 8, "")]
    assert p.param_size == 40 and p.grid == (3, 1, 1) and p.block == (64, 1, 1)
    blob = pack(p, [0x1000, 0x2000])
    assert len(blob) == 40
    assert int.from_bytes(blob[0:4], "little") == 64 and np.frombuffer(blob[4:8], np.float32)[0] == 1.5
    assert int.from_bytes(blob[8:16], "little") == 0x1000 and int.from_bytes(blob[16:24], "little") == 0x2000
    assert blob[24] == 64 and blob[32:40] == bytes([2, 0, 0, 0, 2, 0, 0, 0])
    flag = plan(kernel("k(bool, int)", [1, 4]))
    assert pack(flag, [])[0] == 1 and pack(flag, [])[4] == 64  # a bool is 0 or 1, never 64
    wide = p.with_shape(SHAPES[1])
    assert wide.block == (256, 1, 1) and wide.int_value == 256 and pack(wide, [1, 2])[0:4] == (256).to_bytes(4, "little")


def test_required_block_size_is_kept() -> None:
    p = plan(kernel("k(float*)", [8], reqntid=(128, 1, 1)))
    assert p.block == (128, 1, 1) and p.with_shape(SHAPES[2]).block == (128, 1, 1)


@pytest.mark.parametrize("demangled, sizes, why", [
    ("k(float**, int)", [8, 4], "pointer to pointer"),
    ("k(Particle*, int)", [8, 4], "pointer to 'Particle'"),
    ("k(float*)", [8, 4], "signature has 1 parameters, the cubin 2"),
    ("kernel_c", [8], "no parameter types"),
])
def test_unplannable_kernels_say_why(demangled: str, sizes: list[int], why: str) -> None:
    with pytest.raises(PlanError, match=re.escape(why)):
        plan(kernel(demangled, sizes))


def test_buffers_and_comparison() -> None:
    p = plan(kernel("k(float*, int*, float const*)", [8, 8, 8]))
    a = make_buffers(p)
    assert [x.dtype for x in a] == [np.float32, np.int32, np.float32]
    assert a[0].min() < 0 < a[0].max() <= 1 and 0 <= a[1].min() and a[1].max() < 64
    assert a[0].tobytes() != a[2].tobytes()  # positions differ: swapped buffers show
    assert all(x.tobytes() == y.tobytes() for x, y in zip(a, make_buffers(p)))  # deterministic
    b = [x.copy() for x in a]
    assert compare(p, a, b) == (True, "bytes")
    b[0][5] = np.nextafter(b[0][5], np.float32(2))
    assert compare(p, a, b) == (True, "floats within rtol 1e-05")
    b[0][7] += 0.5
    same, how = compare(p, a, b)
    assert not same and how.startswith("buffer 0 (float*): 1 elements differ, first [7]")
    c = [x.copy() for x in a]
    c[1][3] += 1
    assert compare(p, a, c) == (False, "buffer 1 (int*): 1 bytes differ")


def test_bfloat16_buffers_hold_values_and_compare_within_one_step() -> None:
    p = plan(kernel("void k<__nv_bfloat16>(__nv_bfloat16*, __nv_bfloat162 const*)", [8, 8]))
    assert [a.dtype for a in p.buffers] == ["bfloat16", "bfloat16"]
    a = make_buffers(p)
    assert [x.dtype for x in a] == [np.uint16, np.uint16]
    values = (a[0].astype(np.uint32) << 16).view(np.float32)
    assert -1 <= values.min() < 0 < values.max() < 1 and np.abs(values).max() > 0.5  # values, not bit noise
    b = [x.copy() for x in a]
    k = int(np.argmax(np.abs(values)))
    b[0][k] += 1  # one bfloat16 step
    assert compare(p, a, b) == (True, "floats within rtol 0.0078125")
    b[0][k] += 3
    same, how = compare(p, a, b)
    assert not same and how.startswith(f"buffer 0 (__nv_bfloat16*): 1 elements differ, first [{k}]")


def test_clangs_kernel_is_found_by_its_cuda_signature() -> None:
    """HIP's bf16 and vector types mangle otherwise than CUDA's: the pair still has clang's kernel."""
    from cass_data.prove import has_kernel

    clang = {"_Z6bf_addPKfS0_S0_P14__hip_bfloat16i", "_Z1kP15HIP_vector_typeIiLj3EE", "_Z6vecaddPKfS0_Pfi"}
    assert has_kernel(clang, "_Z6vecaddPKfS0_Pfi")
    assert has_kernel(clang, "_Z6bf_addPKfS0_S0_P13__nv_bfloat16i")
    assert has_kernel(clang, "_Z1kP4int3")
    assert not has_kernel(clang, "_Z1kP5uint3") and not has_kernel(set(), "_Z6vecaddPKfS0_Pfi")


# ------------------------------------------------------------------ the pipeline

@pytest.fixture(scope="session")
def full() -> Path:
    return helpers.full_run()


@needs_tools
def test_lifted_pairs_are_proven(full: Path) -> None:
    rows = jsonl(full / "work" / "pairs.jsonl")
    lifted = [r for r in rows if r["task"] == "sass-rdna3-lifted"]
    assert len(lifted) >= 20
    for r in lifted:  # every lifted kernel of the corpus has clang's kernel beside it, and agrees with it
        assert r["level"] == "proven", (r["unit"], r["kernel"], r["verify"])
        assert r["verify"].startswith("emulator: agrees with clang's gfx1100 kernel on the emulator: ")
        assert re.search(r"buffers compared \((bytes|floats within rtol 1e-05)\), [1-9]\d* written; ", r["verify"])
    kernels = {(r["kernel"], r["sm"]) for r in lifted}
    for name in ("_Z6vecaddPKfS0_Pfi", "_Z5histoPKhiPj", "_Z9block_sumILi256EEvPKiPii", "_Z11scan_blocksPKfPfi",
                 "_Z10relu_clampPfif"):
        assert {(name, "sm_80"), (name, "sm_90")} <= kernels
    report = json.loads((full / "work" / "report.json").read_text())
    assert report["proof"] == {"proven": len(lifted)}
    assert report["levels"]["sass-rdna3-lifted: proven"] == len(lifted)
    assert all(r["level"] != "proven" for r in rows if r["task"] != "sass-rdna3-lifted")


def _corrupt(module: str) -> str:
    """A wrong lifted kernel: its first float add becomes a subtract (still assembles)."""
    bad, n = re.subn(r"\bv_add_f32(_e32|_e64)?\b", lambda m: "v_sub_f32" + (m.group(1) or ""), module, count=1)
    assert n == 1, "no v_add_f32 in the lifted vecadd"
    return bad


@needs_tools
def test_planted_wrong_lifted_kernel_is_rejected(full: Path, tmp_path: Path) -> None:
    """A corrupted lifted .s swapped into vecadd's extract record: the prove stage, recomputed for
    every unit on Ray local mode, rejects exactly that pair; every other row is what the full run
    (a process pool) made, byte for byte."""
    pytest.importorskip("ray")
    from cass_data.asm import rdna3_kernels
    from cass_data.store import Store

    work = tmp_path / "work"
    shutil.copytree(full / "work", work)
    store = Store(work / "store")
    unit = "alpha:alpha/vecadd.cu"
    ekey = next(line["key"] for line in jsonl(work / "extract.jsonl") if line["id"] == unit)
    record = store.get(ekey)
    assert record is not None
    wrong = next(p for p in record["pairs"] if p["task"] == "sass-rdna3-lifted" and p["sm"] == "sm_80")
    record["modules"][wrong["module"]] = _corrupt(record["modules"][wrong["module"]])
    wrong["rdna3"] = rdna3_kernels(record["modules"][wrong["module"]])[wrong["kernel"]]
    store.put(ekey, record)
    for line in jsonl(work / "prove.jsonl"):
        store.path(line["key"]).unlink()
    helpers.cass_data(["verify", "-w", str(work), "--ray", "local", "--no-progress"])

    report = json.loads((work / "report.json").read_text())
    assert report["stages"]["prove"] == {"cached": 0, "computed": 11}
    assert report["proof"]["rejected: lifted kernel differs on the emulator"] == 1
    pkey = next(line["key"] for line in jsonl(work / "prove.jsonl") if line["id"] == unit)
    outcome = store.get(pkey)["pairs"][f"sm_80|vecadd.cu|{wrong['kernel']}"]
    assert outcome["outcome"] == "differs" and outcome["reason"] == "lifted kernel differs on the emulator"
    assert re.match(r"buffer 2 \(float\*\): \d+ elements differ, first \[0\]", outcome["detail"])
    before = {r["id"]: r for r in jsonl(full / "work" / "pairs.jsonl")}
    after = {r["id"]: r for r in jsonl(work / "pairs.jsonl")}
    gone = set(before) - set(after)
    assert set(after) <= set(before) and len(gone) == 1
    (dropped,) = (before[i] for i in gone)
    assert (dropped["unit"], dropped["task"], dropped["sm"]) == (unit, "sass-rdna3-lifted", "sm_80")
    assert all(after[i] == before[i] for i in after)


LAUNCHES = """
#define TILE 8
#define THREADS (2 * 128)
const int kRows = 4;
__global__ void scale(float* x) {}
template <int B> __global__ void block_sum(const int* in, int* out, int n) {}
int main() {
    dim3 block(TILE, TILE);
    dim3 wide = dim3(32, kRows);
    gemm<<<grid, block>>>(a, b, c, 64, 64, 64);
    tile_t<<<g, wide, 0, stream>>>(a);
    scale<<<(n + THREADS - 1) / THREADS, THREADS>>>(x);
    block_sum<256><<<blocks, 256u>>>(in, out, n);
    odd<<<1, n>>>(x);
    flat<<<1, dim3(16, 2, 2)>>>(x);
}
"""


@pytest.mark.parametrize("demangled, block", [
    ("gemm(float const*, float const*, float*, int, int, int)", (8, 8, 1)),
    ("tile_t(float*)", (32, 4, 1)),
    ("scale(float*)", (256, 1, 1)),
    ("void block_sum<256>(int const*, int*, int)", (256, 1, 1)),
    ("odd(float*)", None),  # the block is a variable
    ("flat(float*)", (16, 2, 2)),
    ("missing(float*)", None),
])
def test_block_size_from_the_programs_launch(demangled: str, block: tuple[int, int, int] | None) -> None:
    from cass_cc.sass.inputs import shapes, source_block

    assert source_block({"main.cu": LAUNCHES}, demangled) == block
    tried = shapes(block)
    assert tried[-len(SHAPES):] == list(SHAPES)
    if block is not None:
        assert tried[0].block == block and tried[0].grid == ((3, 1, 1) if block[1:] == (1, 1) else (2, 2, 1))
