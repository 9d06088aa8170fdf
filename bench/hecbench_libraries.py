"""The HeCBench dev programs that use a CUDA library (CUB, thrust, cuBLAS ...), built for gfx1100
inside the Debian 13 root with ROCm 5.7 and its HIP libraries (scripts/trixie_root.sh), issue 23:

    python bench/hecbench_libraries.py HECBENCH_CHECKOUT [--only NAME ...]

HECBENCH_CHECKOUT is a HeCBench checkout (top-level CMakeLists.txt and cmake/, programs in
src/<name>-cuda and src/<name>-hip). The programs are those of shared/eval/hecbench_dev.txt whose
CUDA or hand-written HIP sources include a library header. Three builds of each, in the root:
 - `make CC=cass-cc` in src/<name>-cuda (bench/hecbench_accuracy.py),
 - the hand-written HIP version: `make CC=hipcc` with --offload-arch=gfx1100 (the same script),
 - CMake: HeCBench's own top-level CMake with cmake/cass-cc.cmake as the toolchain file, CUDA only,
   HECBENCH_CUDA_ARCH=80 (HeCBench's default "sm_80" is not a CUDA_ARCHITECTURES value: nvcc
   refuses it too), target <name>-cuda.
Results: bench/results/hecbench_libraries.json and .md.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT, GreedyCommand, as_written, greedy_values  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

TRIXIE = ROOT / "scripts" / "trixie_root.sh"
RESULTS = ROOT / "bench" / "results"
LIBRARY_HEADER = re.compile(rb"#\s*include\s*[<\"]((?:cub|hipcub|thrust|rocprim)/[^>\"]+|(?:cublas\w*|curand\w*|cufft\w*|"
                            rb"cusparse\w*|cusolver\w*|hipblas\w*|hiprand\w*|hipfft\w*|hipsparse\w*|hipsolver\w*)(?:/\w+)?\.h\w*)[>\"]")
SIBLING = re.compile(rb"\.\./([A-Za-z0-9_+.-]+-(?:cuda|hip|omp|sycl))\b")
WORK = "/tmp/hec"  # in the root


def libraries_used(folder: Path) -> set[str]:
    found: set[str] = set()
    for f in folder.rglob("*"):
        if f.is_file() and f.suffix in (".cu", ".h", ".hpp", ".cuh", ".cpp", ".hip"):
            for m in LIBRARY_HEADER.finditer(f.read_bytes()):
                found.add(m.group(1).decode().split("/")[0].split(".")[0].removesuffix("_v2"))
    return found


def stage(checkout: Path, names: list[str], root: Path) -> None:
    """The top-level CMake files and every program folder (and the siblings they reach) into the root."""
    work = root / WORK.lstrip("/")
    shutil.rmtree(work, ignore_errors=True)
    (work / "src").mkdir(parents=True)
    shutil.copy(checkout / "CMakeLists.txt", work)
    shutil.copytree(checkout / "cmake", work / "cmake")
    shutil.copy(checkout / "src" / "CMakeLists.txt", work / "src")
    todo = [f"{n}-{side}" for n in names for side in ("cuda", "hip")]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        src = checkout / "src" / name
        if name in seen or not src.is_dir():
            continue
        seen.add(name)
        shutil.copytree(src, work / "src" / name, symlinks=True)
        for f in src.iterdir():
            if f.is_file():
                todo += [m.group(1).decode() for m in SIBLING.finditer(f.read_bytes())]


CMAKE_LOOP = r"""
set -u
cd %(work)s && rm -rf build-cass && mkdir build-cass
cmake -S . -B build-cass -DCMAKE_TOOLCHAIN_FILE=/cass/cmake/cass-cc.cmake -DHECBENCH_ENABLE_HIP=OFF \
  -DHECBENCH_ENABLE_SYCL=OFF -DHECBENCH_ENABLE_OPENMP=OFF -DHECBENCH_ENABLE_TESTING=OFF -DHECBENCH_CUDA_ARCH=80 \
  > build-cass/configure.log 2>&1 || { echo "CONFIGURE FAILED"; tail -20 build-cass/configure.log; exit 1; }
for n in %(names)s; do
  s=$(date +%%s)
  if cmake --build build-cass --target $n-cuda -j2 > build-cass/$n.log 2>&1; then r=built; else r="$(grep -m1 -E 'error' build-cass/$n.log | cut -c1-160)"; fi
  echo "CMAKE	$n	$(( $(date +%%s) - s ))	$r"
