"""The runner: limits on runs, whole cases on host-only trees (so they run without a GPU), the
"compiled, not run" path, batches, and `cass-cc verify` itself."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from cass_cc.toolchain.found import Found
from cass_cc.verify import BuildSpec, Case, RunSpec, Tools, run_limited, verify, verify_many
from cass_cc.verify.gpu import nvidia_gpu, signs
from tests.conftest import needs_clang, run_cass
from tests.verify.conftest import NVCC, PROGRAMS, needs_nvcc

PY = sys.executable


def test_run_limited_time_out(tmp_path: Path) -> None:
    r = run_limited([PY, "-c", "import time; print('x', flush=True); time.sleep(30)"], str(tmp_path), os.environ, 1.0)
    assert r.timed_out and r.exit_code is None and r.status == "timed out" and r.stdout == "x\n"
    assert r.seconds < 10


def test_run_limited_crash_and_stdin(tmp_path: Path) -> None:
    r = run_limited([PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"], str(tmp_path), os.environ, 30)
    assert r.exit_code == -11 and r.status == "SIGSEGV"
    (tmp_path / "in.txt").write_text("hello\n")
    r = run_limited([PY, "-c", "import sys; print(sys.stdin.read().upper(), end='')"], str(tmp_path), os.environ, 30,
                    stdin=str(tmp_path / "in.txt"))
    assert r.exit_code == 0 and r.stdout == "HELLO\n"
    assert not (tmp_path / ".cass-verify.out").exists()


def test_run_limited_memory(tmp_path: Path) -> None:
    r = run_limited([PY, "-c", "import time; b = bytearray(400 << 20); b[::4096] = b'x' * len(b[::4096]); time.sleep(30)"],
                    str(tmp_path), os.environ, 30, memory_mb=100)
    assert r.out_of_memory and r.status == "out of memory"


def _tree(root: Path, body: str) -> Path:
    """A host-only 'program' with its own build command: it runs anywhere."""
    root.mkdir()
    (root / "main.py").write_text(body)
    (root / "data.txt").write_text("3\n")
    return root


ORIGINAL = "import sys\nn = int(open('data.txt').read()) + int(sys.argv[1])\nprint('n', n)\nprint('x', 1 / 3)\nprint('time 5 ms')\nprint('PASS')\n"


def _tools(tmp_path: Path, gpu: bool) -> Tools:
    return Tools(Found(nvcc=PY), hipnv_folder=str(tmp_path / "hipnv"), gpu=gpu)


def _case(tmp_path: Path, translation_body: str, run: bool | None = True, rtol: float = 1e-5) -> Case:
    a = _tree(tmp_path / "orig", ORIGINAL)
    b = _tree(tmp_path / "port", translation_body)
    build = BuildSpec(command="cp main.py prog.py")
    runs = RunSpec(command=f"{PY} prog.py 4", timeout=30, run=run, rtol=rtol)
    return Case("py", str(a), str(b), build, runs)


def test_trees_agree(tmp_path: Path) -> None:
    body = ORIGINAL.replace("print('x', 1 / 3)", "print('x', 0.3333334)").replace("5 ms", "9 ms")
    r = verify(_case(tmp_path, body), _tools(tmp_path, gpu=False))
    assert r.outcome == "agree" and r.level == "ran and agreed", r.reasons
    assert r.original.run is not None and r.original.run.stdout.startswith("n 7\n")
    assert r.verdicts_agree
    record = r.to_json()
    assert record["level"] == "ran and agreed" and record["original"]["status"] == "exit 0"  # type: ignore[index]
    json.dumps(record)


def test_trees_differ(tmp_path: Path) -> None:
    body = ORIGINAL.replace("1 / 3", "1 / 2").replace("'PASS'", "'FAIL'); raise SystemExit(1")
    r = verify(_case(tmp_path, body), _tools(tmp_path, gpu=True))
    assert r.outcome == "differ" and r.level == "ran and differed"
    assert r.reasons[:2] == ["exit 0 vs exit 1", "verdict PASS vs FAIL"]
    assert "-x 0.333" in r.diff and "+x 0.5" in r.diff


def test_translation_that_does_not_build(tmp_path: Path) -> None:
    case = _case(tmp_path, ORIGINAL)
    case = Case(case.name, case.original, case.translation,
                BuildSpec(command="cp main.py prog.py", ported_command="echo broken >&2; exit 2"), case.run)
    r = verify(case, _tools(tmp_path, gpu=True))
    assert r.level == "not built" and r.outcome == "build-failed"
    assert "broken" in r.translation.build_log and r.original.built


def test_compiled_not_run_without_gpu(tmp_path: Path) -> None:
    r = verify(_case(tmp_path, ORIGINAL, run=None), _tools(tmp_path, gpu=False))
    assert r.level == "compiled for NVIDIA" and r.outcome == "not-run"
    assert r.reasons == ["compiled, not run: no NVIDIA GPU here"]
    assert r.original.run is None and r.translation.run is None


def test_time_out_is_inconclusive(tmp_path: Path) -> None:
    case = _case(tmp_path, "import time\ntime.sleep(30)\n")
    case = Case(case.name, case.original, case.translation, case.build, RunSpec(command=case.run.command, timeout=2))
    r = verify(case, _tools(tmp_path, gpu=True))
    assert r.outcome == "timeout" and r.level == "ran, inconclusive" and r.reasons == ["translation timed out"]


def test_batch_in_order(tmp_path: Path) -> None:
    cases = []
    for i in range(3):
        (tmp_path / str(i)).mkdir()
        c = _case(tmp_path / str(i), ORIGINAL if i != 1 else ORIGINAL.replace("'n', n", "'n', n + 1"))
        cases.append(Case(f"c{i}", c.original, c.translation, c.build, c.run))
    results = list(verify_many(cases, jobs=2, tools=_tools(tmp_path, gpu=True)))
    assert [r.name for r in results] == ["c0", "c1", "c2"]
    assert [r.outcome for r in results] == ["agree", "differ", "agree"]


@pytest.mark.skipif(bool(signs(os.environ)), reason="an NVIDIA device is here")
def test_gpu_detection_without_device(tmp_path: Path) -> None:
    check = nvidia_gpu(NVCC or PY, tmp_path, {"PATH": "/nonexistent"})
    assert not check.present and "no /dev/nvidia0 and no nvidia-smi" in check.how


@needs_nvcc
@pytest.mark.skipif(bool(signs(os.environ)), reason="an NVIDIA device is here")
def test_cli_single_file_compiled_not_run(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """`cass-cc verify FILE.cu -- ARGS`: translates, builds both sides with nvcc, says plainly
    that nothing was run, exit status 0; JSON lines on request."""
    out = tmp_path / "r.jsonl"
    proc = run_cass(["verify", str(PROGRAMS / "reduce.cu"), "--no-amd", "--json", str(out), "--", "1000"],
                    tmp_path, cass_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no NVIDIA GPU here" in proc.stderr and "compiled, not run" in proc.stderr
    assert "compiled for NVIDIA" in proc.stdout
    record = json.loads(out.read_text())
    assert record["level"] == "compiled for NVIDIA" and record["outcome"] == "not-run"
    assert record["original"]["built"] and record["translation"]["built"]


def test_cli_usage_errors(tmp_path: Path, cass_env: dict[str, str]) -> None:
    proc = run_cass(["verify"], tmp_path, cass_env)
    assert proc.returncode == 2 and "give FILE.cu" in proc.stderr
    proc = run_cass(["verify", "--original", str(tmp_path), "--ported", str(tmp_path)], tmp_path, cass_env)
    assert proc.returncode == 2 and "--build CMD --run CMD" in proc.stderr
    proc = run_cass(["verify", "--mask", "dt = (", str(PROGRAMS / "reduce.cu")], tmp_path, cass_env)
    assert proc.returncode == 2 and "'dt = (' is not a regular expression" in proc.stderr


def test_cli_tree_ported_on_the_fly(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """--original without --ported: the tree is ported first (cass-cc port), then both built."""
    tree = tmp_path / "app"
    tree.mkdir()
    (tree / "k.cu").write_text("#include <cuda_runtime.h>\nint main() { void* p; cudaMalloc(&p, 4); return 0; }\n")
    keep = tmp_path / "keep"
    proc = run_cass(["verify", "--original", str(tree), "--build", "test -f k.cu", "--run", "true", "--no-run",
                     "--keep", str(keep)], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "hipMalloc" in (keep / "ported" / "app" / "k.cu").read_text()
    assert "compiled for NVIDIA" in proc.stdout


@needs_nvcc
def test_cli_trees_force_run(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """Trees with their own build and run commands; --force-run runs them even without a GPU
    (host-only programs here), and the table and diff name the difference."""
    a = _tree(tmp_path / "a", ORIGINAL)
    b = _tree(tmp_path / "b", ORIGINAL.replace("1 / 3", "1 / 4"))
    proc = run_cass(["verify", "--original", str(a), "--ported", str(b), "--build", "cp main.py prog.py",
                     "--run", f"{PY} prog.py 1", "--force-run"], tmp_path, cass_env)
    assert proc.returncode == 1, proc.stderr
    assert "ran and differed" in proc.stdout and "+x 0.25" in proc.stdout
    proc = run_cass(["verify", "--original", str(a), "--ported", str(b), "--build", "cp main.py prog.py",
                     "--run", f"{PY} prog.py 1", "--force-run", "--mask", "^x "], tmp_path, cass_env)
    assert proc.returncode == 0 and "ran and agreed" in proc.stdout, proc.stdout + proc.stderr


def test_translation_without_rocm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An NVIDIA-only machine has no ROCm to take the HIP version from: translate for 5.2."""
    import cass_cc.port as port
    from cass_cc.verify import cli

    real = port._target
    seen = []

    def no_rocm(opts, config, env):  # type: ignore[no-untyped-def]
        seen.append(opts.hip_version)
        if opts.hip_version is None:
            raise port.PortError("cannot find a ROCm/HIP installation")
        return real(opts, config, env)

    monkeypatch.setattr(port, "_target", no_rocm)
    hip, error = cli._translate(PROGRAMS / "reduce.cu", tmp_path, None)
    assert error is None and seen == [None, cli.DEFAULT_HIP]
    assert "__shfl_down(" in hip.read_text() and hip.parent == tmp_path


@needs_nvcc
@needs_clang
def test_cli_tree_amd_level(tmp_path: Path, cass_env: dict[str, str]) -> None:
    """--amd on a tree: the ported tree's own Makefile also builds for gfx1100 with ROCm's hipcc,
    in a copy, and the table says so beside the NVIDIA level."""
    tree = tmp_path / "app"
    tree.mkdir()
    (tree / "k.cu").write_text("#include <cuda_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x] = 1; }\n"
                               "int main() { int* p; cudaMalloc(&p, 128); k<<<1, 32>>>(p); return cudaDeviceSynchronize(); }\n")
    (tree / "Makefile").write_text("CC = nvcc\napp: k.cu\n\t$(CC) -arch=sm_80 -O2 k.cu -o app\n")
    out = tmp_path / "r.jsonl"
    proc = run_cass(["verify", "--original", str(tree), "--build", "make -s", "--run", "./app", "--no-run", "--amd",
                     "--json", str(out)], tmp_path, cass_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    record = json.loads(out.read_text())
    assert record["amd"] is True and record["level"] == "compiled for NVIDIA"
