"""`cass-data synth`: determinism, coverage of the domains, the manifest, and (where nvcc is
installed) that a sample of programs compiles with nvcc and through cass-cc."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner

from cass_cc.util import atomic_write_text
from cass_data.cli import cli, sha256_hex_bytes
from cass_data.synth import DOMAINS, generate, generate_many
from tests.conftest import CASS_CC, ROOT, SHARED_CACHE

NVCC = os.environ.get("CASS_NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
needs_nvcc = pytest.mark.skipif(not Path(NVCC).is_file(), reason="needs nvcc")
# Programs per domain in the compile sample (2 cores: one a domain keeps the test near a minute).
PER_DOMAIN = int(os.environ.get("CASS_TEST_SYNTH_PER_DOMAIN", "1"))


def synth(args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["synth", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_same_seed_same_bytes_other_seed_differs(tmp_path: Path) -> None:
    synth(["--n", "30", "--seed", "5", "-o", str(tmp_path / "a")])
    synth(["--n", "30", "--seed", "5", "-o", str(tmp_path / "b")])
    synth(["--n", "30", "--seed", "6", "-o", str(tmp_path / "c")])
    a, b, c = files(tmp_path / "a"), files(tmp_path / "b"), files(tmp_path / "c")
    assert len(a) == 31 and a == b
    assert a.keys() == c.keys()
    assert sum(a[k] != c[k] for k in a if k.endswith(".cu")) >= 28


def test_stable_across_interpreters() -> None:
    """No hash() of strings, no set order: a fresh interpreter with another hash seed agrees."""
    code = "from cass_data.synth import generate_many as g; import hashlib; " \
           "print(hashlib.sha256(''.join(p.source for p in g(3, 24)).encode()).hexdigest())"
    digests = set()
    for hash_seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    here = __import__("hashlib").sha256("".join(p.source for p in generate_many(3, 24)).encode()).hexdigest()
    assert digests == {here}


def test_program_depends_on_seed_and_index_only() -> None:
    assert generate(9, 17).source == list(generate_many(9, 18))[17].source
    sub = ("gemm", "sort")
    assert generate(9, 5, sub).domain == "sort"


def test_every_domain_appears_and_programs_are_whole(tmp_path: Path) -> None:
    synth(["--n", str(2 * len(DOMAINS)), "--seed", "1", "-o", str(tmp_path)])
    manifest = [json.loads(line) for line in (tmp_path / "manifest.jsonl").read_text().splitlines()]
    assert {m["domain"] for m in manifest} == set(DOMAINS)
    for m in manifest:
        data = (tmp_path / m["file"]).read_bytes()
        text = data.decode("utf-8")
        assert m["file"] == f"{m['domain']}-{m['index']}.cu" and m["seed"] == "1"
        assert m["sha256"] == sha256_hex_bytes(text)
        assert "int main()" in text and "__global__" in text
        assert 'printf("PASS\\n")' in text and 'printf("FAIL\\n")' in text
        assert 'printf("SKIP: no CUDA device\\n"); return 2;' in text
        assert len(text.splitlines()) < 200, m["file"]


def test_domains_option(tmp_path: Path) -> None:
    synth(["--n", "4", "--seed", "1", "--domains", "sort,warp", "-o", str(tmp_path)])
    assert sorted(p.name for p in tmp_path.glob("*.cu")) == ["sort-0.cu", "sort-2.cu", "warp-1.cu", "warp-3.cu"]
    result = CliRunner().invoke(cli, ["synth", "--n", "1", "--domains", "nope", "-o", str(tmp_path)])
    assert result.exit_code != 0 and "unknown domain" in result.output


def sample() -> list[tuple[str, str]]:
    """PER_DOMAIN programs of every domain, seed 11."""
    per = len(DOMAINS) * PER_DOMAIN
    return [(f"{p.domain}-{p.index}.cu", p.source) for p in generate_many(11, per)]


def compile_all(folder: Path, command: list[str], env: dict[str, str] | None = None) -> dict[str, str]:
    """Compile every sample program two at a time; return {file: error output} for failures."""
    folder.mkdir(parents=True, exist_ok=True)
    progs = sample()
    for name, source in progs:
        atomic_write_text(folder / name, source)

    def one(name: str) -> tuple[str, int, str]:
        proc = subprocess.run([*command, "-arch=sm_80", "-o", name[:-3], name], cwd=folder, env=env,
                              capture_output=True, text=True)
        return name, proc.returncode, proc.stderr[-2000:]

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(one, [n for n, _ in progs]))
    return {name: err for name, rc, err in results if rc != 0}


@pytest.fixture(scope="session")
def nvcc_failures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return compile_all(tmp_path_factory.mktemp("synth-nvcc"), [NVCC])


@pytest.fixture(scope="session")
def cass_failures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("synth-cass")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    env["CASS_CACHE_DIR"] = str(SHARED_CACHE)
    env["CASS_CONFIG"] = str(tmp / "no-config.toml")
    return compile_all(tmp / "progs", [sys.executable, str(CASS_CC)], env)


@pytest.mark.e2e
@needs_nvcc
def test_sample_compiles_with_nvcc(nvcc_failures: dict[str, str]) -> None:
    assert not nvcc_failures, "\n\n".join(f"{k}:\n{v}" for k, v in nvcc_failures.items())


@pytest.mark.e2e
@pytest.mark.skipif(not shutil.which("clang-15") and not shutil.which("clang"), reason="needs a HIP-capable clang")
def test_sample_compiles_through_cass_cc(cass_failures: dict[str, str]) -> None:
    assert not cass_failures, "\n\n".join(f"{k}:\n{v}" for k, v in cass_failures.items())


@pytest.mark.skipif(not shutil.which("g++"), reason="needs g++")
def test_lowp_host_rounding_agrees_with_numpy(tmp_path: Path) -> None:
    """The lowp programs' CPU check rounds exact doubles to half and bfloat16 bits with C++ of
    their own; NumPy's float16 (and float32's bits, rounded to 16 to nearest even) are the truth,
    over every value the programs can produce: sums, products and fused multiply-adds of
    multiples of 1/16 in [-8, 8], signed zeros included."""
    import numpy as np

    from cass_data.synth.lowp import FORMATS, HOST_ROUND

    grid = np.arange(-128, 129) / 16.0
    rng = np.random.default_rng(3)
    a, b, c = (rng.choice(grid, 4000) for _ in range(3))
    values = np.concatenate([a + b, a - b, a * b, a * b + c, -(a * b), [0.0, -0.0, 0.0 * -1.0]])
    (tmp_path / "round.cpp").write_text(
        "#include <cmath>\n#include <cstdio>\n" + HOST_ROUND
        + "int main() { double x; while (std::scanf(\"%lf\", &x) == 1) std::printf(\"%u %u\\n\", "
        + f"round_bits(x, {FORMATS['__half'][0]}, {FORMATS['__half'][1]}), "
        + f"round_bits(x, {FORMATS['__nv_bfloat16'][0]}, {FORMATS['__nv_bfloat16'][1]})); }}\n")
    subprocess.run(["g++", "-O1", "-o", str(tmp_path / "round"), str(tmp_path / "round.cpp")], check=True)
    out = subprocess.run([str(tmp_path / "round")], input="\n".join(repr(float(v)) for v in values),
                         capture_output=True, text=True, check=True).stdout.split()
    got = np.array(out, dtype=np.uint32).reshape(-1, 2)
    half = values.astype(np.float16).view(np.uint16)
    assert np.array_equal(values.astype(np.float32).astype(np.float64), values)  # every value is exact in float
    f32 = values.astype(np.float32).view(np.uint32)
    bf16 = ((f32 + 0x7FFF + ((f32 >> 16) & 1)) >> 16).astype(np.uint16)
    assert np.array_equal(got[:, 0], half) and np.array_equal(got[:, 1], bf16)
    assert got[-2, 0] == 0x8000 and got[-2, 1] == 0x8000  # -0


def test_a_synth_source_that_names_its_domains_keeps_its_programs() -> None:
    """synth:N:SEED:DOMAINS: program i is of DOMAINS[i % len(DOMAINS)], whatever domains the
    generator has since gained; a bad spec is one line naming it."""
    from cass_data.collect import CollectError, from_synth

    twelve = DOMAINS[:12]
    named = list(from_synth("30:1:" + ",".join(twelve)))
    assert [u["domain"] for u in named] == [twelve[i % 12] for i in range(30)]
    assert [u["files"][u["main"]] for u in named] == [p.source for p in generate_many(1, 30, twelve)]
    assert {u["domain"] for u in from_synth(f"{len(DOMAINS)}:1")} == set(DOMAINS)
    for spec, message in (("3:1:warp,nope", "unknown domain(s) nope"), ("x:1", "expected synth:N:SEED[:DOMAINS]")):
        with pytest.raises(CollectError, match="^" + re.escape(f"synth:{spec}: {message}")):
            list(from_synth(spec))
