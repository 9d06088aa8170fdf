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

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HECBENCH = Path("/work/.mirror/zjin-lcf+HeCBench/repo")
ELF = b"\x7fELF"


def _clean(folder: Path) -> None:
    """Drop objects and executables HeCBench's tree carries (built for AMD): make would skip the build."""
    for p in folder.rglob("*"):
        if p.is_file() and (p.suffix == ".o" or p.read_bytes()[:4] == ELF):
            p.unlink()


def prepare(names: list[str], out: Path) -> None:
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
                            "--hip-version", "5.2", "--report", str(out / "ported" / f"{n}.report")],
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--names", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("run")
    r.add_argument("--root", type=Path, required=True)
    r.add_argument("--arch", default="sm_90")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--jobs-build", type=int, default=os.cpu_count() or 4)
    r.add_argument("--jobs-run", type=int, default=6)
    r.add_argument("--timeout", type=float, default=60.0)
    r.add_argument("--deadline", type=float, default=500.0, help="seconds after which no new run starts")
    r.add_argument("--only", nargs="*")
    r.add_argument("--memory", type=int, default=32768, help="MiB of resident host memory per run")
    s = sub.add_parser("summary")
    s.add_argument("results", type=Path)
    c = sub.add_parser("recompare", help="compare recorded outputs again with the current masks (rewrites RESULTS)")
    c.add_argument("results", type=Path)
    a = ap.parse_args()
    if a.cmd == "prepare":
        prepare(a.names.read_text().split(), a.out)
    elif a.cmd == "run":
        run(a.root, a.arch, a.out, a.jobs_build, a.jobs_run, a.timeout, a.deadline, a.only, a.memory)
    else:
        records = [json.loads(line) for line in a.results.read_text().splitlines() if line.strip()]
        if a.cmd == "recompare":
            from cass_cc.util import atomic_write_text

            print(f"{recompare(records)} outcomes changed")
            atomic_write_text(a.results, "".join(json.dumps(r) + "\n" for r in records))
        print(summary(records))


if __name__ == "__main__":
    main()