done
"""


@click.command(cls=GreedyCommand, greedy={"--only": True}, help=as_written(__doc__), context_settings=CONTEXT)
@click.argument("checkout", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--only", multiple=True, metavar="[ONLY ...]")
@click.option("--list", "list_file", type=click.Path(path_type=Path), default=ROOT.parent / "shared" / "eval" / "hecbench_dev.txt")
@click.option("--root", type=click.Path(path_type=Path), default=Path("/var/cache/cass-cc/trixie"),
              help="the Debian 13 root (scripts/trixie_root.sh make)")
def command(**kwargs: Any) -> int:
    checkout, root = kwargs["checkout"].resolve(), kwargs["root"]
    names = greedy_values(kwargs["only"]) or [n for n in kwargs["list_file"].read_text().split() if n.strip()]
    used = {}
    for n in names:
        libs = set().union(*(libraries_used(checkout / "src" / f"{n}-{side}") for side in ("cuda", "hip")
                             if (checkout / "src" / f"{n}-{side}").is_dir()))
        if libs:
            used[n] = sorted(libs)
    names = sorted(used)
    print(f"{len(names)} programs use a CUDA library: {' '.join(names)}", flush=True)
    stage(checkout, names, root)
    start = time.perf_counter()
    make = subprocess.run(["bash", str(TRIXIE), "run", "/opt/venv/bin/python", "bench/hecbench_accuracy.py", WORK,
                           "--keep", WORK, "--json", f"{WORK}/make.json", "--jobs", "2", "--only", *names],
                          capture_output=True, text=True)
    print(make.stdout[-3000:], make.stderr[-2000:], flush=True)
    cmake = subprocess.run(["bash", str(TRIXIE), "run", "bash", "-c", CMAKE_LOOP % {"work": WORK, "names": " ".join(names)}],
                           capture_output=True, text=True)
    print(cmake.stdout[-3000:], cmake.stderr[-2000:], flush=True)
    seconds = time.perf_counter() - start
    rows = {r["name"]: r for r in json.loads((root / WORK.lstrip("/") / "make.json").read_text())["rows"]}
    for line in cmake.stdout.splitlines():
        if line.startswith("CMAKE\t"):
            _, n, secs, result = line.split("\t", 3)
            rows[n]["cmake_ok"], rows[n]["cmake_reason"], rows[n]["cmake_s"] = result == "built", "" if result == "built" else result, int(secs)
    for n in names:
        rows[n]["libraries"] = used[n]
    out = {"names": names, "rows": [rows[n] for n in names], "seconds": round(seconds, 1),
           "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()}
    (RESULTS / "hecbench_libraries.json").write_text(json.dumps(out, indent=1) + "\n")
    write_markdown(out)
    return 0


def write_markdown(out: dict[str, Any]) -> None:
    rows = out["rows"]
    count = lambda key: sum(1 for r in rows if r.get(key))  # noqa: E731
    lines = [
        "# HeCBench dev programs that use a CUDA library, built on ROCm 5.7 (Debian 13)",
        "",
        f"Made by `python bench/hecbench_libraries.py HECBENCH_CHECKOUT` (its docstring says what each column runs) "
        f"at cass-cc {out['commit']}, inside the root of `scripts/trixie_root.sh` (ROCm 5.7.1: rocThrust, hipCUB, "
        f"hipBLAS 5.5, hipFFT, hipSPARSE, hipRAND, hipSOLVER), for gfx1100; {out['seconds']:.0f} s on 2 cores.",
        "",
        "| | programs |",
        "| --- | --- |",
        f"| use a CUDA library (CUDA or hand-written HIP side) | {len(rows)} |",
        f"| `make CC=cass-cc` built | {count('cass_ok')} |",
        f"| CMake (cmake/cass-cc.cmake) built | {count('cmake_ok')} |",
        f"| hand-written HIP, `make` with the root's hipcc, built | {count('hip_ok')} |",
        "",
        "| program | libraries | make CC=cass-cc | CMake + cass-cc | hand-written HIP (hipcc) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        cell = lambda ok, why: "built" if r.get(ok) else f"failed: {r.get(why) or 'absent'}".replace("|", "\\|")  # noqa: E731
        lines.append(f"| {r['name']} | {', '.join(r['libraries'])} | {cell('cass_ok', 'cass_reason')} | "
                     f"{cell('cmake_ok', 'cmake_reason')} | {cell('hip_ok', 'hip_reason')} |")
    (RESULTS / "hecbench_libraries.md").write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/hecbench_libraries.py")


if __name__ == "__main__":
    sys.exit(main())
