"""hipify-perl as a translator, when a script is given (never shipped: CASS_HIPIFY_PERL or /tmp/hipify-perl)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.evaluate.conftest import EVAL_CACHE, eval_env

SCRIPT = os.environ.get("CASS_HIPIFY_PERL") or "/tmp/hipify-perl"


@pytest.mark.skipif(not Path(SCRIPT).is_file() or not shutil.which("perl"), reason="no hipify-perl script here")
def test_hipify_perl_translates_and_is_scored(suite):
    from cass_train.evaluate.engine import Settings, evaluate
    from cass_train.evaluate.translators import Options

    chosen = suite.select("crc32_table,gemv_shfl")
    records, identity, _ = evaluate(Settings(translator="hipify-perl", suite=chosen, jobs=2, cache=EVAL_CACHE, run=False,
                                             options=Options(hipify_perl=SCRIPT), env=eval_env()))
    assert identity.startswith("hipify-perl:")
    by = {r["program"]: r for r in records}
    for r in records:
        assert r["translated"], r
        assert r["compiled"] is not None and (r["compiled"] or r["compile_error"].startswith(r["program"] + ".hip:")), r
    assert by["crc32_table"]["compiled"] is True, by["crc32_table"]["compile_error"]
