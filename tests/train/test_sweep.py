"""bench/train_h100.py --sweep's plan, with the per-variant processes replaced by canned
results: which overrides each variant gets, what "combo" leaves out, when "combo-retry" runs,
and the table it writes."""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.train.conftest import needs_torch

ROOT = Path(__file__).resolve().parents[2]


def load_bench() -> Any:
    spec = importlib.util.spec_from_file_location("train_h100_under_test", ROOT / "bench" / "train_h100.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def overrides_of(extra: tuple[str, ...]) -> dict[str, Any]:
    pairs = [extra[i + 1] for i, x in enumerate(extra) if x == "--set"]
    return {k: json.loads(v) for k, v in (p.split("=", 1) for p in pairs)}


@needs_torch
@pytest.mark.parametrize("failing, leaking, combo_error, retry_drops", [
    ({"flex"}, set(), "", None),  # combo leaves flex out and works: no retry
    (set(), {"flex"}, "", None),  # flex ran but packed examples saw each other: left out too
    (set(), set(), "CUDA out of memory. Tried to allocate", "train.batch_size"),
    (set(), set(), "torch._dynamo.exc.BackendCompilerFailed", "model.attention"),
])
def test_sweep_plan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: set[str], leaking: set[str],
                    combo_error: str, retry_drops: str | None) -> None:
    bench = load_bench()
    ran: dict[str, dict[str, Any]] = {}

    def fake_run_case(case: str, out: Path, args: argparse.Namespace, timeout: float = 0, name: str = "",
                      extra: tuple[str, ...] = (), **kw: Any) -> dict[str, Any]:
        ran[name] = {"overrides": overrides_of(extra), "check": "--no-check" not in extra, "profile": "--profile" in extra}
        if name in failing or (name == "combo" and combo_error):
            return {"case": name, "error": f"Traceback ...\n{combo_error or 'failed'}"}
        return {"case": name, "tokens_per_s_per_gpu": 1000.0 + len(ran), "mfu": 0.2,
                "isolation": {"ok": name not in leaking}}

    monkeypatch.setattr(bench, "run_case", fake_run_case)
    monkeypatch.setattr(bench, "environment", lambda: {"gpus": 0})
    monkeypatch.setenv("OUT", str(tmp_path))
    args = argparse.Namespace(attention="auto", smoke=False, examples=3000, sweep_steps=12, sweep_warmup=3,
                              sweep_budget=380.0, sweep_deadline=470.0, variants="base,flex,compile,batch2,combo,closs")
    assert bench.sweep(args) == 0
    combo = ran["combo"]["overrides"]
    assert combo["model.attention"] == ("sdpa" if "flex" in failing | leaking else "flex_attention")
    assert combo["train.compile"] == "regional" and combo["train.loss"] == "compiled" and combo["train.count_tokens"] is False
    assert ran["base"]["overrides"] == bench.BASE and ran["base"]["check"] and ran["base"]["profile"]
    assert ran["compile"]["overrides"] == {**bench.BASE, "train.compile": "regional"}
    assert not ran["compile"]["check"]  # sdpa's isolation was checked in base
    if retry_drops:
        retry = ran["combo-retry"]["overrides"]
        assert retry.get(retry_drops) == bench.BASE.get(retry_drops) != combo[retry_drops]
        assert retry["train.compile"] == "regional" and retry["train.loss"] == "compiled"
        assert list(ran).index("combo-retry") == list(ran).index("combo") + 1  # at once, before the rest
    else:
        assert "combo-retry" not in ran
    summary = json.loads((tmp_path / "sweep.json").read_text())
    assert set(summary["variants"]) == set(ran)
    assert summary["best"] in ran and summary["speedup_vs_base"]["base"] == 1.0
    assert "| base |" in (tmp_path / "sweep.md").read_text()
