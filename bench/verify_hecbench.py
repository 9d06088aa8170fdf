"""HeCBench differential runs on an NVIDIA GPU: (1) hand-written HIP vs CUDA, (2) `cass-cc port`
output vs CUDA, both HIP sides built by cass-cc's HIP-on-NVIDIA compiler.

    # here (Python only): extract the programs, port them, drop prebuilt binaries
    python3 bench/verify_hecbench.py prepare --names ../shared/eval/hecbench_dev.txt --out .hecbench
    # on the GPU machine: build every side, run, compare; JSON lines + a summary
    python3 bench/verify_hecbench.py run --root .hecbench --arch sm_90 --out results.jsonl

Layout under --out: src/<name>-cuda and src/<name>-hip as in HeCBench (Makefiles refer to
../<name>-cuda), ported/src/<name>-cuda from `cass-cc port`. Each side is built in place with
its own Makefile (CUDA: `make ARCH=<arch>`; HIP: `make` with the adapter's hipcc first on
PATH) and run with `make -s run`. The CUDA run is shared by both comparisons.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT, GreedyCommand, greedy_values  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

HECBENCH = Path("/work/.mirror/zjin-lcf+HeCBench/repo")
ELF = b"\x7fELF"


def _clean(folder: Path) -> None:
    """Drop objects and executables HeCBench's tree carries (built for AMD): make would skip the build."""
    for p in folder.rglob("*"):
        if p.is_file() and (p.suffix == ".o" or p.read_bytes()[:4] == ELF):
            p.unlink()


