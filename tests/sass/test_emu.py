"""The lifted kernels' gfx1100 code (llc-16, llvm-mc-16, ld.lld-16) run on the emulator
(cass_cc/emu), for what the CPU harness cannot show: the private segment and how llc
addresses it. Inputs, argument packing and the comparison are the harness's own."""
from __future__ import annotations

import ctypes
import os
import random
from pathlib import Path

import pytest

from tests.conftest import have
from tests.sass import harness
from tests.sass.kernels import CASES, Buf

NP = {"i32": "int32", "u32": "uint32", "i64": "int64", "f32": "float32", "f64": "float64"}
# trig_huge: sinf's Payne-Hanek reduction reads its local array at `R1 + 4 * (6 - k)`; llc-16
# folded that into a scratch load of VGPR `-4*k` at `offset:K`, outside the private segment
# (mem.py _local_offset). The others: the fuzz's defects, checked on the gfx1100 side too.
EMU_CASES = ["trig_huge", "int_to_bf16", "int_to_half", "half_to_int", "vadd2", "fdiv_zero", "f64_special", "half_rint", "double_to_16",
             "sad_diff", "half_sat", "bf16_compare", "half_nan_vote", "atomic_vote_branch",
             "float_sat_zero", "wide_mul_signbits", "loop_uniform_mask"]

pytestmark = pytest.mark.skipif(not (have("llvm-mc-16") and have("ld.lld-16")), reason="needs llvm-mc-16 and ld.lld-16")


@pytest.fixture(scope="module")
def code_objects(sass_build, tmp_path_factory):
    from cass_cc.emu import load
    from cass_cc.sass import codegen
    from cass_cc.toolchain import Toolchain

    tc = Toolchain(os.environ)
    tmp = tmp_path_factory.mktemp("emu")
    cos = {}
    for sm, smb in sass_build.sms.items():
        s = Path(tmp) / f"sm_{sm}.s"
        s.write_text(smb.asm)
        codegen.assemble(s, s.with_suffix(".o"), str(tc.llvm_mc.path))
        codegen.link(s.with_suffix(".o"), s.with_suffix(".co"), str(tc.ld_lld.path))
        cos[sm] = load(s.with_suffix(".co"))
    return cos


@pytest.mark.parametrize("sm", harness.SMS)
@pytest.mark.parametrize("name", EMU_CASES)
def test_on_emulator(sass_build, code_objects, sm: int, name: str) -> None:
    import numpy as np

    from cass_cc.emu import launch
    from cass_cc.emu.memory import Memory

    case = next(c for c in CASES if c.name == name)
    k = sass_build.sms[sm].kernel(name)
    rng = random.Random(case.name)
    mem = Memory()
    rbufs, kbufs, device = [], [], {}
    for a in case.args:
        assert isinstance(a, Buf)
        vals = harness._values(a, rng) if a.kind != "out" else [0] * a.n
        ct = harness.CTYPES[a.ty] * a.n
        rbufs.append(ct(*vals))
        kbufs.append(ct(*vals))
        device[id(kbufs[-1])] = mem.alloc(ctypes.sizeof(ct), f"arg {len(kbufs) - 1}", bytes(kbufs[-1]))
    layout = [(p.offset, p.size) for p in k.params]
    packed = harness.kernargs(case, kbufs, layout, address=lambda buf: device[id(buf)])
    launch(code_objects[sm], k.name, case.grid, case.block, [], memory=mem, budget=200_000_000, kernarg=bytes(packed))
    sass_build.refs[f"ref_{name}"](*[ctypes.c_uint(x) for x in (*case.grid, *case.block, case.dyn)], harness._pack(case, rbufs, layout))
    bad = []
    for idx, a in enumerate(case.args):
        if a.kind == "in":
            continue
        got = np.frombuffer(mem.read(device[id(kbufs[idx])], ctypes.sizeof(kbufs[idx])), NP[a.ty])
        bad += [f"arg {idx}[{i}]: emulator {got[i].item()!r}, reference {rbufs[idx][i]!r}" for i in range(a.n)
                if not harness._same(got[i].item(), rbufs[idx][i], a.ty, case.rtol)]
    assert not bad, f"{len(bad)} differ: " + "; ".join(bad[:8])


