"""bench/verify_hecbench.py recompare: recorded rows compared again with the current masks, and
only where the recorded outputs are whole."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("verify_hecbench", ROOT / "bench" / "verify_hecbench.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _row(name: str, cuda: str, hip: str, outcome: str = "differ") -> dict:
    side = lambda out: {"built": True, "status": "exit 0", "verdict": "PASS", "stdout": out, "stderr": ""}  # noqa: E731
    old = {"outcome": outcome, "verdicts_agree": True, "reasons": ["recorded"], "diff": ""}
    return {"name": name, "cuda": side(cuda), "hip": side(hip), "ported": side(hip),
            "hip_vs_cuda": dict(old), "ported_vs_cuda": dict(old)}


def test_recompare_masks_rates_and_keeps_what_it_cannot_see() -> None:
    bench = _bench()
    rate = _row("keccak", "hash 1f\nGPU speed : 895331.73 kB/s\nPASS\n", "hash 1f\nGPU speed : 5118335.38 kB/s\nPASS\n")
    wrong = _row("wrong", "sum 1.0\nPASS\n", "sum 2.0\nPASS\n", outcome="agree")
    cut = _row("cut", "x" * 1500, "y" * 1500)  # the runner kept only the tail: not compared again
    old = _row("old", "", "")
    for side in ("cuda", "hip", "ported"):
        del old[side]["stdout"]  # rows of sessions 3-4 kept no outputs
    assert bench.recompare([rate, wrong, cut, old]) == 4
    assert rate["hip_vs_cuda"]["outcome"] == rate["ported_vs_cuda"]["outcome"] == "agree"
    assert wrong["hip_vs_cuda"]["outcome"] == "differ" and "2" in wrong["hip_vs_cuda"]["reasons"][0]
    assert cut["hip_vs_cuda"]["reasons"] == ["recorded"] and old["hip_vs_cuda"]["reasons"] == ["recorded"]
