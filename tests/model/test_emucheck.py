"""model-check=emulator in real builds: a model's answer is used only where its kernel computes
what the CUDA file's kernel computes on the gfx1100 emulator, the truth being the file's SASS
(nvcc, sm_90) lifted by cass-cc. The file's inline PTX has no rewrite in the rules, so the model
is asked; the answers come from a local OpenAI-compatible server."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import ROOT, needs_clang, run_cass
from tests.model.server import Reply, fenced



def _lifter_tools() -> str:
    """Why the truth cannot be built here (nvcc, nvdisasm, LLVM 16), or ""."""
    from cass_cc.toolchain import Toolchain, ToolchainError

    try:
        tc = Toolchain(os.environ)
        for tool in (tc.nvcc, tc.nvdisasm, tc.tool("opt"), tc.tool("llc"), tc.llvm_mc, tc.ld_lld):
            assert tool.path
    except ToolchainError as e:
        return str(e)
    return ""


pytestmark = [pytest.mark.e2e, needs_clang, pytest.mark.skipif(bool(_lifter_tools()), reason="needs nvcc, nvdisasm and LLVM 16")]

# the niche's inline-PTX bfind program (bench/niche): its answers are the file in HIP with the asm replaced
BFIND = (ROOT / "bench" / "niche" / "ptx_bfind.cu").read_text()
ASM = 'asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(v));'
HIP = BFIND.replace("#include <cuda_runtime.h>", "#include <hip/hip_runtime.h>").replace("cuda", "hip")
RIGHT = HIP.replace(ASM, "r = v ? 31u - __clz(v) : 0xffffffffu;")
WRONG = HIP.replace(ASM, "r = __clz(v);")  # a count, not an index


def build(tmp_path: Path, cass_env: dict[str, str], chat_server, answer: str, check: str, **more: str):  # type: ignore[no-untyped-def]
    server, url = chat_server(lambda n, body: Reply(content=fenced(answer)))
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "bfind.cu").write_text(BFIND)
    env = {**cass_env, "CASS_MODEL_ENDPOINT": url, "CASS_CACHE_DIR": str(tmp_path / "cache"), **more}
    if check:
        env["CASS_MODEL_CHECK"] = check
    return run_cass(["-v", "-c", "bfind.cu", "-o", "bfind.o"], tmp_path, env), (server, env)


def test_an_answer_that_computes_the_same_is_used(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    proc, _ = build(tmp_path, cass_env, chat_server, RIGHT, "emulator")
    assert proc.returncode == 0, proc.stderr
    assert "bfind.cu: translated by model-cass-1-endpoint:" in proc.stderr and (tmp_path / "bfind.o").is_file()


def test_an_answer_that_computes_otherwise_is_refused(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    """It compiles, so the compile check takes it; the emulator finds it wrong, and the rules,
    which cannot serve the PTX, fail the build instead of a wrong object being made."""
    proc, _ = build(tmp_path / "compile", cass_env, chat_server, WRONG, "compile")
    assert proc.returncode == 0 and "translated by model-" in proc.stderr, proc.stderr
    proc, (server, env) = build(tmp_path / "emulator", cass_env, chat_server, WRONG, "emulator")
    assert proc.returncode != 0 and not (tmp_path / "emulator" / "bfind.o").exists()
    assert "answer computes other results than the CUDA on the gfx1100 emulator (apply(unsigned int const*, " \
           "unsigned int*, int): buffer 1" in proc.stderr, proc.stderr
    assert "translated by rules instead" in proc.stderr
    # the answer and its verdict are cached: a rebuild asks no model and decides the same
    again = run_cass(["-c", "bfind.cu", "-o", "bfind.o"], tmp_path / "emulator", env)
    assert again.returncode != 0 and "computes other results than the CUDA" in again.stderr
    assert len(server.requests) == 1


def test_the_default_checks_on_the_emulator_where_nvcc_is_found(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    """model-check=auto: the emulator check here (nvcc and nvdisasm are found); where nvcc is not,
    the compile alone, as before."""
    proc, _ = build(tmp_path / "here", cass_env, chat_server, WRONG, "")
    assert proc.returncode != 0 and "computes other results than the CUDA" in proc.stderr, proc.stderr
    proc, _ = build(tmp_path / "no-nvcc", cass_env, chat_server, WRONG, "", CASS_NVCC=str(tmp_path / "no-such-nvcc"))
    assert proc.returncode == 0 and "translated by model-" in proc.stderr, proc.stderr


def test_insisting_without_nvcc_refuses_and_says_why(tmp_path: Path, cass_env: dict[str, str], chat_server) -> None:  # type: ignore[no-untyped-def]
    proc, _ = build(tmp_path, cass_env, chat_server, RIGHT, "emulator", CASS_NVCC=str(tmp_path / "no-such-nvcc"))
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "answer cannot be checked on the gfx1100 emulator (" in proc.stderr and "CASS_NVCC" in proc.stderr, proc.stderr