def prepare(names: list[str], out: Path, hip_version: str = "5.2") -> None:
    tmp = out / "extract"
    shutil.rmtree(out, ignore_errors=True)
    tmp.mkdir(parents=True)
    listed = subprocess.run(["git", "-C", str(HECBENCH), "ls-tree", "--name-only", "HEAD", "src/"], capture_output=True,
                            text=True, check=True).stdout.split()
    wanted = [p for p in listed if p.rsplit("/", 1)[-1] in {f"{n}-{s}" for n in names for s in ("cuda", "hip")}]
    archive = subprocess.run(["git", "-C", str(HECBENCH), "archive", "HEAD", *wanted], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
    shutil.move(str(tmp / "src"), str(out / "src"))
    shutil.rmtree(tmp)
    _clean(out / "src")
    (out / "ported" / "src").mkdir(parents=True)
    failed = []
    for n in names:
        src = out / "src" / f"{n}-cuda"
        dest = out / "ported" / "src" / src.name
        r = subprocess.run([sys.executable, str(ROOT / "bin" / "cass-cc"), "port", str(src), "-o", str(dest), "-q",
                            "--hip-version", hip_version, "--report", str(out / "ported" / f"{n}.report")],
                           capture_output=True, text=True)
        if r.returncode != 0:
            failed.append(n)
    (out / "names.txt").write_text("\n".join(names) + "\n")
    print(f"prepared {len(names)} programs in {out}; port reported failures for {len(failed)}: {' '.join(failed)}")


def run(root: Path, arch: str, out: Path, jobs_build: int, jobs_run: int, timeout: float, deadline: float,
        only: list[str] | None, memory_mb: int = 32768) -> None:
    from cass_cc.verify.compare import Run, Tolerance, compare
    from cass_cc.verify.runner import BuildSpec, build_tree, find_tools, run_limited, side_env

    start = time.monotonic()
    names = only or (root / "names.txt").read_text().split()
    env = dict(os.environ)
    tools = find_tools(env)
    print(f"nvcc {tools.nvcc}, hipnv {tools.hipnv_folder}, GPU: {tools.gpu}", flush=True)
    spec = BuildSpec(arch=arch, in_place=True, timeout=300)
    sides = {"cuda": ("src", "-cuda", False, f"make -s ARCH={arch}"),
             "hip": ("src", "-hip", True, "make -s"),
             "ported": ("ported/src", "-cuda", True, "make -s")}

    def build(job: tuple[str, str]) -> tuple[str, str, bool, float, str]:
        name, side = job
        sub, suffix, translation, command = sides[side]
        tree = root / sub / f"{name}{suffix}"
        if not tree.is_dir():
            return name, side, False, 0.0, "no such program"
        result, _ = build_tree(str(tree), "", command, spec, side_env(env, tools, translation, spec))
        return name, side, result.built, result.build_seconds, result.build_log

    built: dict[tuple[str, str], dict[str, object]] = {}
    with ThreadPoolExecutor(jobs_build) as pool:
        for name, side, ok, secs, log in pool.map(build, [(n, s) for n in names for s in sides]):
            built[(name, side)] = {"built": ok, "build_seconds": round(secs, 1), "build_log": "" if ok else log[-1500:]}
    print(f"built in {time.monotonic() - start:.0f} s: " + ", ".join(
        f"{s} {sum(built[(n, s)]['built'] for n in names)}/{len(names)}" for s in sides), flush=True)

    def execute(job: tuple[str, str]) -> tuple[str, str, Run | None]:
        name, side = job
        if not built[(name, side)]["built"] or time.monotonic() - start > deadline:
            return name, side, None
        sub, suffix, translation, _ = sides[side]
        tree = root / sub / f"{name}{suffix}"
        return name, side, run_limited(f"make -s ARCH={arch} run", str(tree), side_env(env, tools, translation, spec),
                                       timeout, memory_mb, shell=True)

    runs: dict[tuple[str, str], Run | None] = {}
    with ThreadPoolExecutor(jobs_run) as pool:
        for name, side, r in pool.map(execute, [(n, s) for n in names for s in sides]):
            runs[(name, side)] = r
    tol = Tolerance()
    lines = []
    for n in names:
        record: dict[str, object] = {"name": n}
        for side in sides:
            r = runs[(n, side)]
            info = dict(built[(n, side)])
            if r is not None:
                info.update(status=r.status, verdict=r.verdict, seconds=round(r.seconds, 2),
                            stdout=r.stdout[-1500:], stderr=r.stderr[-800:])
            record[side] = info
        base = runs[(n, "cuda")]
        for side in ("hip", "ported"):
            other = runs[(n, side)]
            if base is None or other is None:
                record[f"{side}_vs_cuda"] = None
                continue
            c = compare(base, other, tol)
            record[f"{side}_vs_cuda"] = {"outcome": c.outcome, "verdicts_agree": c.verdicts_agree,
                                        "reasons": c.reasons, "diff": c.diff}
        lines.append(json.dumps(record))
    out.write_text("\n".join(lines) + "\n")
    print(summary([json.loads(line) for line in lines]))
    print(f"total {time.monotonic() - start:.0f} s")


def summary(records: list[dict]) -> str:
    rows = []
    for side in ("hip", "ported"):
        pairs = [r[f"{side}_vs_cuda"] for r in records if r[f"{side}_vs_cuda"] is not None]
        done = [c for c in pairs if c["outcome"] != "timeout"]
        b = sum(r[side]["built"] for r in records)
        rows.append(f"{side:>6} vs cuda: built {b}/{len(records)}, both ran {len(done)} (+{len(pairs) - len(done)} timed out), "
                    f"outputs agreed {sum(c['outcome'] == 'agree' for c in done)}, "
                    f"verdicts agreed {sum(bool(c['verdicts_agree']) for c in done)}")
    cuda_built = sum(r["cuda"]["built"] for r in records)
    return f"cuda built {cuda_built}/{len(records)}\n" + "\n".join(rows)


def recompare(records: list[dict]) -> int:
    """Compare again, with the current masks and tolerance, the rows whose recorded outputs are
    whole (the runner keeps the last 1,500 characters of stdout and 800 of stderr); returns how
    many outcomes changed."""
    from cass_cc.verify.compare import Run, Tolerance, compare

    def recorded(side: dict) -> Run | None:
        status, out, err = side.get("status") or "", side.get("stdout"), side.get("stderr", "")
        if not status.startswith("exit ") or out is None or len(out) >= 1500 or len(err) >= 800:
            return None  # not run, or outputs not recorded whole (rows of sessions 3-4 keep none)
        return Run(int(status.split()[1]), out, err)

    changed = 0
    for r in records:
        base = recorded(r["cuda"])
        for side in ("hip", "ported"):
            other, old = recorded(r[side]), r[f"{side}_vs_cuda"]
            if base is None or other is None or old is None:
                continue
            c = compare(base, other, Tolerance())
            changed += c.outcome != old["outcome"]
            r[f"{side}_vs_cuda"] = {"outcome": c.outcome, "verdicts_agree": c.verdicts_agree,
                                    "reasons": c.reasons, "diff": c.diff}
    return changed


@click.group(help=__doc__.split("\n")[0], context_settings=CONTEXT)
def command() -> None:
    pass


@command.command("prepare")
@click.option("--names", type=click.Path(path_type=Path), required=True)
@click.option("--out", type=click.Path(path_type=Path), required=True)
@click.option("--hip-version", default="5.2", show_default=True, help="the HIP `cass-cc port` translates for")
def prepare_command(names: Path, out: Path, hip_version: str) -> None:
    prepare(names.read_text().split(), out, hip_version)


@command.command("run", cls=GreedyCommand, greedy={"--only": True})
@click.option("--root", type=click.Path(path_type=Path), required=True)
@click.option("--arch", default="sm_90")
@click.option("--out", type=click.Path(path_type=Path), required=True)
@click.option("--jobs-build", type=int, default=os.cpu_count() or 4)
@click.option("--jobs-run", type=int, default=6)
@click.option("--timeout", type=float, default=60.0)
@click.option("--deadline", type=float, default=500.0, help="seconds after which no new run starts")
@click.option("--only", multiple=True, metavar="[ONLY ...]")
@click.option("--memory", type=int, default=32768, help="MiB of resident host memory per run")
def run_command(root: Path, arch: str, out: Path, jobs_build: int, jobs_run: int, timeout: float, deadline: float,
                only: tuple[str, ...], memory: int) -> None:
    run(root, arch, out, jobs_build, jobs_run, timeout, deadline, greedy_values(only), memory)


def _records(results: Path) -> list[dict]:
    return [json.loads(line) for line in results.read_text().splitlines() if line.strip()]


@command.command("summary")
@click.argument("results", type=click.Path(path_type=Path))
def summary_command(results: Path) -> None:
    print(summary(_records(results)))


@command.command("recompare", short_help="compare recorded outputs again with the current masks (rewrites RESULTS)")
@click.argument("results", type=click.Path(path_type=Path))
def recompare_command(results: Path) -> None:
    from cass_cc.util import atomic_write_text

    records = _records(results)
    print(f"{recompare(records)} outcomes changed")
    atomic_write_text(results, "".join(json.dumps(r) + "\n" for r in records))
    print(summary(records))


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/verify_hecbench.py")


if __name__ == "__main__":
    raise SystemExit(main())
