"""Two ways to build a CUDA program for AMD (gfx1100) with cass-cc, side by side (issue 27).

    python bench/port_routes.py hecbench     [--only NAME ...] [--jobs 2] [--timeout 600]
    python bench/port_routes.py cuda-samples [--only NAME ...] [--jobs 2] [--timeout 300] [--all]

Route A ("cass-cc"): the CUDA sources built by their own build files with cass-cc standing in
for nvcc. Not rebuilt here: its rows come from bench/results/hecbench_accuracy_cass.json
(bench/hecbench_accuracy.py --sides cuda: `make CC=cass-cc`, built = make exited 0) and
bench/results/cuda_samples.jsonl (bench/cuda_samples.py: CMake with cmake/cass-cc.cmake,
built = an executable holds a gfx1100 code object).

Route B ("port"): `bin/cass-cc port SRC -o OUT` (sources to HIP, Makefiles and CMake files
rewritten), then the ported tree's OWN build with ROCm's compilers, no cass-cc involved:
 - HeCBench (.hecbench/src/<name>-cuda, the programs of shared/eval/hecbench_dev.txt): plain
   `make` with HIP_PLATFORM=amd and DEVICE_LIB_PATH=<gfx1100 device libraries> (hipcc's own
   variable; cass_cc's Toolchain.device_lib_dir makes the folder ROCm 5.2 lacks). Each program
   folder is ported alone, as route A copied it alone.
 - cuda-samples (.cuda-samples/src; CMake only): Common/ and cmake/ are ported once per run,
   each sample folder into the same layout, then configured with the HIP language as
   cass_cc/port/README.md says (Debian's cmake, HIP_DEVICE_LIB_PATH set) and built with
   `cmake --build -j<jobs>`. By default only the samples route A built plus the runtime-only
   ones (cuda_samples.py's classification); --all takes every sample.
A program counts as built by B when an executable its build produced holds a gfx1100 code
object (cass_cc.toolchain.bundle.device_targets), or, for a program with no kernels (hipcc embeds
no code object then), when its build produced an executable. Programs are built one at a time; --jobs is
the parallel compile jobs inside one build; --timeout covers port + configure + build.

Results: bench/results/port_routes_<corpus>.jsonl (a row per program: route A's status, route
B's status, stage and first error line, seconds) and bench/results/port_routes.md (per corpus:
totals, built by A but not B, B but not A, B's failures grouped by first error, every row). A
run rewrites the rows of the programs it built and keeps the others. Ported trees, build
folders and logs (each row's "log"): .port-routes/<corpus>/ (git-ignored). Run one corpus at
a time per corpus: a second run of the same corpus would share its folders.
"""
from __future__ import annotations

import datetime
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import cuda_samples as samples  # noqa: E402
from bench._cli import CONTEXT, GreedyCommand, as_written  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402
from cass_cc.toolchain import Toolchain  # noqa: E402
from cass_cc.toolchain.bundle import BundleError, device_targets  # noqa: E402

CASS_CC = ROOT / "bin" / "cass-cc"
WORK = ROOT / ".port-routes"
RESULTS = ROOT / "bench" / "results"
HECBENCH = ROOT / ".hecbench" / "src"
HECBENCH_LIST = ROOT.parent / "shared" / "eval" / "hecbench_dev.txt"
HECBENCH_A = RESULTS / "hecbench_accuracy_cass.json"
SAMPLES = ROOT / ".cuda-samples" / "src"
SAMPLES_A = RESULTS / "cuda_samples.jsonl"
SAMPLES_SUPPORT = ("Common", "cmake")  # what every sample's CMakeLists.txt reaches through ../../../
CORPORA = ("hecbench", "cuda-samples")
TITLES = {"hecbench": "HeCBench dev", "cuda-samples": "NVIDIA cuda-samples"}


@dataclass
class Program:
    name: str
    label: str  # how the tables name it (cuda-samples: category/name)
    src: Path  # the CUDA folder route B ports
    dest: Path  # the ported folder
    a_built: bool | None  # None: route A has no row for it
    a_status: str
    kernels: bool = True  # False: no __global__ in its sources (hipcc then embeds no code object)


@dataclass
class Settings:
    """What every route-B build of one run shares."""
    jobs: int
    timeout: float
    port_env: dict[str, str]
    build_env: dict[str, str]
    cmake: list[str]  # the CMake and its configure arguments for a ported CMakeLists.txt
    commit: str