# Two fuzz kernels (seed t1, kernels 2 and 7, from cass_data.fuzz's generator, kept as text): fz7's
# aggregated atomics elect a leader lane from the active mask. Instcombine made ballot(true) a
# read_register of exec_lo, which GVN merged with the kernel's first one (all lanes) inside later
# branches, so two leaders added to fz_sacc[7]; opt did so only with fz2 in the module.
MODULE_PAIR = Path(__file__).with_name("data") / "fuzz_t1_2_7.cu"


@pytest.mark.skipif(not have("nvcc"), reason="needs nvcc")
def test_kernel_same_alone_or_in_a_module(tmp_path: Path) -> None:
    """A kernel's output on the emulator does not depend on the other kernels of its cubin."""
    import subprocess
    from dataclasses import replace

    import numpy as np

    from cass_cc.emu import launch, load
    from cass_cc.sass import codegen
    from cass_cc.sass.cubin import read
    from cass_cc.toolchain import Toolchain

    tc = Toolchain(os.environ)
    cub = tmp_path / "pair.cubin"
    subprocess.run([tc.nvcc.path, "-cubin", "-O3", "-fmad=false", "-w", "-arch=sm_90", "-o", str(cub), str(MODULE_PAIR)],
                   check=True, capture_output=True)
    report = codegen.lift_cubin(read(cub)[0], tc.nvdisasm.path)
    assert not report.failed

    def code_object(names: set[str], stem: str):  # type: ignore[no-untyped-def]
        ir = codegen.ir_module(replace(report, lifted=[lk for lk in report.lifted if lk.name in names]))
        s = tmp_path / f"{stem}.s"
        s.write_text(codegen.gfx1100_asm(ir, tc.tool("opt").path, tc.tool("llc").path))
        codegen.assemble(s, s.with_suffix(".o"), tc.llvm_mc.path)
        codegen.link(s.with_suffix(".o"), s.with_suffix(".co"), tc.ld_lld.path)
        return load(s.with_suffix(".co"))

    rng = random.Random(7)
    inp = np.array([rng.choice((rng.randint(-64, 64) & 0xFFFFFFFF, rng.getrandbits(32))) for _ in range(1024)], np.uint32)
    out_words = 2 * 128 * 4 + 24  # grid 2 x 128 threads, 4 slots each, then 24 atomic words
    outs = [launch(code_object(names, stem), "fz7", (2, 1, 1), (128, 1, 1), [inp.copy(), np.zeros(out_words, np.uint32)])[1]
            for names, stem in (({"fz2", "fz7"}, "pair"), ({"fz7"}, "alone"))]
    bad = np.nonzero(outs[0] != outs[1])[0]
    assert not len(bad), "; ".join(f"word {j}: in the module {outs[0][j]:#x}, alone {outs[1][j]:#x}" for j in bad[:8])


TILE_GROUPS = Path(__file__).with_name("data") / "tile_groups.cu"


