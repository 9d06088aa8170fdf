"""The source task on CPU: the rules translator's compile-accuracy table over the subset, a
broken translator scored down for exactly the programs it breaks, the cache, the CLI."""
from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from tests.evaluate.conftest import EVAL_CACHE, SUBSET, eval_env


def test_rules_record_for_every_program(rules_subset, subset):
    records, identity, folder = rules_subset
    assert [r["program"] for r in records] == [p.name for p in subset.programs]
    assert len(records) == len(SUBSET)
    assert identity.startswith("rules")
    for r in records:
        assert r["translated"], r
        assert r["compiled"] is not None, r  # clang is here: every record has a verdict
        assert r["ran"] is None and r["exec_error"].startswith("not run")
        assert (folder / f"{r['program']}.json").is_file()


def test_rules_compile_what_the_installation_supports(rules_subset, subset):
    """Programs without a `needs:` line must compile for gfx1100; the others fail naming the
    header this installation lacks (Debian's ROCm 5.2: no hip_bf16.h, no hiprand)."""
    records, _, _ = rules_subset
    needs = {p.name: p.needs for p in subset.programs}
    for r in records:
        if not needs[r["program"]]:
            assert r["compiled"] is True, (r["program"], r["compile_error"])
        elif r["compiled"] is False:
            assert "file not found" in r["compile_error"], r["compile_error"]
            assert r["compile_error"].startswith(r["program"] + ".cu:"), "errors point at the CUDA file"


def test_table_files(rules_subset, tmp_path):
    from cass_train.evaluate.report import write_all

    records, identity, _ = rules_subset
    rows = write_all(records, "source", tmp_path, {"translator": "rules", "identity": identity, "suite": "subset"})
    total = rows[-1]
    assert total["domain"] == "total" and total["programs"] == len(SUBSET)
    assert total["compiled"] == sum(r["compiled"] is True for r in records)
    assert len(rows) == 17  # 16 domains and the total
    md = (tmp_path / "table.md").read_text()
    assert md.count("\n") == 2 + 17 and "**total**" in md
    parsed = list(csv.DictReader(io.StringIO((tmp_path / "table.csv").read_text())))
    assert [r["domain"] for r in parsed][-1] == "total"
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["rows"][-1]["compiled"] == total["compiled"]
    fails = (tmp_path / "failures.md").read_text()
    for r in records:
        if r["compiled"] is False:
            assert f"- {r['program']} [compile gfx1100]: {r['compile_error']}" in fails
    assert (tmp_path / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == len(records)


def _drop_main_line(text: str) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(line for line in lines if "int main(" not in line)


def test_broken_translator_is_scored_down_for_what_it_breaks(rules_subset, subset, tmp_path):
    from cass_train.evaluate.engine import Settings, evaluate
    from cass_train.evaluate.translators import Options, RulesTranslator

    records, _, _ = rules_subset
    good = {r["program"]: r for r in records}
    chosen = subset.select("gemv_shfl,softmax_warp,crc32_table")
    rules = RulesTranslator(Options()).translate_many([(p.name, p.source(), p.path.name) for p in chosen.programs])
    broken = {"gemv_shfl", "crc32_table"}
    lines = [json.dumps({"name": n, "hip": _drop_main_line(t.text) if n in broken else t.text}) for n, t in rules.items()]
    outputs = tmp_path / "answers.jsonl"
    outputs.write_text("\n".join(lines) + "\n")
    got, identity, _ = evaluate(Settings(translator=f"outputs:{outputs}", suite=chosen, jobs=2, cache=EVAL_CACHE, run=False,
                                         env=eval_env()))
    assert identity.startswith("outputs:")
    by = {r["program"]: r for r in got}
    for name in broken:
        assert good[name]["compiled"] is True and by[name]["compiled"] is False, by[name]
        assert by[name]["compile_error"], by[name]
    assert by["softmax_warp"]["compiled"] is True
    assert sum(r["compiled"] is True for r in got) == 1


def test_outputs_missing_program_and_bad_file(tmp_path, subset):
    from cass_train.evaluate.translators import EvalError, Outputs

    f = tmp_path / "o.jsonl"
    f.write_text(json.dumps({"name": "gemv_shfl", "hip": "x"}) + "\n")
    got = Outputs(str(f)).translate_many([("gemv_shfl", "", "a.cu"), ("crc32_table", "", "b.cu")])
    assert got["gemv_shfl"].text == "x" and got["crc32_table"].text is None
    assert "no translation" in got["crc32_table"].error
    f.write_text(json.dumps({"name": "a", "hip": "x"}) + "\n{not json\n")
    with pytest.raises(EvalError, match=r"o\.jsonl:2: not a JSON object"):
        Outputs(str(f))
    # a translator that gave no text says why, and the record keeps it
    f.write_text(json.dumps({"name": "gemv_shfl", "error": "the answer has no ```amd block\nmore"}) + "\n")
    got = Outputs(str(f)).translate_many([("gemv_shfl", "", "a.cu")])
    assert got["gemv_shfl"].text is None and got["gemv_shfl"].error == "the answer has no ```amd block"


def test_cached_records_are_reused(rules_subset, subset):
    """A second run reads the records the first wrote (resuming), instead of recomputing them."""
    from cass_train.evaluate.engine import Settings, evaluate

    records, _, folder = rules_subset
    one = subset.select("heat2d_shared")
    path = folder / "heat2d_shared.json"
    rec = json.loads(path.read_text())
    rec["marker"] = "from-cache"
    path.write_text(json.dumps(rec))
    try:
        again, _, folder2 = evaluate(Settings(translator="rules", suite=subset, jobs=1, cache=EVAL_CACHE, run=False, env=eval_env()))
        assert folder2 == folder
        assert {r["program"]: r.get("marker") for r in again}["heat2d_shared"] == "from-cache"
        assert [r["program"] for r in again] == [p.name for p in subset.programs]
    finally:
        rec.pop("marker")
        path.write_text(json.dumps(rec))
    assert one.programs[0].name == "heat2d_shared"


def test_cli_runs_and_reports_errors(tmp_path, rules_subset):
    from cass_train.evaluate.cli import command

    records, _, _ = rules_subset
    runner = CliRunner()
    out = tmp_path / "out"
    result = runner.invoke(command, ["--translator", "rules", "--programs", "gemv_shfl,softmax_warp", "--cache", str(EVAL_CACHE),
                                     "--out", str(out), "--no-run", "-j", "1"], env=eval_env())
    assert result.exit_code == 0, result.output
    assert "| **total** | **2** | **2** | **2/2 (100.0%)** | **not run** |" in result.output
    assert (out / "table.md").is_file() and (out / "chart.png").is_file()
    bad = runner.invoke(command, ["--translator", "nonsense", "--cache", str(tmp_path / "c")], env=eval_env())
    assert bad.exit_code != 0 and "unknown translator 'nonsense'" in bad.output
    bad = runner.invoke(command, ["--translator", "rules", "--programs", "nope", "--cache", str(tmp_path / "c")], env=eval_env())
    assert bad.exit_code != 0 and "no program or domain named nope" in bad.output
    bad = runner.invoke(command, ["--translator", "hipify-perl", "--hipify-perl", str(tmp_path / "none"), "--cache", str(tmp_path / "c")],
                        env=eval_env())
    assert bad.exit_code != 0 and "no such hipify-perl script" in bad.output


def test_cass_train_eval_is_registered():
    from cass_train.cli import COMMANDS

    assert COMMANDS["eval"][0] == "cass_train.evaluate.cli:command"