# --- the corpora -------------------------------------------------------------------------------

def hecbench_programs(names: list[str] | None) -> list[Program]:
    """HeCBench dev's programs, route A from hecbench_accuracy.py's results."""
    listed = [n for n in HECBENCH_LIST.read_text().split() if n.strip()]
    a_rows = {r["name"]: r for r in json.loads(HECBENCH_A.read_text())["rows"]} if HECBENCH_A.exists() else {}
    out = []
    for name in names or listed:
        a = a_rows.get(name)
        a_status = "no result" if a is None else ("built" if a.get("cass_ok") else str(a.get("cass_reason") or "failed"))
        out.append(Program(name, name, HECBENCH / f"{name}-cuda", WORK / "hecbench" / "src" / f"{name}-cuda",
                           None if a is None else bool(a.get("cass_ok")), a_status))
    return out


def sample_programs(names: list[str] | None, every: bool) -> list[Program]:
    """cuda-samples found and classified by cuda_samples.py; by default those route A built
    and the runtime-only ones."""
    a_rows = {}
    if SAMPLES_A.exists():
        a_rows = {r["name"]: r for r in map(json.loads, SAMPLES_A.read_text().splitlines()) if r}
    out = []
    for folder in samples.find_samples(SAMPLES):
        name = folder.name
        a = a_rows.get(name) or {"runtime_only": samples.classify(folder)["runtime_only"]}
        if names is not None and name not in names:
            continue
        if names is None and not every and not (a.get("built") or a["runtime_only"]):
            continue
        rel = folder.relative_to(SAMPLES)
        kernels = a["has_kernels"] if "has_kernels" in a else samples.classify(folder)["has_kernels"]
        out.append(Program(name, str(folder.relative_to(SAMPLES / "Samples")), folder, WORK / "cuda-samples" / "src" / rel,
                           bool(a.get("built")) if "status" in a else None, str(a.get("status", "no result")), kernels))
    return out


# --- route B -----------------------------------------------------------------------------------

def hip_cmake() -> list[str]:
    """The CMake, and its configure arguments, for a ported CMakeLists.txt: per cass_cc/port/README.md
    ("With CMake"), Debian's CMake with nothing but HIP_DEVICE_LIB_PATH in the environment (see
    settings()); the ported tree's HIP set-up finds clang++, ROCm's root, hip-lang and the targets.
    (Before that set-up landed, this needed PyPI's CMake 4 and -DCMAKE_HIP_COMPILER, -DCMAKE_HIP_FLAGS=
    --rocm-path=/usr --rocm-device-lib-path=..., -DCMAKE_POLICY_VERSION_MINIMUM=3.5.)"""
    return [shutil.which("cmake") or "cmake"]


def port(src: Path, dest: Path, report: Path, env: dict[str, str], deadline: float) -> tuple[int | None, str, dict]:
    """`cass-cc port SRC -o DEST`: exit status (None: timed out), its output, its JSON report."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.parent.mkdir(parents=True, exist_ok=True)
    report.parent.mkdir(parents=True, exist_ok=True)
    report.unlink(missing_ok=True)
    rc, out = samples.run([sys.executable, str(CASS_CC), "port", str(src), "-o", str(dest), "-q",
                           "--report-json", str(report)], ROOT, env, deadline)
    return rc, out, json.loads(report.read_text()) if report.exists() else {}


def port_summary(report: dict) -> dict[str, object]:
    """The port report's counts and the files it failed (path: reason)."""
    failed = {f["path"]: str(f.get("error") or "")[:200] for f in report.get("files", []) if f.get("status") == "failed"}
    return {**report.get("summary", {}), "failed_files": failed, "translator": report.get("translator", "")}


def make_build(dest: Path, build: Path, s: Settings, deadline: float) -> tuple[str, str]:
    """The ported Makefile's default target: (failed stage or "", log)."""
    rc, log = samples.run(["make", f"-j{s.jobs}"], dest, s.build_env, deadline)
    return ("" if rc == 0 else "build"), "$ make\n" + log


