"""The cubin reader: metadata from nvcc's cubins, host objects holding fatbins, and damaged
files, which must fail with one CubinError line naming the file and nothing else."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from cass_cc.sass import cubin
from cass_cc.sass.disasm import CBank, Imm, Label, Mem, Pred, Reg, parse_insn


def test_metadata_and_fatbin_object(sass_build, tmp_path: Path) -> None:
    smb = sass_build.sms[80]
    k = smb.kernel("saxpy")
    assert k.demangled == "saxpy(int, float, float const*, float*)"
    assert [(p.offset, p.size) for p in k.params] == [(0, 4), (4, 4), (8, 8), (16, 8)]
    assert k.param_base == 0x160 and k.param_size == 24 and k.cbank0_size == 0x160 + 24
    assert smb.kernel("static_and_dyn_shared").shared_size == 32  # 20 bytes, 16-aligned
    assert 3 in smb.cubin.cbanks  # __constant__ data
    # a fatbin inside an ELF object, and a bare fatbin
    blob = Path(smb.cubin.path).read_bytes()
    header = (0xBA55ED50).to_bytes(4, "little") + (1).to_bytes(2, "little") + (16).to_bytes(2, "little")
    entry = (2).to_bytes(2, "little") + (0x101).to_bytes(2, "little") + (64).to_bytes(4, "little") + len(blob).to_bytes(8, "little") + bytes(48)
    fat = tmp_path / "k.fatbin"
    fat.write_bytes(header + (len(entry) + len(blob)).to_bytes(8, "little") + entry + blob)
    (got,) = cubin.read(fat)
    assert [x.name for x in got.kernels] == [x.name for x in smb.cubin.kernels]


def _expect_clean_error(path: Path) -> None:
    try:
        cubin.read(path)
    except cubin.CubinError as e:
        msg = str(e)
        assert "\n" not in msg and str(path) in msg


def test_truncated_and_flipped_files_fail_cleanly(sass_build, tmp_path: Path) -> None:
    data = Path(sass_build.sms[90].cubin.path).read_bytes()
    rng = random.Random(6)
    bad = tmp_path / "bad.cubin"
    for cut in sorted({0, 1, 3, 4, 16, 63, 64, 100, len(data) // 3, len(data) // 2, len(data) - 1} | {rng.randrange(len(data)) for _ in range(40)}):
        bad.write_bytes(data[:cut])
        _expect_clean_error(bad)
    for _ in range(150):
        buf = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        bad.write_bytes(bytes(buf))
        _expect_clean_error(bad)
    (tmp_path / "none.cubin").write_text("not a cubin")
    with pytest.raises(cubin.CubinError, match="none.cubin: not an ELF"):
        cubin.read(tmp_path / "none.cubin")
    with pytest.raises(cubin.CubinError, match="missing.cubin"):
        cubin.read(tmp_path / "missing.cubin")


@pytest.mark.parametrize(
    "text, opcode, mods, operands",
    [
        ("@!P0 LDG.E.64 R2, desc[UR4][R2.64+0x10]", "LDG", ("E", "64"), [Reg("R2"), Mem(Reg("R2"), True, 1, None, 16, Reg("UR4", True))]),
        ("STS [R7.X4+UR4+-0x8], R0", "STS", (), [Mem(Reg("R7"), False, 4, Reg("UR4", True), -8), Reg("R0")]),
        ("IADD3.X R3, R0, c[0x0][0x164], RZ, P0, !PT", "IADD3", ("X",), [Reg("R3"), Reg("R0"), CBank(0, 0x164), Reg("RZ"), Pred("P0"), Pred("PT", True)]),
        ("FSETP.GTU.FTZ.AND P0, PT, |R2|.reuse, +INF , PT", "FSETP", ("GTU", "FTZ", "AND"), [Pred("P0"), Pred("PT"), Reg("R2", abs=True), Imm(float("inf"), True), Pred("PT")]),
        ("@!P1 BRA !P2, `(.L_x_10)", "BRA", (), [Pred("P2", True), Label(".L_x_10")]),
        ("LDC R5, c[0x0][R4+0x160]", "LDC", (), [Reg("R5"), CBank(0, 0x160, Reg("R4"))]),
        ("IMAD.MOV R7, RZ, RZ, -R9", "IMAD", ("MOV",), [Reg("R7"), Reg("RZ"), Reg("RZ"), Reg("R9", neg=True)]),
        ('STL.128 [R1+0x950], R212                    (*"SpillRefill"*)', "STL", ("128",), [Mem(Reg("R1"), False, 1, None, 0x950), Reg("R212")]),
        ('BRX R10 -0xe10          (*"BRANCH_TARGETS .L_x_26,.L_x_27,.L_x_14"*)', "BRX", (), [Reg("R10"), Imm(-0xE10)]),
    ],
)
def test_operand_parsing(text: str, opcode: str, mods: tuple, operands: list) -> None:
    insn = parse_insn(0, text)
    assert (insn.opcode, insn.mods, insn.operands) == (opcode, mods, operands)
    assert insn.guard is None or isinstance(insn.guard, Pred)
    assert insn.targets == ((".L_x_26", ".L_x_27", ".L_x_14") if opcode == "BRX" else ())


def test_invalid_delay_alu_lines_dropped() -> None:
    """llc-16 printed `instid0(/* invalid instid value */)` (fuzz r3:2262); only that line goes."""
    from cass_cc.sass.codegen import without_invalid_delays

    asm = ("\tv_add_nc_u32_e32 v1, v2, v3\n"
           "\ts_delay_alu instid0(/* invalid instid value */) | instskip(SKIP_1) | instid1(SALU_CYCLE_1)\n"
           "\ts_delay_alu instid0(VALU_DEP_1)\n"
           "\tv_mul_lo_u32 v4, v1, v1\n")
    out = without_invalid_delays(asm)
    assert "invalid" not in out
    assert out.splitlines() == ["\tv_add_nc_u32_e32 v1, v2, v3", "\ts_delay_alu instid0(VALU_DEP_1)", "\tv_mul_lo_u32 v4, v1, v1"]
