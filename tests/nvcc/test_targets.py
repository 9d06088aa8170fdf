from __future__ import annotations

import pytest

from cass_cc.nvcc import UsageError, offload_archs
from cass_cc.nvcc import targets as tg

DEFAULT = ["gfx1100"]


@pytest.mark.parametrize(
    "targets,arch_map,expected",
    [
        ([], {}, ["gfx1100"]),
        (["sm_80", "compute_80"], {}, ["gfx1100"]),
        (["gfx1030"], {}, ["gfx1030"]),
        (["gfx90a:xnack+"], {}, ["gfx90a:xnack+"]),
        (["sm_80"], {"sm_80": "gfx90a"}, ["gfx90a"]),
        (["compute_80"], {"sm_80": "gfx90a"}, ["gfx90a"]),
        (["sm_90a", "compute_90a"], {"sm_90": "gfx942"}, ["gfx942"]),
        (["sm_86"], {"sm_80": "gfx90a", "*": "gfx1101"}, ["gfx1101"]),
        ([], {"*": "gfx1030"}, ["gfx1030"]),
        (["sm_80", "sm_86"], {"sm_80": "gfx90a", "sm_86": "gfx1030"}, ["gfx90a", "gfx1030"]),
        (["sm_80", "gfx1100"], {"sm_80": "gfx1100"}, ["gfx1100"]),
        (["all"], {"all": "gfx1100,gfx1030"}, ["gfx1100", "gfx1030"]),
        (["native"], {}, ["gfx1100"]),
        (["all-major", "gfx1030"], {}, ["gfx1100", "gfx1030"]),
        (["lto_80"], {"sm_80": "gfx90a"}, ["gfx90a"]),
    ],
)
def test_offload_archs(targets, arch_map, expected):
    assert offload_archs(targets, arch_map, DEFAULT) == expected


@pytest.mark.parametrize("bad", ["sm_abc", "gfx", "sm_", "compute80", "gfxabcd", "sm_80,sm_86"])
def test_invalid(bad):
    with pytest.raises(UsageError, match=f"^Unsupported gpu architecture '{bad}'$"):
        offload_archs([bad], {}, DEFAULT)


@pytest.mark.parametrize(
    "arch,codes,expected",
    [
        (None, [], []),
        ("sm_80", [], ["sm_80", "compute_80"]),
        ("sm_90a", [], ["sm_90a", "compute_90a"]),
        ("compute_80", [], ["compute_80"]),
        ("native", [], ["native"]),
        ("gfx1100", [], ["gfx1100"]),
        ("compute_80", ["sm_80", "sm_86"], ["sm_80", "sm_86"]),
        ("compute_80", ["sm_90a", "compute_80"], ["sm_90a", "compute_80"]),
    ],
)
def test_from_arch(arch, codes, expected):
    assert tg.from_arch(arch, codes) == expected


@pytest.mark.parametrize(
    "arch,codes,message",
    [
        (None, ["sm_80"], "-arch option not specified"),
        ("sm_80", ["sm_86"], "Value of -arch option ('sm_80') must be a virtual code architecture"),
        ("all", ["sm_80"], "Cannot use '-arch=all' with '--gpu-code (-code)'"),
        ("compute_86", ["sm_80"],
         "Incompatible code generation requested: arch='compute_86', code='sm_80'"),
        ("compute_90a", ["sm_89"],
         "Incompatible code generation requested: arch='compute_90a', code='sm_89'"),
        ("sm_abc", [], "Unsupported gpu architecture 'sm_abc'"),
        # CUDA 12.4's list (ARCHS_BY_CUDA): newer, older, and made-up numbers and suffixes
        ("sm_100", [], "Unsupported gpu architecture 'sm_100'"),
        ("sm_30", [], "Unsupported gpu architecture 'sm_30'"),
        ("sm_99", [], "Unsupported gpu architecture 'sm_99'"),
        ("sm_800", [], "Unsupported gpu architecture 'sm_800'"),
        ("compute_80a", [], "Unsupported gpu architecture 'compute_80a'"),
        ("compute_80", ["sm_99"], "Unsupported gpu architecture 'sm_99'"),
    ],
)
def test_from_arch_errors(arch, codes, message):
    with pytest.raises(UsageError) as e:
        tg.from_arch(arch, codes)
    assert str(e.value) == message


@pytest.mark.parametrize(
    "spec,expected",
    [
        ("arch=compute_80,code=sm_80", ["sm_80"]),
        ("arch=compute_80,code=[compute_80,sm_80]", ["compute_80", "sm_80"]),
        ("code=sm_86,arch=compute_80", ["sm_86"]),
        ("arch=compute_80,code=[sm_80]", ["sm_80"]),
        ('arch=compute_80,code="sm_80,compute_80"', ["sm_80", "compute_80"]),
        ("arch=gfx1100,code=gfx1100", ["gfx1100"]),
    ],
)
def test_from_gencode(spec, expected):
    assert tg.from_gencode(spec) == expected


@pytest.mark.parametrize(
    "spec,message",
    [
        ("arch=compute_80,code=sm_80,sm_86", "'sm_86' is not in 'keyword=value' format"),
        ("arch=compute_80", "Option '--generate-code arch=compute_80', missing code"),
        ("code=sm_80", "Option '--generate-code code=sm_80', missing architecture"),
        ("arch=compute_80,code=sm_80,arch=compute_86", "redefinition of keyword 'arch' "),  # nvcc's blank
        ("arch=sm_80,code=sm_80", "Value of -arch option ('sm_80') must be a virtual code architecture"),
        ("arch=native,code=sm_80", "Unsupported gpu architecture 'native'"),
        ("arch=compute_80,code=[]", "Unsupported gpu architecture ''"),
        ("arch=compute_86,code=sm_80",
         "Incompatible code generation requested: arch='compute_86', code='sm_80'"),
    ],
)
def test_from_gencode_errors(spec, message):
    with pytest.raises(UsageError) as e:
        tg.from_gencode(spec)
    assert str(e.value) == message