def cmake_build(dest: Path, build: Path, s: Settings, deadline: float) -> tuple[str, str]:
    """Configure the ported CMakeLists.txt with the HIP language, then build: (failed stage or "", log)."""
    shutil.rmtree(build, ignore_errors=True)
    build.mkdir(parents=True)
    rc, cfg = samples.run([*s.cmake, "-S", str(dest), "-B", str(build)], build, s.build_env, deadline)
    log = "$ " + " ".join(s.cmake) + " -S . -B build\n" + cfg
    if rc != 0:
        return "configure", log
    rc, bld = samples.run([s.cmake[0], "--build", str(build), f"-j{s.jobs}"], build, s.build_env, deadline)
    return ("" if rc == 0 else "build"), log + "\n$ cmake --build\n" + bld


def first_error(log: str) -> str:
    """cuda_samples.py's first error line, else make's own complaint (`make: *** No rule ...`)."""
    found = samples.first_error(log) or re.search(r"^make(?:\[\d+\])?: \*\*\* .*$", log, re.M)
    return found if isinstance(found, str) else (found.group(0)[:400] if found else "")


def with_gfx1100(folder: Path) -> tuple[list[str], list[str]]:
    """ELF executables under `folder` (outside CMakeFiles/), and those holding a gfx1100 code object."""
    exes = samples.executables(folder)
    gfx = []
    for exe in exes:
        try:
            if "gfx1100" in device_targets(str(exe)):
                gfx.append(str(exe.relative_to(folder)))
        except BundleError:
            pass
    return [str(e.relative_to(folder)) for e in exes], gfx


def route_b(p: Program, corpus: str, s: Settings) -> dict[str, object]:
    """Port, build with the ported tree's own build files, look for gfx1100: the row's B fields."""
    work = WORK / corpus
    start = time.monotonic()
    deadline = start + s.timeout
    rc, port_log, report = port(p.src, p.dest, work / "reports" / f"{p.name}.json", s.port_env, deadline)
    row: dict[str, object] = {"b_port": port_summary(report), "b_port_exit": rc}
    port_s = time.monotonic() - start
    log = "$ cass-cc port\n" + port_log
    stage = ""
    if rc is None:
        stage, status = "port", "timeout (port)"
    elif not p.dest.is_dir():
        stage, status = "port", "port failed"
    else:
        build = work / "build" / p.name
        stage, build_log = (cmake_build if corpus == "cuda-samples" else make_build)(p.dest, build, s, deadline)
        log += "\n" + build_log
        timed_out = time.monotonic() >= deadline
        status = f"timeout ({stage})" if stage and timed_out else (f"{stage} failed" if stage else "")
    where = work / "build" / p.name if corpus == "cuda-samples" else p.dest
    exes, gfx = with_gfx1100(where) if where.is_dir() else ([], [])
    built = bool(gfx) or (bool(exes) and not p.kernels and not status)  # a program without kernels has no code object
    if not status:
        status = "built" if built else ("built, no gfx1100 code object" if exes else "no executable")
    row.update(b_built=built, b_status=status, b_stage=stage or ("check" if not built else ""),
               b_executables=exes, b_gfx1100=gfx, b_port_s=round(port_s, 1),
               b_seconds=round(time.monotonic() - start, 1))
    if not built:
        row["b_first_error"] = first_error(log.split("\n$ ")[-1] if stage else log) or status
    logfile = work / "logs" / f"{p.name}.log"
    logfile.parent.mkdir(parents=True, exist_ok=True)
    logfile.write_text(log)
    row["b_log"] = str(logfile.relative_to(ROOT))
    return row


# --- results -----------------------------------------------------------------------------------

def cause(first_error: str) -> str:
    """A first error line without its file, line and run-specific paths: the grouping key."""
    text = re.sub(r"\S*/\.port-routes/\S*?/src/", "", first_error)
    text = re.sub(r"^\S+?:\d+(?::\d+)?:\s*", "", text)  # file:line[:col]:
    text = re.sub(r"^(clang(?:\+\+)?(?:-\d+)?|\S*/ld(?:\.lld)?|ld\.lld|/usr/bin/ld): ", "", text)
    text = re.sub(r"^make(\[\d+\])?: \*\*\* \[[^\]]*\] ", "make: ", text)
    text = re.sub(r"\(\.text[^)]*\): ", "", text)
    return text.strip()[:160]


