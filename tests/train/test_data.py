"""Sources -> examples: cass_data's export layout (Parquet shards by split, task values,
levels, dataset card), JSONL with mapped columns, weights, validation by origin, and the
prompts/answers of cass_cc.model.prompts."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cass_cc.model.prompts import ASSEMBLY, SOURCE
from cass_train.data import answer_text, load_examples
from cass_train.recipe import Columns, Data, RecipeError, Source
from tests.train.conftest import cuda_of, hip_of, pair_rows, write_jsonl

CARD = """---
configs:
- config_name: default
---

# pairs

## Counts

### Per split
| split / task | count |
|---|---:|
| train / cuda-hip | 3 |

## Rejections
| reason | count |
"""


def write_export(folder: Path, rows: list[dict[str, Any]]) -> Path:
    """The layout of cass_data/export.py: data/<split>-NNNNN-of-MMMMM.parquet and README.md."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    (folder / "data").mkdir(parents=True)
    for split in ("train", "validation"):
        part = [r for r in rows if r["split"] == split]
        # split only in the file name here: the reader must not need the column
        table = pa.Table.from_pylist([{k: v for k, v in r.items() if k != "split"} for r in part])
        pq.write_table(table, folder / "data" / f"{split}-00000-of-00001.parquet")
    (folder / "README.md").write_text(CARD)
    return folder


def export_rows() -> list[dict[str, Any]]:
    rows = pair_rows(["scale", "add", "fill"])
    rows.append({"task": "sass-rdna3", "cuda": None, "hip": None, "sass": "        EXIT ;", "rdna3": "s_endpgm",
                 "origin": "synth/scale", "split": "train", "level": "compiled"})
    rows.append({"task": "sass-rdna3-lifted", "cuda": None, "hip": None, "sass": "        BRA 0x10 ;",
                 "rdna3": "s_branch 0", "origin": "synth/add", "split": "train", "level": "proven"})
    val = pair_rows(["flip"])[0]
    val["split"] = "validation"
    rows.append(val)
    rows[1]["level"] = "executed"
    return rows


def test_cass_data_export_both_tasks(tmp_path: Path) -> None:
    folder = write_export(tmp_path / "export", export_rows())
    ex = load_examples(Data(task="both", sources=[Source(path=str(folder))]))
    assert sorted(e.task for e in ex.train) == ["assembly", "assembly", "source", "source", "source"]
    src = next(e for e in ex.train if e.origin == "synth/scale" and e.task == "source")
    assert src.prompt == SOURCE.prompt(cuda_of("scale"))  # exactly what cass-cc sends for the file
    assert SOURCE.extract(src.answer) == hip_of("scale")
    asm = next(e for e in ex.train if e.task == "assembly" and e.origin == "synth/scale")
    assert asm.prompt == ASSEMBLY.prompt("        EXIT ;") and ASSEMBLY.extract(asm.answer) == "s_endpgm\n"
    assert [e.origin for e in ex.validation] == ["synth/flip"]
    count = ex.counts[0]
    assert (count.rows, count.examples, count.validation) == (5, {"source": 3, "assembly": 2}, 1)
    assert "| train / cuda-hip | 3 |" in count.card_counts and "Rejections" not in count.card_counts


def test_body_answers_leave_the_rules_prelude_out(tmp_path: Path) -> None:
    """data.answer = "body": a source answer is the HIP column without the prelude the rules put
    first (cass-cc puts it back); assembly answers and prompts are as they were."""
    from cass_cc.port.files import strip_line_directive
    from cass_cc.translate import Target
    from cass_cc.translate.prelude import split_prelude
    from cass_cc.translate.rules import RulesTranslator

    rows = export_rows()
    for row in rows:  # the HIP column as cass-data writes it: the rules translation without its #line
        if row["cuda"]:
            text = RulesTranslator().translate(row["cuda"], "k.cu", Target(hip_version=(5, 2), wave_size=32)).text
            row["hip"] = strip_line_directive(text, "k.cu")
    folder = write_export(tmp_path / "export", rows)
    whole = load_examples(Data(task="both", sources=[Source(path=str(folder))]))
    body = load_examples(Data(task="both", answer="body", sources=[Source(path=str(folder))]))
    assert [e.prompt for e in body.train] == [e.prompt for e in whole.train]
    for w, b in zip(whole.train, body.train):
        if w.task == "assembly":
            assert b.answer == w.answer
            continue
        head, rest = split_prelude(SOURCE.extract(w.answer) or "")
        assert head.startswith("#include <hip/hip_runtime.h>\n") and "#pragma clang diagnostic pop" in head
        assert SOURCE.extract(b.answer) == rest and rest.startswith("#include <hip/hip_runtime.h>\n__global__ void ")


def test_task_levels_and_task_value_mapping(tmp_path: Path) -> None:
    folder = write_export(tmp_path / "export", export_rows())
    only_executed = load_examples(Data(task="source", levels=["executed"], sources=[Source(path=str(folder))]))
    assert [e.origin for e in only_executed.train] == ["synth/add"]
    no_lifted = load_examples(Data(task="assembly", task_values={"sass-rdna3-lifted": ""}, sources=[Source(path=str(folder))]))
    assert [e.answer for e in no_lifted.train] == [answer_text(ASSEMBLY, "s_endpgm")]


