"""NVIDIA's cuda-samples built for gfx1100 through their own CMakeLists.txt with cass-cc
(issue 20's development corpus). One command, re-runnable:

    python bench/cuda_samples.py                     # classify + build every sample
    python bench/cuda_samples.py --only vectorAdd matrixMul   # rebuild some; other rows kept
    python bench/cuda_samples.py --failed            # rebuild the runtime-only samples that failed
    python bench/cuda_samples.py --classify-only     # no builds (rows keep their last build)
    python bench/cuda_samples.py --repros            # do the triage's repros still fail through cass-cc?
        [--samples DIR] [--jobs 2] [--timeout 600] [--runtime-only] [--keep-cache]

DIR (default .cuda-samples/src, git-ignored) is a cuda-samples tree; when absent it is
extracted from the bare mirror /work/.mirror/NVIDIA+cuda-samples/repo (--mirror), skipping
the few blobs (docs, data) the mirror lacks. Nothing from it is ever committed.

Each sample (a folder with its own CMakeLists.txt that declares a target) is
 (a) classified from its CMakeLists.txt, README and sources: runtime-only, or the
     reasons it is not (cuBLAS, cuFFT, host cuRAND, cuSPARSE, cuSOLVER, NPP, nvJPEG,
     NVRTC, NVVM, nvJitLink, OpenGL/GLUT/GLES, EGL, Vulkan, X11, Direct3D, MPI, NvSci,
     cuDLA, FreeImage, the driver API, Thrust/CUB (rocThrust/hipCUB: not in Debian 12),
     libcu++ <cuda/...>, WMMA <mma.h> (rocWMMA: not in Debian 12), dynamic parallelism);
 (b) configured with -DCMAKE_TOOLCHAIN_FILE=cmake/cass-cc.cmake and built with
     `cmake --build -j<--jobs>`, one sample at a time, each within --timeout seconds
     (configure + build). It counts as built only when an executable it produced holds
     a `hipv4-amdgcn-amd-amdhsa--gfx1100` code object. Recorded: configured, built,
     wall seconds, the first error line (file:line: error: ...), a short reason.
Results: bench/results/cuda_samples.jsonl (a row per sample) and cuda_samples.md (the
table and totals); a run updates the rows of the samples it built (under a lock: runs may
overlap) and keeps the others. Build trees and logs: .cuda-samples/runs/<run>/build/<sample>/
(cass-bench.log; the row's "log"). Each run has a fresh translation cache (--keep-cache:
reuse .cuda-samples/cache).
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
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench._cli import CONTEXT, GreedyCommand, as_written  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402
from hecbench_accuracy import reason as log_reason  # noqa: E402

WORK = ROOT / ".cuda-samples"
MIRROR = Path("/work/.mirror/NVIDIA+cuda-samples/repo")
TOOLCHAIN_FILE = ROOT / "cmake" / "cass-cc.cmake"
RESULTS = ROOT / "bench" / "results"
GFX = b"hipv4-amdgcn-amd-amdhsa--gfx1100"
SOURCE_EXT = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hxx", ".inl"}

# (key, label, CMake regex, source regex); the first reason found is the sample's primary one.
RULES: list[tuple[str, str, str | None, str | None]] = [
    ("tegra", "NvSci/NvMedia (Tegra)", r"NVSCI|NvMedia|NVMEDIA", r"#\s*include\s*[<\"](nvscibuf|nvscisync|nvmedia)\w*\.h"),
    ("cudla", "cuDLA", r"cudla", r"#\s*include\s*[<\"]cudla\.h"),
    ("gl", "OpenGL/GLUT/GLES", r"find_package\((OpenGL|GLUT)\b|GLES|glfw", r"#\s*include\s*[<\"](GL|GLES\d?|GLFW)/"),
    ("egl", "EGL", r"find_package\(EGL\)|EGL_LIBRARY", r"#\s*include\s*[<\"](EGL/|cudaEGL\.h)"),
    ("vulkan", "Vulkan", r"find_package\(Vulkan\)", r"#\s*include\s*[<\"]vulkan/"),
    ("x11", "X11", r"find_package\(X11\)", r"#\s*include\s*[<\"]X11/"),
    ("win", "Windows-only (Direct3D)", r"Windows-only", r"#\s*include\s*[<\"](d3d1[0-2]|d3dx|dxgi)\w*\.h"),
    ("mpi", "MPI", r"find_package\(MPI\)", r"#\s*include\s*[<\"]mpi\.h"),
    ("nvvm", "NVVM (libNVVM)", r"NVVM", r"#\s*include\s*[<\"]nvvm\.h"),
    ("nvrtc", "NVRTC", r"CUDA::nvrtc", r"#\s*include\s*[<\"]nvrtc\.h"),
    ("nvjitlink", "nvJitLink", r"nvJitLink|nvjitlink", r"#\s*include\s*[<\"]nvJitLink\.h"),
    ("cublas", "cuBLAS", r"CUDA::cublas", r"#\s*include\s*[<\"]cublas(_v2|Lt)?\.h"),
    ("cufft", "cuFFT", r"CUDA::cufft", r"#\s*include\s*[<\"]cufftw?\.h"),
    ("curand", "cuRAND host library", r"CUDA::curand", r"#\s*include\s*[<\"]curand\.h"),
    ("cusparse", "cuSPARSE", r"CUDA::cusparse", r"#\s*include\s*[<\"]cusparse(_v2)?\.h"),
    ("cusolver", "cuSOLVER", r"CUDA::cusolver", r"#\s*include\s*[<\"]cusolver\w*\.h"),
    ("npp", "NPP", r"CUDA::npp", r"#\s*include\s*[<\"]npp\w*\.h"),
    ("nvjpeg", "nvJPEG", r"CUDA::nvjpeg", r"#\s*include\s*[<\"]nvjpeg\.h"),
    ("freeimage", "FreeImage", r"FreeImage", r"#\s*include\s*[<\"]FreeImage\.h"),
    ("driver", "driver API (cu* calls)", None, None),  # decided in classify()
    ("cdp", "dynamic parallelism (device-side launch)", None, None),  # decided in classify()
    ("thrust", "Thrust/CUB (rocThrust/hipCUB not in Debian 12)", None, r"#\s*include\s*[<\"](thrust|cub)/"),
    ("libcxx", "libcu++ <cuda/...> (no libhipcxx in ROCm 5.2)", None, r"#\s*include\s*[<\"]cuda/(std/|barrier|pipeline|atomic|annotated_ptr|memory_resource|ptx|stream_ref)"),
    ("wmma", "WMMA <mma.h> (rocWMMA not in Debian 12)", None, r"#\s*include\s*[<\"]mma\.h"),
]
LABELS = {key: label for key, label, _, _ in RULES}
# Driver API entry points (cuComplex's cuCmulf & co. are not the driver API).
DRIVER_CALL = re.compile(r"\bcu(?!C(?:mul|add|sub|div|real|imag|onj|abs|fma|omplex))[A-Z]\w*\s*\(")
DRIVER_ONLY = re.compile(r"\bcu(Init|Ctx\w+|Module\w+|Link\w+|LaunchKernel|MemCreate|MemMap|MemAddressReserve)\s*\(")


def extract(mirror: Path, dest: Path) -> None:
    """A work tree of the mirror's HEAD, skipping blobs the mirror lacks (docs, data)."""
    git = ["git", "--git-dir", str(mirror)]
    listing = subprocess.run([*git, "ls-tree", "-r", "-z", "HEAD"], capture_output=True, check=True).stdout
    entries = []
    for item in listing.split(b"\0"):
        if not item:
            continue
        meta, path = item.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((mode, sha, path.decode()))
    proc = subprocess.Popen([*git, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin and proc.stdout
    skipped = []
    for mode, sha, path in entries:
        proc.stdin.write(sha + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if header[-1] == b"missing":
            skipped.append(path)
            if "/data/" in path:  # some CMakeLists copy data/ at build time: keep the folder
                (dest / path).parent.mkdir(parents=True, exist_ok=True)
                (dest / path).touch()
            continue
        data = proc.stdout.read(int(header[2]))
        proc.stdout.read(1)
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == b"120000":
            target.symlink_to(data.decode())
        else:
            target.write_bytes(data)
            if mode == b"100755":
                target.chmod(0o755)
    proc.stdin.close()
    proc.wait()
    print(f"extracted {len(entries) - len(skipped)} files into {dest}; absent from the mirror: {', '.join(skipped) or 'none'}")


def find_samples(tree: Path) -> list[Path]:
    out = []
    for cml in sorted((tree / "Samples").rglob("CMakeLists.txt")):
        text = cml.read_text(errors="replace")
        if re.search(r"^\s*(add_executable|add_library)\s*\(", text, re.M):
            out.append(cml.parent)
    return out


def sources(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text(errors="replace")
            for p in sorted(folder.rglob("*")) if p.suffix in SOURCE_EXT and p.is_file()}


def strip_dead(text: str) -> str:
    """Drop `#if CUDART_VERSION < N` branches (pre-CUDA-5 code such as deviceQuery's)."""
    return re.sub(r"#if\s+CUDART_VERSION\s*<\s*\d+.*?#endif", "", text, flags=re.S)


def classify(folder: Path) -> dict[str, object]:
    cmake = (folder / "CMakeLists.txt").read_text(errors="replace")
    cmake_code = "\n".join(line.split("#", 1)[0] for line in cmake.splitlines())
    readme = (folder / "README.md").read_text(errors="replace") if (folder / "README.md").exists() else ""
    srcs = sources(folder)
    text = "\n".join(strip_dead(t) for t in srcs.values())
    reasons: list[str] = []
    evidence: dict[str, str] = {}
    for key, _label, cmake_re, src_re in RULES:
        hit = None
        if cmake_re and re.search(cmake_re, cmake_code):
            hit = "CMakeLists.txt: " + re.search(cmake_re, cmake_code).group(0)
        elif src_re:
            for name, body in srcs.items():
                m = re.search(src_re, strip_dead(body))
                if m:
                    hit = f"{name}: {m.group(0)}"
                    break
        if key == "driver":
            calls = sorted(set(m.group(0).rstrip("( \t") for m in DRIVER_CALL.finditer(text)))
            links = "CUDA::cuda_driver" in cmake_code
            if (links and calls) or DRIVER_ONLY.search(text):
                hit = ("CUDA::cuda_driver; " if links else "") + " ".join(calls[:6])
        if key == "cdp":
            if "[CDP]" in readme or re.search(r"Dynamic Parallelism", readme):
                hit = "README: CUDA Dynamic Parallelism"
        if hit:
            reasons.append(key)
            evidence[key] = hit[:160]
    has_kernels = bool(re.search(r"__global__", text))
    return {"runtime_only": not reasons, "reasons": reasons, "evidence": evidence, "has_kernels": has_kernels}


def first_error(log: str) -> str:
    """The first line of cass-cc's, clang's, the linker's or CMake's error output."""
    patterns = [
        r"^.*?\S+:\d+: error: <[^>]+> needs .*$",  # cass-cc: a HIP library not installed (before clang's)
        r"^\S*ld(?:\.lld)?: (?:error: )?cass-cc: .*$",  # the toolkit's lib<cuda>.so naming what HIP lacks
        r"^.*?\S+:\d+:\d+: (?:fatal )?error: .*$",
        r"^.*cass-cc (?:fatal|error)\s*: .*$",
        r"^.*nvcc fatal\s*: .*$",
        r"^.*undefined reference to .*$",
        r"^\S*ld(?:\.lld)?: error: .*$",
        r"^.*error: .*$",
        r"^CMake Error.*$",
        r"^Error .*$",
        r"^.*PLEASE submit a bug report.*$",
        r"^make\[\d+\]: \*\*\* .*$",
    ]
    for pattern in patterns:
        m = re.search(pattern, log, re.M)
        if m:
            line = m.group(0).strip()
            if line.startswith("CMake Error"):
                rest = [x.strip() for x in log[m.end():].splitlines() if x.strip()]
                line += " " + " ".join(rest[:2])
            return line[:400]
    return ""


def run(cmd: list[str], cwd: Path, env: dict[str, str], deadline: float) -> tuple[int | None, str]:
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace", start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        raise


def executables(build: Path) -> list[Path]:
    out = []
    for p in sorted(build.rglob("*")):
        if "CMakeFiles" in p.parts or not p.is_file() or p.is_symlink() or not os.access(p, os.X_OK):
            continue
        with p.open("rb") as f:
            if f.read(4) == b"\x7fELF":
                out.append(p)
    return out


def holds_gfx1100(path: Path) -> bool:
    with path.open("rb") as f:
        tail = b""
        while chunk := f.read(1 << 20):
            if GFX in tail + chunk:
                return True
            tail = chunk[-len(GFX):]
    return False


def build_sample(folder: Path, name: str, env: dict[str, str], jobs: int, timeout: float,
                 toolchain: Path = TOOLCHAIN_FILE, builds: Path = WORK / "build") -> dict[str, object]:
    build = builds / name
    shutil.rmtree(build, ignore_errors=True)
    build.mkdir(parents=True)
    start = time.monotonic()
    deadline = start + timeout
    row: dict[str, object] = {"configured": False, "built": False}
    rc, cfg_log = run(["cmake", f"-DCMAKE_TOOLCHAIN_FILE={toolchain}", "-S", str(folder), "-B", str(build)],
                      build, env, deadline)
    log = "$ cmake (configure)\n" + cfg_log
    bld_log = ""
    if rc is None:
        row["status"] = "timeout (configure)"
    elif rc != 0:
        row["status"] = "configure failed"
    else:
        row["configured"] = True
        rc, bld_log = run(["cmake", "--build", str(build), f"-j{jobs}"], build, env, deadline)
        log += "\n$ cmake --build\n" + bld_log
        if rc is None:
            row["status"] = "timeout (build)"
        elif rc != 0:
            row["status"] = "build failed"
    row["seconds"] = round(time.monotonic() - start, 1)
    exes = executables(build)
    row["executables"] = [str(p.relative_to(build)) for p in exes]
    with_gfx = [str(p.relative_to(build)) for p in exes if holds_gfx1100(p)]
    row["gfx1100"] = with_gfx
    if "status" not in row:
        if with_gfx:
            row["status"], row["built"] = "built", True
        elif exes:
            row["status"] = "built, no gfx1100 code object"
        else:
            skip = re.search(r"(?:Will not build|will not build|skipping|Skipping)[^\n]*", cfg_log)
            row["status"] = "no target here" + (f" ({skip.group(0).strip()[:120]})" if skip else "")
    if not row["built"]:
        fail_log = bld_log if row["configured"] else cfg_log
        row["first_error"] = first_error(fail_log)
        row["reason"] = log_reason(fail_log) if row["first_error"] else ""
    (build / "cass-bench.log").write_text(log)
    row["log"] = str((build / "cass-bench.log").relative_to(ROOT)) if build.is_relative_to(ROOT) else str(build / "cass-bench.log")
    return row


def write_results(rows: list[dict[str, object]], meta: dict[str, object], results: Path = RESULTS) -> None:
    results.mkdir(parents=True, exist_ok=True)
    tmp = results / "cuda_samples.jsonl.tmp"
    with tmp.open("w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    tmp.replace(results / "cuda_samples.jsonl")
    rt = [r for r in rows if r["runtime_only"]]
    rt_built = [r for r in rt if r.get("built")]
    others = [r for r in rows if not r["runtime_only"]]
    dates = sorted({str(r["date"]) for r in rows if r.get("date")})
    commits = sorted({str(r["cass_commit"]) for r in rows if r.get("cass_commit")})
    lines = [
        "# cuda-samples through their own CMakeLists.txt with cass-cc (gfx1100)",
        "",
        f"Made by `python bench/cuda_samples.py` (this update: `{meta['command']}`); cuda-samples "
        f"{meta['samples_commit']}; rows built {dates[0] if dates else '-'} .. {dates[-1] if dates else '-'} "
        f"with cass-cc {', '.join(commits) or '-'} (the working tree at that commit; others' fixes landed "
        "while runs went on, so each row names its own). Built = configured, built, and an executable "
        "holds a `hipv4-amdgcn-amd-amdhsa--gfx1100` code object. Triage of the failures: cuda_samples_triage.md; "
        "build logs: each row's `log` in cuda_samples.jsonl.",
        "",
        f"**Runtime-only samples built: {len(rt_built)} / {len(rt)}**"
        + (f" ({100 * len(rt_built) / len(rt):.1f}%)" if rt else ""),
        "",
        f"Not runtime-only: {len(others)} samples, by primary reason (a sample's other reasons are in the "
        "last table). What their builds did here:",
        "",
        "| reason | samples | built anyway | stopped at configure | configured, no target (CMakeLists skips it) | build failed (or no gfx1100 code object) | not built yet |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    by: dict[str, list[dict[str, object]]] = {}
    for r in others:
        by.setdefault(r["reasons"][0], []).append(r)

    def count(rs: list[dict[str, object]], test) -> int:
        return sum(1 for r in rs if test(str(r.get("status", ""))))

    for key, rs in sorted(by.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"| {LABELS[key]} | {len(rs)} | {sum(1 for r in rs if r.get('built'))} "
                     f"| {count(rs, lambda x: 'configure' in x)} | {count(rs, lambda x: x.startswith('no target'))} "
                     f"| {count(rs, lambda x: x.startswith('build failed') or x.startswith('timeout (build') or 'no gfx1100' in x)} "
                     f"| {count(rs, lambda x: not x)} |")
    lines += ["", "## Runtime-only samples", "", "| sample | status | s | cass-cc | first error |",
              "| --- | --- | --- | --- | --- |"]
    for r in rt:
        err = str(r.get("first_error", "")).replace("|", "\\|")
        err = re.sub(r"/\S*?/\.cuda-samples/(src|runs/[^/]+/(build|cache))/", "", err)
        lines.append(f"| {r['category']}/{r['name']} | {r.get('status', 'not built')} | {r.get('seconds', '')} "
                     f"| {r.get('cass_commit', '')} | {err} |")
    lines += ["", "## The other samples", "", "| sample | needs | status | first error |", "| --- | --- | --- | --- |"]
    for r in others:
        need = "; ".join(LABELS[k] for k in r["reasons"])
        err = re.sub(r"/\S*?/\.cuda-samples/(src|runs/[^/]+/(build|cache))/", "", str(r.get("first_error", "")))
        lines.append(f"| {r['category']}/{r['name']} | {need} | {r.get('status', 'not built')} | {err[:160].replace('|', '/')} |")
    (results / "cuda_samples.md").write_text("\n".join(lines) + "\n")


def check_repros(folder: Path, cass_root: Path) -> int:
    """Compile each repro for gfx1100 and, where it is here, with NVIDIA's toolkit: a .cu with
    `cass-cc -c` (nvcc -c), a .cpp (host code) with `g++ -c` against the shim toolkit's include/
    (against /usr/local/cuda/include); a *_link.cu is also linked (`cass-cc F -o x`). A repro shows a cass-cc problem while the NVIDIA side
    builds it and cass-cc's does not."""
    nvcc = "/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else shutil.which("nvcc")
    cuda_inc = Path(nvcc).resolve().parent.parent / "include" if nvcc else None
    cass = cass_root.resolve() / "bin" / "cass-cc"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASS_")}
    env["CASS_CACHE_DIR"] = str(WORK / "repro-cache")
    tmp = WORK / "repro-out"
    tmp.mkdir(parents=True, exist_ok=True)
    toolkit = subprocess.run([str(cass), "toolkit"], env=env, capture_output=True, text=True).stdout.strip()
    failing = 0
    for src in sorted([*folder.glob("*.cu"), *folder.glob("*.cpp")]):
        link = src.stem.endswith("_link")  # a link-time failure: compile and link an executable
        flags = re.search(r"^// flags: (.*)$", src.read_text(), re.M)  # e.g. -rdc=true
        c = (flags.group(1).split() if flags else []) + ([] if link else ["-c"])
        if src.suffix == ".cu":
            sides = [("cass-cc", [str(cass), *c]), ("nvcc", [nvcc, "-arch=sm_80", *c] if nvcc else None)]
        else:
            sides = [("g++ + cass-cc toolkit", ["g++", f"-I{toolkit}/include", "-c"]),
                     ("g++ + CUDA", ["g++", f"-I{cuda_inc}", "-c"] if cuda_inc and cuda_inc.is_dir() else None)]
        results = []
        for tool, cmd in sides:
            if cmd is None:
                continue
            rc, out = run([*cmd, str(src), "-o", str(tmp / f"{src.name}.{tool.split()[0]}.o")], tmp, env,
                          time.monotonic() + 60)
            verdict = "ok" if rc == 0 else ("TIMEOUT" if rc is None else "FAIL")
            results.append((tool, verdict, first_error(out) if rc else ""))
        failing += results[0][1] != "ok"
        print(f"{src.name:<46} " + "; ".join(f"{t}: {v}" for t, v, _ in results))
        if results[0][2]:
            print(f"    {re.sub(r'^.*?/cuda_samples_repros/', '', results[0][2])[:200]}")
    print(f"{failing} repro(s) still fail through cass-cc")
    return 0


@click.command(cls=GreedyCommand, greedy={"--only": False}, help=as_written(__doc__), context_settings=CONTEXT)
@click.option("--samples", type=click.Path(path_type=Path), default=WORK / "src")
@click.option("--mirror", type=click.Path(path_type=Path), default=MIRROR)
@click.option("--only", multiple=True, metavar="NAME [NAME ...]")
@click.option("--failed", is_flag=True, help="only the runtime-only samples not built in the last results")
@click.option("--runtime-only", is_flag=True, help="build only runtime-only samples (others: classified)")
@click.option("--classify-only", is_flag=True)
@click.option("--jobs", type=int, default=2, help="parallel compile jobs inside one sample's build (-jN)")
@click.option("--timeout", type=float, default=300, help="seconds per sample, configure + build")
@click.option("--cass-root", type=click.Path(path_type=Path), default=ROOT,
              help="the cass-cc checkout whose cmake/cass-cc.cmake (and bin/cass-cc) build the samples")
@click.option("--keep-cache", is_flag=True)
@click.option("--results", type=click.Path(path_type=Path), default=RESULTS, help="where cuda_samples.jsonl/.md go")
@click.option("--repros", is_flag=True,
              help="only compile bench/results/cuda_samples_repros/*.cu with cass-cc and nvcc")
def command(**kwargs: Any) -> int:
    args = SimpleNamespace(**kwargs)
    args.only = list(args.only) or None
    if args.repros:
        return check_repros(RESULTS / "cuda_samples_repros", args.cass_root)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so run() kills the build it waits on

    if not (args.samples / "Samples").is_dir():
        extract(args.mirror, args.samples)
    folders = find_samples(args.samples)
    names = [f.name for f in folders]
    dups = {n for n in names if names.count(n) > 1}
    if dups:
        print(f"duplicate sample names: {sorted(dups)}", file=sys.stderr)

    rows = []
    for folder in folders:
        row = {"name": folder.name, "category": folder.relative_to(args.samples / "Samples").parts[0],
               "path": str(folder.relative_to(args.samples)), **classify(folder)}
        rows.append(row)
    old = merge_rows(rows, args.results, {})  # last results for the samples not rebuilt now
    wanted = set(names)
    if args.only:
        unknown = set(args.only) - wanted
        if unknown:
            raise click.UsageError(f"unknown samples: {' '.join(sorted(unknown))}")
        wanted = set(args.only)
    if args.failed:
        wanted &= {n for n, r in old.items() if r.get("runtime_only") and not r.get("built")}
    if args.runtime_only:
        wanted &= {r["name"] for r in rows if r["runtime_only"]}
    if args.classify_only:
        wanted = set()

    # Runs may overlap (several people share the tree): each has its own cache and build folders,
    # and results are merged under a lock, a row per sample built.
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}"
    run_dir = WORK / "runs" / stamp
    cache = WORK / "cache" if args.keep_cache else run_dir / "cache"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASS_")}
    env["CASS_CACHE_DIR"] = str(cache)
    env.pop("MAKEFLAGS", None)

    def head(path: Path) -> str:
        p = subprocess.run(["git", *(["--git-dir", str(path)] if path.suffix == "" and path.name == "repo" else ["-C", str(path)]),
                            "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        return p.stdout.strip() or path.name

    meta = {"command": " ".join(["python", "bench/cuda_samples.py", *sys.argv[1:]]),
            "samples_commit": head(args.mirror), "cass_commit": head(args.cass_root),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}

    # Runtime-only samples first, so a cut-short run still answers the main question.
    order = sorted((r for r in rows if r["name"] in wanted), key=lambda r: (not r["runtime_only"], r["path"]))
    mine: dict[str, dict[str, object]] = {}
    try:
        for done, row in enumerate(order, 1):
            folder = args.samples / row["path"]
            result = build_sample(folder, row["name"], env, args.jobs, args.timeout,
                                  args.cass_root.resolve() / "cmake" / "cass-cc.cmake", run_dir / "build")
            row = {k: v for k, v in row.items() if k in CLASSIFY_KEYS}
            now = datetime.datetime.now(datetime.timezone.utc)
            row.update(result, cass_commit=head(args.cass_root),  # HEAD moves while others land fixes
                       date=now.strftime("%Y-%m-%d %H:%M UTC"), time=now.isoformat(timespec="seconds"))
            mine[row["name"]] = row
            tag = "rt " if row["runtime_only"] else "lib"
            print(f"[{done}/{len(order)}] {tag} {row['name']:<34} {row['status']:<28} {row['seconds']:>6} s  "
                  f"{row.get('first_error', '')[:150]}", flush=True)
            merge_rows(rows, args.results, mine, meta)
    finally:
        merged = merge_rows(rows, args.results, mine, meta)
        shutil.rmtree(run_dir / "cache", ignore_errors=True)
    rt = [r for r in merged.values() if r["runtime_only"]]
    print(f"runtime-only built: {sum(1 for r in rt if r.get('built'))}/{len(rt)}; "
          f"others: {len(merged) - len(rt)}; logs: {run_dir}/build/<sample>/cass-bench.log")
    return 0


CLASSIFY_KEYS = ("name", "category", "path", "runtime_only", "reasons", "evidence", "has_kernels")


def merge_rows(rows: list[dict[str, object]], results: Path, mine: dict[str, dict[str, object]],
               meta: dict[str, object] | None = None) -> dict[str, dict[str, object]]:
    """Under a lock: the results file's build fields for every sample, this run's rows over
    them, today's classification for all; written back when `meta` is given."""
    results.mkdir(parents=True, exist_ok=True)
    jsonl = results / "cuda_samples.jsonl"
    with open(results / ".cuda_samples.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        old: dict[str, dict[str, object]] = {}
        if jsonl.exists():
            for line in jsonl.read_text().splitlines():
                if line.strip():
                    r = json.loads(line)
                    old[r["name"]] = r
        merged: dict[str, dict[str, object]] = {}
        for row in rows:
            name = str(row["name"])
            prev_row = old.get(name, {})
            if name in mine and str(mine[name].get("time", "")) >= str(prev_row.get("time", "")):
                merged[name] = mine[name]  # newest build wins (an overlapping run may have built it later)
            else:
                prev = {k: v for k, v in old.get(name, {}).items() if k not in CLASSIFY_KEYS}
                merged[name] = {**{k: row[k] for k in CLASSIFY_KEYS}, **prev}
        if meta is not None:
            write_results(list(merged.values()), meta, results)
    return merged if meta is not None else old


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/cuda_samples.py")


if __name__ == "__main__":
    sys.exit(main())