def load_rows(path: Path) -> dict[str, dict[str, object]]:
    if not path.exists():
        return {}
    return {r["name"]: r for r in (json.loads(line) for line in path.read_text().splitlines() if line.strip())}


def save(corpus: str, mine: dict[str, dict[str, object]]) -> None:
    """Under a lock: this run's rows over the file's, then the Markdown tables of both corpora."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    WORK.mkdir(parents=True, exist_ok=True)
    with open(WORK / ".results.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        path = RESULTS / f"port_routes_{corpus}.jsonl"
        rows = {**load_rows(path), **mine}
        tmp = path.with_suffix(".jsonl.tmp")
        tmp.write_text("".join(json.dumps(rows[n], sort_keys=True) + "\n" for n in sorted(rows, key=str.lower)))
        tmp.replace(path)
        write_markdown()


def write_markdown() -> None:
    lines = [
        "# Two routes to gfx1100: cass-cc as nvcc (A) versus `cass-cc port` + the ported tree's own build (B)",
        "",
        "Made by `python bench/port_routes.py hecbench|cuda-samples` (its docstring says what each route runs). "
        "Route A is not rebuilt there: its status comes from bench/results/hecbench_accuracy_cass.json "
        "(built = `make CC=cass-cc` exited 0) and bench/results/cuda_samples.jsonl (built = an executable holds a "
        "gfx1100 code object). Route B is built = an executable its own build produced holds a gfx1100 code object "
        "(a program with no kernels: an executable). "
        "Each row names the cass-cc commit it was measured with (`+` = cass_cc/ had uncommitted changes then).",
    ]
    for corpus in CORPORA:
        rows = list(load_rows(RESULTS / f"port_routes_{corpus}.jsonl").values())
        if rows:
            lines += ["", *corpus_markdown(corpus, rows)]
    (RESULTS / "port_routes.md").write_text("\n".join(lines) + "\n")


def corpus_markdown(corpus: str, rows: list[dict[str, object]]) -> list[str]:
    a = [r for r in rows if r.get("a_built")]
    b = [r for r in rows if r.get("b_built")]
    a_not_b = [r for r in a if not r.get("b_built")]
    b_not_a = [r for r in b if not r.get("a_built")]
    commits = sorted({str(r.get("commit", "")) for r in rows})
    scope = ("the programs of shared/eval/hecbench_dev.txt" if corpus == "hecbench" else
             "only the samples route A built plus the runtime-only ones (cuda_samples.py's classification; "
             "samples needing libraries or APIs HIP lacks here were left out to keep time down)")
    out = [
        f"## {TITLES[corpus]}: {len(rows)} programs",
        "",
        f"Scope: {scope}. Measured with cass-cc {', '.join(commits)}.",
        "",
        "| | programs |",
        "| --- | --- |",
        f"| built by A (cass-cc) | {len(a)} |",
        f"| built by B (port + own build) | {len(b)} |",
        f"| built by both | {len(a) - len(a_not_b)} |",
        f"| **built by A but not B** | **{len(a_not_b)}** |",
        f"| built by B but not A | {len(b_not_a)} |",
        "",
        f"Built by A but not B: {', '.join(str(r['label']) for r in a_not_b) or 'none'}.",
        "",
        f"Built by B but not A: {', '.join(str(r['label']) for r in b_not_a) or 'none'}.",
        "",
        "### Route B's failures by first error",
        "",
        "| first error (file and line dropped) | programs | built by A | example |",
        "| --- | --- | --- | --- |",
    ]
    groups: dict[str, list[dict[str, object]]] = {}
    for r in rows:
        if not r.get("b_built"):
            groups.setdefault(cause(str(r.get("b_first_error") or r.get("b_status"))), []).append(r)
    for key, rs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        example = next((x for x in rs if x.get("a_built")), rs[0])
        out.append(f"| {cell(key)} | {len(rs)} | {sum(1 for x in rs if x.get('a_built'))} | {example['label']} |")
    out += ["", "### Every program", "", "| program | A | B | B's first error | B s | commit |", "| --- | --- | --- | --- | --- | --- |"]
    for r in sorted(rows, key=lambda r: str(r["label"]).lower()):
        out.append(f"| {r['label']} | {cell(str(r.get('a_status', '')))[:80]} | {r.get('b_status', '')} "
                   f"| {cell(cause(str(r.get('b_first_error', ''))))} | {r.get('b_seconds', '')} | {r.get('commit', '')} |")
    return out


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# --- the run -----------------------------------------------------------------------------------

def measured_commit() -> str:
    """HEAD, with `+` when cass_cc/ has uncommitted changes (others work in this tree)."""
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "cass_cc", "bin"],
                           capture_output=True, text=True).stdout.strip()
    return head + ("+" if dirty else "")


def settings(args: SimpleNamespace, corpus: str) -> Settings:
    cache = WORK / corpus / "cache"
    shutil.rmtree(cache / "translate", ignore_errors=True)
    tc = Toolchain(os.environ, cache_dir=WORK / "toolchain")
    device_libs = tc.device_lib_dir(["gfx1100"])
    base = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_")) and k != "MAKEFLAGS"}
    return Settings(args.jobs, args.timeout, {**base, "CASS_CACHE_DIR": str(cache / "translate")},
                    {**base, "HIP_PLATFORM": "amd", "DEVICE_LIB_PATH": str(device_libs),
                     "HIP_DEVICE_LIB_PATH": str(device_libs)},  # hipcc's variable, the ported CMake's
                    hip_cmake(), measured_commit())


def port_support(s: Settings) -> dict[str, object]:
    """cuda-samples' Common/ and cmake/, ported once for the run's samples."""
    out = {}
    for part in SAMPLES_SUPPORT:
        rc, _, report = port(SAMPLES / part, WORK / "cuda-samples" / "src" / part,
                             WORK / "cuda-samples" / "reports" / f"_{part}.json", s.port_env, time.monotonic() + 600)
        out[part] = {"exit": rc, "failed_files": port_summary(report)["failed_files"]}
    return out


@click.command(cls=GreedyCommand, greedy={"--only": False}, help=as_written(__doc__), context_settings=CONTEXT)
@click.argument("corpus", type=click.Choice(CORPORA))
@click.option("--only", multiple=True, metavar="NAME [NAME ...]")
@click.option("--jobs", type=int, default=2, help="parallel compile jobs inside one program's build")
@click.option("--timeout", type=float, help="seconds per program, port + configure + build (600 HeCBench, 300 samples)")
@click.option("--all", is_flag=True, help="cuda-samples: every sample, not only A-built and runtime-only")
def command(**kwargs: Any) -> int:
    args = SimpleNamespace(**kwargs)
    args.only = list(args.only) or None
    args.timeout = args.timeout or (600 if args.corpus == "hecbench" else 300)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so samples.run() kills the build it waits on

    if args.corpus == "hecbench":
        programs = hecbench_programs(args.only)
    else:
        programs = sample_programs(set(args.only) if args.only else None, args.all)
    missing = [p.name for p in programs if not p.src.is_dir()]
    if missing:
        raise click.UsageError(f"no source folder for: {' '.join(missing)}")
    s = settings(args, args.corpus)
    print(f"route B for {len(programs)} {args.corpus} programs with cass-cc {s.commit}; CMake: {' '.join(s.cmake)}",
          file=sys.stderr)
    support = port_support(s) if args.corpus == "cuda-samples" else None
    mine: dict[str, dict[str, object]] = {}
    for done, p in enumerate(programs, 1):
        now = datetime.datetime.now(datetime.timezone.utc)
        row: dict[str, object] = {"name": p.name, "label": p.label, "a_built": p.a_built, "a_status": p.a_status,
                                  "commit": s.commit, "date": now.strftime("%Y-%m-%d %H:%M UTC")}
        row.update(route_b(p, args.corpus, s))
        if support is not None:
            row["b_support_port"] = support
        mine[p.name] = row
        save(args.corpus, mine)
        print(f"[{done}/{len(programs)}] {p.label:<44} A: {'built' if p.a_built else 'no   '}  B: {row['b_status']:<30} "
              f"{row['b_seconds']:>6} s  {cause(str(row.get('b_first_error', '')))[:120]}", flush=True)
    rows = load_rows(RESULTS / f"port_routes_{args.corpus}.jsonl").values()
    print(f"{args.corpus}: A built {sum(1 for r in rows if r.get('a_built'))}, B built {sum(1 for r in rows if r.get('b_built'))}, "
          f"of {len(rows)}; table: bench/results/port_routes.md", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/port_routes.py")


if __name__ == "__main__":
    sys.exit(main())
