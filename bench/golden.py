"""Golden outputs for refactors that must not change behaviour (issues 25 and 26): a manifest of
hashes of what cass-cc makes from a fixed corpus, recorded before a change and compared after.

    python3 bench/golden.py record OUT.json [--parts translate,dryrun,lift,emu] [-j 2]
    python3 bench/golden.py compare BEFORE.json AFTER.json

Parts (each a {case: sha256} map):
  translate  the rules translation (text, diagnostics, unsupported names) of every CUDA file of the
             HeCBench dev programs (../shared/eval/hecbench_dev.txt, sources in .hecbench/src/NAME-cuda)
             for HIP 5.2 and HIP 5.7
  dryrun     `cass-cc --dryrun` of a set of command lines on one HeCBench source (every tool's spelling)
  lift       `cass-cc --emit-rdna3` (.s, or its one-line refusal) of the cubins of fuzz batches
  emu        the emulator's output words of every kernel of those batches through the lifter and the
             rules (with --fuzz-cases, also of every reduced case in tests/data/fuzz_cases)
Fuzz batches are folders holding fz.cu, fz.cubin and kernels.txt (`cass-data fuzz truth` output),
given with --batches (default: the first 6 of /work/r3/r3-0-125).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT, as_written  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

CASS_CC = [sys.executable, str(ROOT / "bin" / "cass-cc")]
HECBENCH = ROOT / ".hecbench" / "src"
DEV_LIST = ROOT.parent / "shared" / "eval" / "hecbench_dev.txt"
FUZZ_CASES = ROOT / "tests" / "data" / "fuzz_cases"
DEFAULT_BATCHES = Path("/work/r3/r3-0-125")
CUDA_SUFFIXES = {".cu", ".cuh", ".h", ".hpp"}
TEMP = re.compile(r"/tmp/[^\s/'\"]+")  # scratch folders differ from run to run
IDENTITY = re.compile(r"rules-[0-9]+-[0-9a-f]+-[0-9a-f]+")  # the rules' identity hashes their source
RDC_NAME = re.compile(r"(-D\w+=\w+)_[0-9a-f]{12}\b")  # -rdc: a per-object name from the scratch .hip's path


def sha(*parts: object) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else repr(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:20]


def dev_programs() -> list[Path]:
    names = [n for n in DEV_LIST.read_text().split() if n.strip()]
    return [HECBENCH / f"{n}-cuda" for n in names if (HECBENCH / f"{n}-cuda").is_dir()]


def part_translate(jobs: int) -> dict[str, str]:
    from cass_cc.translate import Target
    from cass_cc.translate.rules import RulesTranslator

    files = [f for d in dev_programs() for f in sorted(d.rglob("*")) if f.suffix in CUDA_SUFFIXES and f.is_file()]
    out = {}
    for target in (Target(), Target(hip_version=(5, 7))):
        rules = RulesTranslator()
        for f in files:
            key = f"{target.key()}:{f.relative_to(HECBENCH)}"
            try:
                t = rules.translate(f.read_text(errors="replace"), str(f), target)
                out[key] = sha(t.text, t.diagnostics, t.unsupported)
            except Exception as e:  # noqa: BLE001 - a refusal is an output too
                out[key] = sha(type(e).__name__, str(e))
    return out


DRYRUN_LINES = [
    ["-c", "{src}", "-o", "k.o"],
    ["-O3", "-arch=sm_80", "{src}", "-o", "k"],
    ["-c", "-G", "-g", "-lineinfo", "--use_fast_math", "-Xcompiler", "-fPIC", "{src}"],
    ["-c", "-rdc=true", "{src}", "-o", "k.o"],
    ["-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90", "-c", "{src}"],
    ["-E", "{src}"],
    ["-M", "{src}"],
    ["-ptx", "{src}"],
    ["-cubin", "-arch=sm_89", "{src}"],
    ["--shared", "-Xcompiler", "-fPIC", "{src}", "-o", "libk.so"],
    ["-std=c++17", "-I.", "-DX=1", "-c", "{src}", "--keep"],
    ["-c", "{src}", "--offload-arch=gfx1030"],
]


def part_dryrun(jobs: int) -> dict[str, str]:
    src = next(d / "main.cu" for d in dev_programs() if (d / "main.cu").exists())
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "CASS_CACHE_DIR": str(Path(tmp, "cache"))}  # every line a miss
        for line in DRYRUN_LINES:
            argv = [a.replace("{src}", str(src)) for a in line]
            p = subprocess.run([*CASS_CC, "--dryrun", *argv], capture_output=True, text=True, cwd=tmp, env=env)
            shutil.rmtree(Path(tmp, "cache"), ignore_errors=True)
            text = IDENTITY.sub("rules-ID", TEMP.sub("/tmp/X", (p.stdout + p.stderr).replace(tmp, "CWD")))
            text = RDC_NAME.sub(r"\1_H", text)
            out[" ".join(line)] = sha(p.returncode, text)
    return out


def batches(folder: Path, count: int) -> list[Path]:
    return sorted(p for p in folder.iterdir() if (p / "fz.cubin").exists() and (p / "truth.bin").exists())[:count]


def part_lift(jobs: int, batch_dirs: list[Path]) -> dict[str, str]:
    def one(b: Path) -> tuple[str, str]:
        with tempfile.TemporaryDirectory() as tmp:
            s = Path(tmp, "k.s")
            p = subprocess.run([*CASS_CC, "--emit-rdna3", str(b / "fz.cubin"), "-o", str(s)], capture_output=True, text=True)
            said = p.stderr.replace(str(b), "B").replace(str(s), "OUT")
            return b.name, sha(p.returncode, said, s.read_bytes() if s.exists() else b"")

    with ThreadPoolExecutor(jobs) as pool:
        return dict(pool.map(one, batch_dirs))


def part_emu(jobs: int, batch_dirs: list[Path], with_cases: bool) -> dict[str, str]:
    from cass_data.fuzz import batch as batchmod
    from cass_data.fuzz.cases import load_case
    from cass_data.fuzz.check import BUILDERS

    def run_batch(folder: Path, ks: list, inputs: dict, tag: str) -> dict[str, str]:
        got = {}
        for path in ("lifter", "rules"):
            with tempfile.TemporaryDirectory() as tmp:
                builder = BUILDERS[path](folder, ks, Path(tmp))
                for k in ks:
                    how, res = builder.run(k, inputs[k.name])
                    got[f"{tag}:{k.name}:{path}"] = sha(how, res if isinstance(res, bytes) else TEMP.sub("/tmp/X", res))
        return got

    def one_batch(b: Path) -> dict[str, str]:
        meta = json.loads((b / "meta.json").read_text())
        ks = batchmod.kernels(meta["seed"], meta["batch"], meta["size"])
        inp = (b / "in.bin").read_bytes()
        return run_batch(b, ks, {k.name: inp[4096 * j:4096 * (j + 1)] for j, k in enumerate(ks)}, b.name)

    def one_case(c: Path) -> dict[str, str]:
        k, meta, inp = load_case(c)
        with tempfile.TemporaryDirectory() as tmp:
            from cass_cc.toolchain import Toolchain
            from cass_data.fuzz.truth import NVCC_FLAGS

            t = Path(tmp)
            (t / "fz.cu").write_bytes((c / "fz.cu").read_bytes())
            subprocess.run([Toolchain(os.environ).nvcc.path, *NVCC_FLAGS, "-arch=sm_90", "-o", str(t / "fz.cubin"),
                            str(t / "fz.cu")], check=True, capture_output=True)
            return run_batch(t, [k], {k.name: inp}, c.name)

    out: dict[str, str] = {}
    with ThreadPoolExecutor(jobs) as pool:
        for part in pool.map(one_batch, batch_dirs):
            out.update(part)
        if with_cases:
            for part in pool.map(one_case, sorted(p.parent for p in FUZZ_CASES.glob("*/case.json"))):
                out.update(part)
    return out


def record(out: Path, parts: list[str], jobs: int, batch_folder: Path, nbatches: int, with_cases: bool) -> None:
    dirs = batches(batch_folder, nbatches)
    manifest = {}
    for part in parts:
        print(f"golden: {part} ...", file=sys.stderr, flush=True)
        if part == "translate":
            manifest[part] = part_translate(jobs)
        elif part == "dryrun":
            manifest[part] = part_dryrun(jobs)
        elif part == "lift":
            manifest[part] = part_lift(jobs, dirs)
        elif part == "emu":
            manifest[part] = part_emu(jobs, dirs, with_cases)
        print(f"golden: {part}: {len(manifest[part])} cases", file=sys.stderr, flush=True)
    out.write_text(json.dumps(manifest, indent=0, sort_keys=True) + "\n")


def compare(before: Path, after: Path) -> int:
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    bad = 0
    for part in sorted(set(a) & set(b)):
        keys = set(a[part]) | set(b[part])
        diff = sorted(k for k in keys if a[part].get(k) != b[part].get(k))
        print(f"{part}: {len(keys) - len(diff)} of {len(keys)} identical")
        for k in diff[:20]:
            print(f"  differs: {k}")
        bad += len(diff)
    return 1 if bad else 0


@click.group(help=as_written(__doc__), context_settings=CONTEXT)
def command() -> None:
    pass


@command.command("record")
@click.argument("out", type=click.Path(path_type=Path))
@click.option("--parts", default="translate,dryrun,lift,emu")
@click.option("-j", "--jobs", type=int, default=2)
@click.option("--batches", type=click.Path(path_type=Path), default=DEFAULT_BATCHES)
@click.option("--nbatches", type=int, default=6)
@click.option("--fuzz-cases", is_flag=True, help="emu: also the reduced cases of tests/data/fuzz_cases (slow)")
def record_command(out: Path, parts: str, jobs: int, batches: Path, nbatches: int, fuzz_cases: bool) -> int:
    record(out, parts.split(","), jobs, batches, nbatches, fuzz_cases)
    return 0


@command.command("compare")
@click.argument("before", type=click.Path(path_type=Path))
@click.argument("after", type=click.Path(path_type=Path))
def compare_command(before: Path, after: Path) -> int:
    return compare(before, after)


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/golden.py")


if __name__ == "__main__":
    sys.exit(main())
