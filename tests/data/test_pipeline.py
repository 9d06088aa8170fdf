"""cass-data's stages on a small corpus (tests/data/corpus: planted duplicates, a decontamination
target, a program whose gfx1100 side fails, kernels without main) plus synthesized programs, with
the real nvcc, clang, cuobjdump, nvdisasm and LLVM 16 tools."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from tests.data import helpers

NVCC = Path(os.environ.get("CASS_NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
needs_tools = pytest.mark.skipif(not NVCC.is_file() or not shutil.which("clang-15"), reason="needs nvcc and clang-15")


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="session")
def full() -> Path:
    return helpers.full_run()


@pytest.fixture(scope="session")
def small() -> Path:
    return helpers.small_run()


@needs_tools
def test_pairs_for_sm80_sm90_and_gfx1100(full: Path) -> None:
    rows = jsonl(full / "work" / "pairs.jsonl")
    asm = [r for r in rows if r["task"] == "sass-rdna3"]
    assert {r["sm"] for r in asm} == {"sm_80", "sm_90"}
    for r in asm:
        sass, rdna3 = r["sass"], r["rdna3"]
        assert sass.startswith(f"\tcode for {r['sm']}\n") and f"Function : {r['kernel']}\n" in sass
        assert "/* 0x" not in sass and "EXIT" in sass  # one instruction a line, encodings dropped
        assert sum(line.lstrip().startswith("/*") for line in sass.splitlines()) >= 5
        assert '.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"' in rdna3 and f".amdhsa_kernel {r['kernel']}" in rdna3
        assert rdna3.rstrip().endswith(".end_amdhsa_kernel") and "s_endpgm" in rdna3
        assert r["level"] == "compiled" and r["gfx1100"] is True and r["verify"] == "not run (no NVIDIA GPU)"
    kernels = {(r["unit"], r["kernel"]) for r in asm}
    assert ("gamma:gamma/kernels.cu#relu_clamp", "_Z10relu_clampPfif") in kernels
    assert ("gamma:gamma/kernels.cu#block_sum", "_Z9block_sumILi256EEvPKiPii") in kernels
    src = [r for r in rows if r["task"] == "cuda-hip"]
    assert {r["unit"] for r in src} >= {"alpha:alpha/vecadd.cu", "beta:beta/saxpy.cu", "synth/1/scan-2:scan-2.cu"}
    saxpy = next(r for r in src if r["unit"] == "beta:beta/saxpy.cu")
    assert "hipMalloc" in saxpy["hip"] and "cudaMalloc" in saxpy["cuda"] and "#line" not in saxpy["hip"]
    lifted = [r for r in rows if r["task"] == "sass-rdna3-lifted"]
    assert {r["sm"] for r in lifted} == {"sm_80", "sm_90"} and len(lifted) >= 10
    assert all(".end_amdhsa_kernel" in r["rdna3"] and r["translator"].startswith("lifter ") for r in lifted)
    toolchain = json.loads(rows[0]["toolchain"])
    assert toolchain["nvcc"].startswith("nvcc 13") and toolchain["clang"].startswith("clang 15")


@needs_tools
def test_failing_side_is_counted_and_the_run_goes_on(full: Path) -> None:
    report = json.loads((full / "work" / "report.json").read_text())
    assert report["rejections"] == {"build-amd: gfx1100 assembly rejected by llvm-mc": 1}
    amd = {line["id"]: line for line in jsonl(full / "work" / "build-amd.jsonl")}
    assert not amd["gamma:gamma/smid.cu"]["ok"]
    assert sum(line["ok"] for line in amd.values()) == len(amd) - 1
    rows = jsonl(full / "work" / "pairs.jsonl")
    smid = [r for r in rows if r["unit"] == "gamma:gamma/smid.cu"]
    assert smid == []  # no source pair (gfx1100 failed) and no lifted pair (SR_VIRTUALSMID)
    assert report["kernel_misses"]["lifter: unsupported S2R (SR_VIRTUALSMID)"] == 2


@needs_tools
def test_dedup_finds_the_planted_duplicates(full: Path) -> None:
    removed = {r["id"]: r for r in jsonl(full / "work" / "removed.jsonl")}
    assert removed["alpha:alpha/vecadd_copy.cu"]["reason"] == "exact duplicate (normalised)"
    assert removed["alpha:alpha/vecadd_copy.cu"]["detail"] == "alpha:alpha/vecadd.cu"
    assert removed["beta:beta/saxpy_near.cu"]["reason"] == "near duplicate (MinHash)"
    assert removed["delta:delta/adam-cuda/main.cu"]["reason"] == "decontamination: evaluation program name"
    assert removed["delta:delta/kernels/histo.cu"]["reason"] == "decontamination: near copy of an evaluation source"
    units_removed = {k for k, r in removed.items() if ":" in k}
    assert units_removed == {"alpha:alpha/vecadd_copy.cu", "beta:beta/saxpy_near.cu", "delta:delta/adam-cuda/main.cu",
                             "delta:delta/kernels/histo.cu"}
    kept = {line["id"] for line in jsonl(full / "work" / "dedup.jsonl")}
    rows = jsonl(full / "work" / "pairs.jsonl")
    assert not any(r["unit"] in units_removed for r in rows if r["id"] in kept)
    assert any(r["unit"] == "alpha:alpha/vecadd.cu" for r in rows if r["id"] in kept)


@needs_tools
def test_no_origin_in_two_splits_and_split_is_deterministic(full: Path, tmp_path: Path) -> None:
    rows = {r["id"]: r for r in jsonl(full / "work" / "pairs.jsonl")}
    split = jsonl(full / "work" / "split.jsonl")
    where = defaultdict(set)
    for line in split:
        where[rows[line["id"]]["origin"]].add(line["split"])
    assert where and all(len(s) == 1 for s in where.values())
    copy = tmp_path / "work"
    shutil.copytree(full / "work", copy, ignore=shutil.ignore_patterns("store"))
    os.symlink(full / "work" / "store", copy / "store")
    (copy / "split.jsonl").unlink()
    helpers.cass_data(["split", "-w", str(copy)])
    assert (copy / "split.jsonl").read_text() == (full / "work" / "split.jsonl").read_text()


@needs_tools
def test_export_loads_with_datasets(full: Path) -> None:
    import datasets

    out = full / "dataset"
    files = {s: str(out / "data" / f"{s}-*.parquet") for s in ("train", "validation", "test")
             if list((out / "data").glob(f"{s}-*.parquet"))}
    ds = datasets.load_dataset("parquet", data_files=files)
    split = jsonl(full / "work" / "split.jsonl")
    assert sum(len(ds[s]) for s in ds) == len(split) > 20
    for s in ds:
        assert set(ds[s]["split"]) == {s}
        assert {"id", "task", "origin", "domain", "cuda", "hip", "sass", "sm", "rdna3", "level", "split", "toolchain",
                "translator", "licence"} <= set(ds[s].column_names)
        assert all(t > 0 for t in ds[s]["tokens"])
    card = (out / "README.md").read_text()
    assert card.startswith("---\nconfigs:") and "### Per domain" in card and "### Per level" in card
    assert "| build-amd: gfx1100 assembly rejected by llvm-mc | 1 |" in card
    assert "near duplicate (MinHash)" in card and f"{len(split)} pairs" in card
    assert (out / "token_lengths.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_tools
def test_unchanged_rerun_does_no_work(full: Path, tmp_path: Path) -> None:
    work = tmp_path / "work"
    shutil.copytree(full / "work", work)
    recipe = tmp_path / "r.toml"
    recipe.write_text(f'work = "{work}"\noutput = "{tmp_path / "out"}"\nsources = ["{helpers.CORPUS}", "synth:3:1"]\n'
                      'stages = ["collect", "translate", "build", "extract", "verify"]\nworkers = 2\n'
                      '[settings]\nsms = ["sm_80", "sm_90"]\n')
    start = time.monotonic()
    helpers.cass_data(["run", str(recipe)])
    report = json.loads((work / "report.json").read_text())
    assert all(v["computed"] == 0 for v in report["stages"].values()), report["stages"]
    assert report["stages"]["build-nvidia"]["cached"] == 12
    assert (work / "pairs.jsonl").read_text() == (full / "work" / "pairs.jsonl").read_text()
    assert time.monotonic() - start < 30


def _store_count(work: Path) -> int:
    return sum(1 for _ in (work / "store").glob("*/*.json")) if (work / "store").is_dir() else 0


@needs_tools
def test_killed_run_resumes_to_the_same_rows(small: Path, tmp_path: Path) -> None:
    work = tmp_path / "work"
    recipe = helpers.small_recipe(tmp_path, work)
    proc = subprocess.Popen([sys.executable, str(helpers.CASS_DATA), "run", str(recipe), "--no-progress"],
                            env=helpers.env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while _store_count(work) < 12 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # 9 translations, then builds: kill in the middle of the builds
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert not (work / "pairs.jsonl").exists()
    stored = _store_count(work)
    assert 9 <= stored < 27
    helpers.cass_data(["run", str(recipe), "--no-progress"])
    report = json.loads((work / "report.json").read_text())
    assert report["stages"]["translate"] == {"cached": 9, "computed": 0}
    assert report["stages"]["build-nvidia"]["cached"] >= stored - 9 - 2
    assert (work / "pairs.jsonl").read_text() == (small / "work" / "pairs.jsonl").read_text()
    assert len(jsonl(work / "pairs.jsonl")) >= 8


@needs_tools
def test_ray_local_gives_the_same_rows(small: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    work = tmp_path / "work"
    recipe = helpers.small_recipe(tmp_path, work, ray="local")
    helpers.cass_data(["run", str(recipe), "--no-progress"])
    assert (work / "pairs.jsonl").read_text() == (small / "work" / "pairs.jsonl").read_text()
    rows = jsonl(work / "pairs.jsonl")
    assert {r["task"] for r in rows} == {"sass-rdna3-lifted"} and all(r["gfx1100"] is None for r in rows)


@needs_tools
def test_verify_runs_both_programs_through_the_runner(tmp_path: Path) -> None:
    """execute=always without a GPU: both sides are built by the runner (CUDA with nvcc, the HIP
    translation with the HIP-on-NVIDIA compiler) and run sandboxed; the synthesized program says
    SKIP (exit 2) on both sides, which is agreement but not a verified pair."""
    from cass_data.context import Settings
    from cass_data.pipeline import Pipeline

    old = dict(os.environ)
    os.environ.update(helpers.env())
    try:
        p = Pipeline(tmp_path / "w", Settings(sms=("sm_80",), lift=False, skip_amd=True, execute="always"), workers=1,
                     progress=False)
        p.collect(["synth:1:3"])
        p.translate()
        p.build()
        p.extract()
        p.verify()
    finally:
        os.environ.clear()
        os.environ.update(old)
    line = jsonl(tmp_path / "w" / "verify.jsonl")[0]
    record = p.store.get(line["key"])
    assert record["reason"] == "original exited non-zero" and record["detail"] == "exit 2"
    assert record["outcome"] == "agree" and record["build_seconds"] > 0.5 and record["run_seconds"] > 0
    assert jsonl(tmp_path / "w" / "pairs.jsonl") == []  # not executed, no gfx1100 side: no pair


@pytest.mark.gpu
@needs_tools
def test_synthesized_pairs_are_executed_on_a_gpu(tmp_path: Path) -> None:
    if not Path("/dev/nvidia0").exists():
        pytest.skip("needs an NVIDIA GPU")
    recipe = tmp_path / "r.toml"
    recipe.write_text(f'work = "{tmp_path / "w"}"\nsources = ["synth:4:1"]\nworkers = 2\n'
                      'stages = ["collect", "translate", "build", "extract", "verify"]\n'
                      '[settings]\nsms = ["sm_90"]\nskip_amd = true\nexecute = "auto"\n')
    helpers.cass_data(["run", str(recipe)])
    rows = jsonl(tmp_path / "w" / "pairs.jsonl")
    assert sum(r["task"] == "cuda-hip" and r["level"] == "executed" for r in rows) >= 3
