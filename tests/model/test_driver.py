"""The model translator in real builds (bin/cass-cc, clang for gfx1100), served by a
local OpenAI-compatible server: answers compiled before use, cached, rejected ones
falling back to the rules; `cass-cc translate` ahead of a build; assembly answers
checked by llvm-mc."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import needs_clang, run_cass
from tests.model.server import Reply, fenced

pytestmark = [pytest.mark.e2e, needs_clang]

PTX = """\
#include <cuda_runtime.h>
#include "common.cuh"
__device__ unsigned NAME_sm() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}
__global__ void NAME(unsigned* out) {
  out[threadIdx.x] = NAME_sm() + twice(1);
}
"""
HIP = """\
#include <hip/hip_runtime.h>
#include "common.cuh"
__device__ unsigned NAME_sm() {
  return __smid();
}
__global__ void NAME(unsigned* out) {
  out[threadIdx.x] = NAME_sm() + twice(1);
}
"""
COMMON = "#pragma once\n#include <cuda_runtime.h>\n__device__ inline unsigned twice(unsigned x) { return 2 * x; }\n"
PLAIN = """\
#include <cuda_runtime.h>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
"""


@pytest.fixture
def cass_env(cass_env: dict[str, str]) -> dict[str, str]:
    """The compile check alone: these kernels read %smid, which no lifted truth has, so the default
    (the emulator check where nvcc is found, tests/model/test_emucheck.py) would refuse them."""
    return {**cass_env, "CASS_MODEL_CHECK": "compile"}


def answer_for(body: dict) -> Reply:
    """The HIP version of whichever kernel the prompt holds."""
    prompt = body["messages"][0]["content"]
    for name in ("kernel_a", "kernel_b"):
        if f"void {name}(" in prompt:
            return Reply(content=fenced(HIP.replace("NAME", name)))
    return Reply(content="I cannot translate that.")


def project(folder: Path) -> Path:
    (folder / "common.cuh").write_text(COMMON)
    (folder / "a.cu").write_text(PTX.replace("NAME", "kernel_a"))
    (folder / "b.cu").write_text(PTX.replace("NAME", "kernel_b"))
    (folder / "plain.cu").write_text(PLAIN)
    return folder


def test_valid_answer_is_used_and_cached(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: answer_for(body))
    project(tmp_path)
    env = {**cass_env, "CASS_MODEL_ENDPOINT": url, "CASS_CACHE_DIR": str(tmp_path / "cache")}
    # the rules alone cannot build this file (its inline PTX has no HIP rewrite); with the model:
    first = run_cass(["-v", "-c", "a.cu", "-o", "a.o"], tmp_path, env, check=True)
    assert "a.cu: translated by model-cass-1-endpoint:" in first.stderr
    assert (tmp_path / "a.o").is_file() and len(server.requests) == 1
    # (-cuda: the same translation step, without the compile)
    second = run_cass(["-v", "-cuda", "a.cu", "-o", "a.hip"], tmp_path, env, check=True)
    assert "a.cu: translation from cache (model-" in second.stderr
    assert (tmp_path / "a.hip").read_text() == HIP.replace("NAME", "kernel_a")
    # cache clear drops the model's answers too: the model is asked again
    run_cass(["cache", "clear"], tmp_path, env, check=True)
    third = run_cass(["-v", "-cuda", "a.cu", "-o", "a.hip"], tmp_path, env, check=True)
    assert "a.cu: translated by model-" in third.stderr
    assert len(server.requests) == 2
    # a file the rules translate fully never goes to the model
    run_cass(["-cuda", "plain.cu", "-o", "plain.hip"], tmp_path, env, check=True)
    assert len(server.requests) == 2


def test_answer_that_does_not_compile_falls_back_to_rules(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: Reply(content=fenced("this is not C++\n")))
    project(tmp_path)
    env = {**cass_env, "CASS_MODEL_ENDPOINT": url, "CASS_MODEL_WHEN": "always"}
    for _ in range(2):  # the second time is a cache hit, with the same note
        proc = run_cass(["-cuda", "plain.cu", "-o", "plain.hip"], tmp_path, env, check=True)
        [line] = proc.stderr.splitlines()
        assert line.startswith("plain.cu:1:1: warning: model: ") and line.endswith("; translated by rules instead")
        assert "answer does not compile (plain.cu (model answer):1:1: error: " in line
    assert len(server.requests) == 1


def test_unreachable_endpoint_falls_back_to_rules(tmp_path: Path, cass_env: dict[str, str]) -> None:
    project(tmp_path)
    env = {**cass_env, "CASS_MODEL_ENDPOINT": "http://127.0.0.1:9/v1", "CASS_MODEL_WHEN": "always", "CASS_MODEL_RETRIES": "0", "CASS_MODEL": "m"}
    proc = run_cass(["-cuda", "plain.cu", "-o", "plain.hip"], tmp_path, env, check=True)
    assert "127.0.0.1:9/v1/chat/completions: " in proc.stderr and "translated by rules instead" in proc.stderr


def test_translate_ahead_makes_the_build_all_hits(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: answer_for(body))
    project(tmp_path)
    env = {**cass_env, "CASS_CACHE_DIR": str(tmp_path / "cache")}
    ahead = run_cass(["translate", "--model-endpoint", url, "-I.", "-arch=sm_80", "a.cu", "b.cu", "plain.cu"], tmp_path, env, check=True)
    assert ahead.stdout.splitlines() == ["a.cu: model", "b.cu: model", "plain.cu: rules",
                                         "3 file(s) translated: 2 by the model, 1 by the rules"]
    assert len(server.requests) == 2
    build_env = {**env, "CASS_MODEL_ENDPOINT": url, "CASS_CACHE_REQUIRE_HIT": "1"}
    run_cass(["-I.", "-arch=sm_80", "-c", "a.cu", "-o", "a.o"], tmp_path, build_env, check=True)
    for name in ("b", "plain"):  # -M: translation and translated headers, then clang's preprocessor only
        run_cass(["-I.", "-arch=sm_80", "-M", f"{name}.cu", "-o", f"{name}.d"], tmp_path, build_env, check=True)
    assert len(server.requests) == 2


def test_function_scope_puts_the_answer_in_the_rules_translation(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    function = "__device__ unsigned kernel_a_sm() {\n  return __smid();\n}\n"
    server, url = chat_server(lambda n, body: Reply(content=fenced(function)))
    project(tmp_path)
    env = {**cass_env, "CASS_MODEL_ENDPOINT": url, "CASS_MODEL_SCOPE": "function"}
    run_cass(["-c", "a.cu", "-o", "a.o", "--keep", "--keep-dir", "kept"], tmp_path, env, check=True)
    prompt = server.requests[0]["messages"][0]["content"]
    assert "%%smid" in prompt and "__global__" not in prompt
    kept = (tmp_path / "kept" / "a.cu.hip").read_text()
    assert function + '#line 8 "a.cu"\n__global__ void kernel_a(unsigned* out) {' in kept
    assert "<hip/hip_runtime.h>" in kept  # the rest is the rules translation


def test_body_answers_get_the_rules_prelude(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    """A model trained on bodies (cass-train data.answer = "body") answers without the prelude and
    without <hip/hip_runtime.h>: cass-cc puts the rules' prelude and #line 1 of the same file before it."""
    from cass_cc.translate.prelude import split_prelude

    (tmp_path / "c.cu").write_text(PTX.replace('#include "common.cuh"\n', "").replace(" + twice(1)", "").replace("NAME", "kernel_c"))
    body = HIP.replace('#include "common.cuh"\n', "").replace(" + twice(1)", "").replace("NAME", "kernel_c")
    body = body.removeprefix("#include <hip/hip_runtime.h>\n")
    server, url = chat_server(lambda n, b: Reply(content=fenced(body)))
    env = {**cass_env, "CASS_MODEL_ENDPOINT": url, "CASS_MODEL_ANSWER": "body"}
    run_cass(["-c", "c.cu", "-o", "c.o", "--keep", "--keep-dir", "kept"], tmp_path, env, check=True)
    kept = (tmp_path / "kept" / "c.cu.hip").read_text()
    run_cass(["-cuda", "c.cu", "-o", "rules.hip"], tmp_path, cass_env, check=True)  # the rules alone
    head = split_prelude((tmp_path / "rules.hip").read_text())[0]
    assert head.startswith("#include <hip/hip_runtime.h>\n") and head.endswith('#line 1 "c.cu"\n')
    assert kept == head + body
    # the same answer taken as a whole file has no HIP runtime header: it does not compile
    whole = {**env, "CASS_MODEL_ANSWER": "whole", "CASS_CACHE_DIR": str(tmp_path / "cache-whole")}
    proc = run_cass(["-c", "c.cu", "-o", "whole.o"], tmp_path, whole)
    assert "c.cu:1:1: warning: model: " in proc.stderr and "answer does not compile (" in proc.stderr
    assert len(server.requests) == 2