@pytest.mark.skipif(not have("nvcc"), reason="needs nvcc")
def test_tile_group_votes(tmp_path: Path) -> None:
    """A tile's WARPSYNC.EXCLUSIVE left standing splits the warp for votes and atomics too."""
    import subprocess

    import numpy as np

    from cass_cc.emu import launch, load
    from cass_cc.sass import codegen
    from cass_cc.sass.cubin import read
    from cass_cc.toolchain import Toolchain

    tc = Toolchain(os.environ)
    cub = tmp_path / "tiles.cubin"
    subprocess.run([tc.nvcc.path, "-cubin", "-O3", "-arch=sm_90", "-o", str(cub), str(TILE_GROUPS)], check=True, capture_output=True)
    report = codegen.lift_cubin(read(cub)[0], tc.nvdisasm.path)
    assert not report.failed
    s = tmp_path / "tiles.s"
    s.write_text(codegen.gfx1100_asm(codegen.ir_module(report), tc.tool("opt").path, tc.tool("llc").path))
    codegen.assemble(s, s.with_suffix(".o"), tc.llvm_mc.path)
    codegen.link(s.with_suffix(".o"), s.with_suffix(".co"), tc.ld_lld.path)
    co = load(s.with_suffix(".co"))

    # what an H200 gave for tile_votes, one block of 64 threads, in[k] = k * k
    sq = (np.arange(1024, dtype=np.uint64) ** 2).astype(np.uint32)
    out = launch(co, "tile_votes", (1, 1, 1), (64, 1, 1), [sq, np.zeros(2048, np.uint32)])[1]
    upper = [(lane & 16) != 0 for lane in range(32)]
    want = [(0xFFFF0000, 392, 0xAAAA0000) if upper[t & 31] else (0x0000FFFF, 136, 0x0000AAAA) for t in range(64)]
    got = [tuple(int(x) for x in out[3 * t:3 * t + 3]) for t in range(64)]
    bad = [f"thread {t}: {tuple(map(hex, got[t]))}, the GPU {tuple(map(hex, want[t]))}" for t in range(64) if got[t] != want[t]]
    assert not bad, "; ".join(bad[:6])
    assert int(out[1000]) == 86336

    # tile_loop: the sum over __activemask()'s lanes is over the same lanes the mask names
    rng = random.Random(3)
    inp = np.array([rng.getrandbits(32) for _ in range(512)], np.uint32)
    out = launch(co, "tile_loop", (4, 1, 1), (128, 1, 1), [inp, np.zeros(1025, np.uint32)])[1]
    assert (out[0:1024:2] == 1).all() and (out[1:1024:2] == 0).all()
    assert int(out[1024]) == int((inp.astype(np.uint64) + np.arange(512) % 32).sum()) % 2**32


MEMBER_MASKS = Path(__file__).with_name("data") / "member_masks.cu"


@pytest.mark.skipif(not have("nvcc"), reason="needs nvcc")
@pytest.mark.parametrize("arch", ["sm_80", "sm_89", "sm_90"])
def test_collectives_with_non_constant_member_masks(tmp_path: Path, arch: str) -> None:
    """A 16-lane tile's cg::reduce and __reduce_add_sync with per-lane masks read from memory (sm_80/89:
    BRA on a uniform register, R2UR to a predicate) lift and sum over exactly the mask's lanes."""
    import subprocess

    import numpy as np

    from cass_cc.emu import launch, load
    from cass_cc.sass import codegen
    from cass_cc.sass.cubin import read
    from cass_cc.toolchain import Toolchain

    tc = Toolchain(os.environ)
    cub = tmp_path / "masks.cubin"
    subprocess.run([tc.nvcc.path, "-cubin", "-O3", f"-arch={arch}", "-o", str(cub), str(MEMBER_MASKS)], check=True, capture_output=True)
    report = codegen.lift_cubin(read(cub)[0], tc.nvdisasm.path)
    assert not report.failed, report.failed
    s = tmp_path / "masks.s"
    s.write_text(codegen.gfx1100_asm(codegen.ir_module(report), tc.tool("opt").path, tc.tool("llc").path))
    codegen.assemble(s, s.with_suffix(".o"), tc.llvm_mc.path)
    codegen.link(s.with_suffix(".o"), s.with_suffix(".co"), tc.ld_lld.path)
    co = load(s.with_suffix(".co"))

    rng = np.random.default_rng(80)
    n = 128
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    out = launch(co, "tile_reduce", (2, 1, 1), (64, 1, 1), [x, np.zeros(n, np.int32)])[1]
    assert (out == np.repeat(x.reshape(-1, 16).sum(axis=1), 16)).all()

    # each warp: its lanes split into groups by a random 4-way colouring, every lane naming its group
    masks = np.zeros(n, np.uint32)
    for w in range(n // 32):
        colour = rng.integers(0, 4, 32)
        for c in range(4):
            bits = sum(1 << int(k) for k in np.nonzero(colour == c)[0])
            masks[32 * w + np.nonzero(colour == c)[0]] = bits
    out = launch(co, "masked_reduce", (2, 1, 1), (64, 1, 1), [x, masks, np.zeros(n, np.int32)])[2]
    want = [sum(int(x[32 * (i // 32) + k]) for k in range(32) if (int(masks[i]) >> k) & 1) for i in range(n)]
    assert out.tolist() == want
