from __future__ import annotations

import pytest

from cass_cc.nvcc import options as o
from cass_cc.nvcc.invocation import Invocation, Phase


def test_sorted_by_long_name():
    longs = [opt.long for opt in o.OPTIONS]
    assert longs == sorted(longs)


def test_no_duplicate_spellings():
    spellings = [opt.long for opt in o.OPTIONS] + [opt.short for opt in o.OPTIONS if opt.short]
    dups = {s for s in spellings if spellings.count(s) > 1 and s is not None}
    # A few options have the same long and short spelling in one record only.
    assert not dups, dups
    assert len(o.BY_SPELLING) == len(set(spellings))


def test_glued_are_single_letters():
    assert sorted(o.GLUED) == ["-D", "-I", "-L", "-O", "-U", "-l", "-t"]


FIELDS = set(Invocation.__slots__)


@pytest.mark.parametrize("opt", o.OPTIONS, ids=lambda opt: opt.long)
def test_record_targets_exist(opt):
    if opt.disp in (o.Disp.SET, o.Disp.APPEND, o.Disp.TRUE, o.Disp.BOOL):
        assert opt.target.split(".")[0] in FIELDS
    elif opt.disp is o.Disp.PHASE:
        assert opt.target in Phase.__members__
    elif opt.disp is o.Disp.HOST:
        assert opt.target.startswith("-")
    if opt.disp is o.Disp.APPEND and opt.target != "werror":
        assert opt.arity is o.Arity.LIST
    if opt.disp in (o.Disp.TRUE, o.Disp.PHASE):
        assert opt.arity is o.Arity.FLAG
    assert opt.long.startswith("--")
    assert opt.short is None or (opt.short.startswith("-") and not opt.short.startswith("--"))


@pytest.mark.parametrize(
    "spelling,long",
    [
        ("-arch", "--gpu-architecture"), ("-code", "--gpu-code"), ("-gencode", "--generate-code"),
        ("-rdc", "--relocatable-device-code"), ("-ccbin", "--compiler-bindir"),
        ("-Xcompiler", "--compiler-options"), ("-Xlinker", "--linker-options"),
        ("-Xptxas", "--ptxas-options"), ("-Xnvlink", "--nvlink-options"),
        ("-Xarchive", "--archive-options"), ("-Xcudafe", "--cudafe-options"),
        ("-optf", "--options-file"), ("-MF", "--dependency-output"),
        ("-MT", "--dependency-target-name"), ("-res-usage", "--resource-usage"),
        ("-V", "--version"), ("-h", "--help"), ("-t", "--threads"),
        ("-save-temps", "--save-temps"), ("-objtemp", "--objdir-as-tempdir"),
        ("-err-no", "--display-error-number"), ("-src-in-ptx", "--source-in-ptx"),
        ("-isystem", "--system-include"), ("-include", "--pre-include"),
        ("-E", "--preprocess"), ("-dc", "--device-c"), ("-dlink", "--device-link"),
    ],
)
def test_spellings(spelling, long):
    assert o.BY_SPELLING[spelling] is o.BY_LONG[long]