def test_assembly_answers_are_assembled_first(tmp_path: Path, chat_server) -> None:  # type: ignore[no-untyped-def]
    mc = shutil.which("llvm-mc-16")
    if mc is None:
        pytest.skip("needs llvm-mc-16")
    from cass_cc.model.settings import ModelSettings
    from cass_cc.model.store import Store
    from cass_cc.translate.model import AssemblyModel

    good = "  .text\n  s_mov_b32 s0, 0\n  s_endpgm\n"
    server, url = chat_server(lambda n, body: Reply(content=fenced(good if "EXIT" in body["messages"][0]["content"] else "  bogus_op v0\n", "hipasm")))
    model = AssemblyModel(ModelSettings(endpoint=url, model="m"), Store(tmp_path), mc)
    assert model.translate(["        EXIT ;", "        BRA 0x10 ;"]) == [good, None]
    assert server.requests[0]["messages"][0]["content"].startswith(
        "Convert the following CUDA device assembly code to HIP device assembly:\n```cudaasm\n")


def test_no_torch_without_a_local_model(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    """Rules-only builds, --version, and endpoint builds never import torch or transformers."""
    server, url = chat_server(lambda n, body: answer_for(body))
    project(tmp_path)
    code = (
        "import sys\n"
        "from cass_cc.cli import main\n"
        "assert main(['--version']) == 0\n"
        "assert main(['-cuda', 'plain.cu', '-o', 'plain.hip']) == 0\n"
        f"assert main(['--cass-model-endpoint={url}', '-cuda', 'a.cu', '-o', 'a.hip']) == 0\n"
        "heavy = [m for m in ('torch', 'transformers', 'tokenizers') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={**cass_env, "PYTHONPATH": str(Path(__file__).parents[2])},
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert len(server.requests) == 1