def test_jsonl_with_mapped_columns_weights_and_split_column(tmp_path: Path) -> None:
    rows = [{"src": cuda_of(n), "dst": hip_of(n), "family": n, "part": "train" if n != "flip" else "valid"}
            for n in ("scale", "add", "fill", "flip")]
    path = write_jsonl(tmp_path / "pairs.jsonl", rows)
    columns = Columns(cuda="src", hip="dst", origin="family", split="part")
    data = Data(columns=columns, sources=[Source(path=str(path), weight=2.5)], validation="validation")
    ex = load_examples(data)
    assert len(ex.train) == 8  # 3 x 2 + a seeded sample of round(0.5 x 3) = 2
    assert {e.origin for e in ex.train} == {"scale", "add", "fill"}
    assert [e.origin for e in ex.validation] == ["flip"]  # "valid" is the validation split
    again = load_examples(data)
    assert [e.origin for e in again.train] == [e.origin for e in ex.train]  # seeded


def test_validation_fraction_never_splits_an_origin(tmp_path: Path) -> None:
    rows = []
    for i in range(60):
        rows.append({"cuda": f"// {i}\n" + cuda_of("scale"), "hip": hip_of("scale"), "origin": f"family-{i % 12}"})
    path = write_jsonl(tmp_path / "p.jsonl", rows)
    ex = load_examples(Data(validation="0.3", sources=[Source(path=str(path))]))
    train, val = {e.origin for e in ex.train}, {e.origin for e in ex.validation}
    assert val and train and not (train & val)
    assert len(ex.train) + len(ex.validation) == 60


def test_missing_columns_and_files_are_one_line_errors(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "p.jsonl", [{"a": "x", "b": "y"}])
    with pytest.raises(RecipeError, match=r"p.jsonl: no columns cuda\+hip \(map them with \[data.columns\]\)"):
        load_examples(Data(sources=[Source(path=str(path))]))
    with pytest.raises(RecipeError, match="no such file or folder"):
        load_examples(Data(sources=[Source(path=str(tmp_path / "nope"))]))
    (tmp_path / "broken.jsonl").write_text('{"cuda": "x"\n')
    with pytest.raises(RecipeError, match="broken.jsonl: cannot read JSONL"):
        load_examples(Data(sources=[Source(path=str(tmp_path / "broken.jsonl"))]))
    (tmp_path / "empty").mkdir()
    with pytest.raises(RecipeError, match="no .parquet or .jsonl files"):
        load_examples(Data(sources=[Source(path=str(tmp_path / "empty"))]))
    path = write_jsonl(tmp_path / "asm-only.jsonl", [{"cuda": "", "hip": "", "sass": "EXIT ;", "rdna3": "s_endpgm"}])
    with pytest.raises(RecipeError, match="no training examples for task 'source'"):
        load_examples(Data(sources=[Source(path=str(path))]))


@pytest.mark.parametrize("code", ["int x;", "int x;\n", "a\n\nb\n"])
def test_answer_round_trips_through_cass_cc_extraction(code: str) -> None:
    for fmt in (SOURCE, ASSEMBLY):
        text = answer_text(fmt, code)
        assert text.startswith(f"```{fmt.answer_fence}\n") and text.endswith("```")
        assert fmt.extract(text) == (code if code.endswith("\n") else code + "\n")


def test_reads_what_cass_data_exports(tmp_path: Path) -> None:
    """The dataset pipeline's own exporter writes the folder (its columns, shards, card)."""
    export = pytest.importorskip("cass_data.export")
    pytest.importorskip("transformers")
    from cass_cc.model.synthetic import build_tokenizer

    tokenizer = tmp_path / "tokenizer.json"
    build_tokenizer().backend_tokenizer.save(str(tokenizer))
    rows = []
    for i, (name, split) in enumerate((("scale", "train"), ("add", "train"), ("flip", "validation"))):
        common = {"origin": f"synth/{name}", "domain": "synth", "split": split, "licence": "MIT", "unit": f"u{i}",
                  "path": f"{name}.cu", "file": f"{name}.cu", "toolchain": "{}", "translator": "rules", "verify": "",
                  "gfx1100": True, "sm": None, "kernel": None}
        rows.append({**common, "id": f"s{i}", "task": "cuda-hip", "cuda": cuda_of(name), "hip": hip_of(name),
                     "sass": None, "rdna3": None, "level": "executed" if name == "add" else "compiled"})
        rows.append({**common, "id": f"a{i}", "task": "sass-rdna3", "cuda": None, "hip": None, "sm": "sm_80",
                     "sass": f"        code for sm_80\n        Function : {name}\n        EXIT ;", "rdna3": "s_endpgm",
                     "kernel": name, "level": "compiled"})
    out = tmp_path / "dataset"
    export.export(rows, out, {"rejections": {}, "kernel_misses": {}}, [], str(tokenizer))
    ex = load_examples(Data(task="both", sources=[Source(path=str(out))]))
    assert sorted((e.task, e.origin) for e in ex.train) == [
        ("assembly", "synth/add"), ("assembly", "synth/scale"), ("source", "synth/add"), ("source", "synth/scale")]
    assert sorted(e.task for e in ex.validation) == ["assembly", "source"]
    assert ex.counts[0].card_counts  # the export's card has a Counts section
    executed = load_examples(Data(task="source", levels=["executed"], sources=[Source(path=str(out))]))
    assert [e.origin for e in executed.train] == ["synth/add"]


def test_hugging_face_dataset_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """hf:NAME goes through `datasets` (a local dataset folder here: no network in tests)."""
    datasets = pytest.importorskip("datasets")
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "cache")
    folder = write_export(tmp_path / "export", export_rows())
    ex = load_examples(Data(task="source", sources=[Source(path=f"hf:{folder}")]))
    assert sorted(e.origin for e in ex.train) == ["synth/add", "synth/fill", "synth/scale"]
    assert [e.origin for e in ex.validation] == ["synth/flip"]
    assert (tmp_path / "cache").is_dir()  # datasets cached under the test folder, not the home directory
