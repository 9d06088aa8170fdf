from __future__ import annotations

from pathlib import Path

from cass_cc.translate import coverage, mappings

DOC = Path(__file__).resolve().parents[2] / "docs" / "coverage.md"


def test_checked_in_doc_is_current() -> None:
    """docs/coverage.md is generated; regenerate with `python -m cass_cc.translate.coverage -o docs/coverage.md`
    (`python -m cass_cc.translate.status` rewrites it too)."""
    assert DOC.read_text(encoding="utf-8") == coverage.render()


def test_family_counts() -> None:
    counts = coverage.family_counts()
    assert set(counts) <= set(mappings.FAMILIES)
    mapped = {family: c["supported"] + c["deprecated"] for family, c in counts.items()}
    # at least HIPIFY's mapped rows per family (ROCm/HIPIFY, Oct 2024), less the few HIP 5.2 lacks
    floors = {"runtime": 600, "driver": 700, "graph": 300, "texture": 200, "device": 330, "fp16": 150,
              "complex": 26, "nvrtc": 27, "cublas": 680, "curand": 117, "cufft": 87, "cusparse": 684,
              "cusolver": 342, "cub": 12, "thrust": 30, "cooperative_groups": 10, "nvtx": 6, "bf16": 4}
    for family, floor in floors.items():
        assert mapped[family] >= floor, (family, mapped[family])
    assert sum(sum(c.values()) for c in counts.values()) == len(mappings.all_rows())


def test_main_writes_file(tmp_path: Path) -> None:
    out = tmp_path / "cov.md"
    assert coverage.main(["-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# CUDA -> HIP coverage")
    assert "## CUDA's public names through cass-cc (the inventory)" in text and "## Mapping tables" in text


def test_inventory_counts_cover_every_name() -> None:
    from cass_cc.inventory import data

    counts = coverage.inventory_counts()
    assert sum(sum(c.values()) for c in counts["group"].values()) == len(data.names())
    assert all(c["none"] == 0 for c in counts["group"].values()), "names without a status: run python -m cass_cc.translate.status"
