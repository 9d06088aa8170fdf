"""The assembly task on a few kernels: cubins -> the SASS lifter -> llvm-mc -> a code object, and
where the gfx1100 emulator is here, each kernel run against clang's build of the translation."""
from __future__ import annotations

import shutil

import pytest

from tests.evaluate.conftest import EVAL_CACHE, eval_env, locked

pytestmark = pytest.mark.skipif(not (shutil.which("llvm-mc-16") and shutil.which("llc-16")), reason="needs llvm 16")


@pytest.fixture(scope="session")
def assembly_records(suite):
    from cass_train.evaluate.engine import Settings, evaluate

    chosen = suite.select("gemv_shfl,histogram_shared,transpose_padded")
    with locked("assembly"):
        records, identity, _ = evaluate(Settings(translator="rules", suite=chosen, task="assembly", jobs=2, cache=EVAL_CACHE,
                                                 sms=(80,), env=eval_env()))
    return records, identity


def test_kernels_lift_assemble_and_link(assembly_records):
    records, identity = assembly_records
    assert identity.startswith("lifter:")
    kernels = [k for r in records for k in r["kernels"]]
    assert {k["demangled"].split("(")[0] for k in kernels} >= {"gemv", "hist", "transpose"}
    for k in kernels:
        assert k["translated"] and k["assembled"] and k["linked"], k
        assert k["sm"] == 80


def test_equivalence_on_the_emulator_or_said_not_run(assembly_records):
    from cass_train.evaluate.assembly import emu_available

    records, _ = assembly_records
    kernels = [k for r in records for k in r["kernels"]]
    if emu_available() and shutil.which("clang-15"):
        assert all(k["equivalent"] is True for k in kernels), [(k["kernel"], k["error"]) for k in kernels]
    else:
        assert all(k["equivalent"] is None and k["note"].startswith("assembled, not run") for k in kernels)


def test_equivalence_detects_a_different_kernel(tmp_path, suite):
    """The check can fail: the lifted gemv against a reference whose kernel computes something else."""
    from cass_train.evaluate.assembly import assemble_program, emu_available
    from cass_cc.toolchain.found import Found
    from cass_train.evaluate.build import compile_hip
    from cass_train.evaluate.translators import Options, RulesTranslator

    if not emu_available():
        pytest.skip("no gfx1100 emulator")
    tools = Found.find(eval_env())
    if not tools.clang:
        pytest.skip("no clang for gfx1100")
    p = suite.select("gemv_shfl").programs[0]
    text = RulesTranslator(Options(hip_version=tools.hip_version)).translate_many([(p.name, p.source(), p.path.name)])[p.name].text
    wrong = text.replace("if (lane == 0) y[row] = s;", "if (lane == 0) y[row] = s + 1.0f;")
    assert wrong != text
    ref = tmp_path / "ref.co"
    assert compile_hip(wrong, p.path.name, (), tools, keep=ref, device_only=True).ok
    results = assemble_program(p, 80, Found.find(eval_env()), tmp_path / "w", None, ref)
    assert results[0].linked and results[0].equivalent is False
    assert "differ from the reference" in results[0].error


def test_assembly_tables(assembly_records, tmp_path):
    from cass_train.evaluate.report import write_all

    records, identity = assembly_records
    broken = [dict(r) for r in records]
    broken[0] = {**broken[0], "kernels": [{**k, "assembled": False, "linked": False, "equivalent": None,
                                           "error": "llvm-mc: error: invalid instruction"} for k in broken[0]["kernels"]]}
    rows = write_all(broken, "assembly", tmp_path, {"translator": "rules", "identity": identity})
    total = rows[-1]
    n = sum(len(r["kernels"]) for r in records)
    assert total["kernels"] == n and total["assembled"] == n - len(broken[0]["kernels"])
    assert "invalid instruction" in (tmp_path / "failures.md").read_text()
    assert "| **total** |" in (tmp_path / "table.md").read_text()


def test_recorded_answers_are_scored_as_the_model_path_scores_answers(suite, tmp_path):
    """outputs:FILE for the assembly task: answers a model gave elsewhere, looked up by the digest of
    the prompt cass-cc sends. Here the answers are the lifter's own assembly (which llvm-mc accepts)
    for one kernel and text that is not assembly for the others: the record says which is which."""
    import hashlib
    import json

    from cass_cc.model.prompts import ASSEMBLY
    from cass_cc.sass import codegen
    from cass_cc.sass.cubin import read
    from cass_cc.sass.modelpath import sass_texts
    from cass_cc.toolchain.found import Found
    from cass_train.evaluate.engine import Settings, evaluate
    from cass_train.evaluate.translators import EvalError, RecordedAnswers

    tools = Found.find(eval_env())
    program = suite.select("gemv_shfl").programs[0]
    cub = tmp_path / "p.cubin"
    import subprocess

    subprocess.run([tools.nvcc, "-arch=sm_80", "-O2", "-cubin", str(program.path), "-o", str(cub)], check=True)
    cb = read(cub)[0]
    texts = sass_texts(cb, tools.cuobjdump)
    report = codegen.lift_cubin(cb, tools.nvdisasm)
    first = cb.kernels[0].name
    good = codegen.gfx1100_asm(codegen.ir_module(codegen.LiftReport(cb, [lk for lk in report.lifted if lk.name == first], {},
                                                                    report.functions)), tools.opt, tools.llc)
    rows = []
    for k in cb.kernels:
        prompt = ASSEMBLY.prompt(texts.get(k.name, ""))
        answer = f"```hipasm\n{good}```" if k.name == first else "```hipasm\nnot an instruction\n```"
        rows.append({"prompt_sha256": hashlib.sha256(prompt.encode()).hexdigest(), "answer": answer})
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps(r) + "\n" for r in rows))
    records, identity, _ = evaluate(Settings(translator=f"outputs:{answers}", suite=suite.select("gemv_shfl"),
                                             task="assembly", jobs=1, cache=None, sms=(80,), env=eval_env()))
    assert identity.startswith("asm-model-")
    kernels = {k["kernel"]: k for k in records[0]["kernels"]}
    assert kernels[first]["how"] == "model" and kernels[first]["assembled"] and kernels[first]["linked"]
    others = [k for name, k in kernels.items() if name != first]
    assert all(not k["translated"] and "llvm-mc" in k["error"] for k in others)
    # a prompt the file has no answer for is an error, not an empty answer
    with pytest.raises(Exception, match="no answer for 1 of 1 prompts"):
        RecordedAnswers(str(answers)).generate(["some other SASS"], None)
    (tmp_path / "bad.jsonl").write_text('{"prompt_sha256": "x"}\n')
    with pytest.raises(EvalError, match=r"bad\.jsonl:1: not a JSON object"):
        RecordedAnswers(str(tmp_path / "bad.jsonl"))
