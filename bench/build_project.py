"""Whole-build overhead: a generated CUDA project of many .cu files built with
`make -j2 CC=cass-cc`, cold (empty translation cache) and warm, against the same project
ported to HIP (`cass-cc port`) and built by clang directly with the same flags.

    python bench/build_project.py [--files 24] [--runs 3]

Targets: cold <= 1.3x, warm <= 1.05x. Medians, the runs interleaved, of wall-clock time and
of the CPU time of all build processes (steadier on a shared machine).
"""
from __future__ import annotations

import resource
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT, as_written  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

CASS_CC = ROOT / "bin" / "cass-cc"

KERNELS = [
    # elementwise
    "__global__ void k{n}(float* y, const float* x, float a, int len) {{\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < len) y[i] = a * x[i] + {n}.0f * y[i];\n}}\n",
    # warp reduction
    "__global__ void k{n}(float* y, const float* x, float a, int len) {{\n"
    "  float v = 0.0f;\n  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < len; i += gridDim.x * blockDim.x) v += x[i] * a;\n"
    "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
    "  if ((threadIdx.x & 31) == 0) atomicAdd(y, v + {n});\n}}\n",
    # shared-memory stencil
    "__global__ void k{n}(float* y, const float* x, float a, int len) {{\n"
    "  __shared__ float tile[258];\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  tile[threadIdx.x + 1] = i < len ? x[i] : 0.0f;\n"
    "  if (threadIdx.x == 0) tile[0] = i > 0 ? x[i - 1] : 0.0f;\n"
    "  if (threadIdx.x == blockDim.x - 1) tile[blockDim.x + 1] = i + 1 < len ? x[i + 1] : 0.0f;\n"
    "  __syncthreads();\n"
    "  if (i < len) y[i] = a * (tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2]) / {n}.0f;\n}}\n",
]


def generate(folder: Path, files: int) -> None:
    folder.mkdir(parents=True)
    (folder / "ops.h").write_text("".join(f"int launch{n}(float* y, const float* x, int len);\n" for n in range(files)))
    for n in range(files):
        (folder / f"part{n}.cu").write_text(
            '#include <cuda_runtime.h>\n#include "ops.h"\n' + KERNELS[n % len(KERNELS)].format(n=n + 1)
            + f"int launch{n}(float* y, const float* x, int len) {{\n"
            f"  k{n + 1}<<<(len + 255) / 256, 256>>>(y, x, 0.5f, len);\n"
            "  return cudaGetLastError() == cudaSuccess ? 0 : 1;\n}\n"
        )
    calls = "".join(f"  rc |= launch{n}(y, x, n);\n" for n in range(files))
    (folder / "main.cu").write_text(
        '#include <cstdio>\n#include <cuda_runtime.h>\n#include "ops.h"\n'
        "int main() {\n  const int n = 1 << 16;\n  float *x, *y;\n"
        "  cudaMalloc(&x, n * sizeof(float));\n  cudaMalloc(&y, n * sizeof(float));\n  int rc = 0;\n"
        + calls + '  cudaDeviceSynchronize();\n  printf("%d\\n", rc);\n  return rc;\n}\n'
    )
    objs = " ".join(f"part{n}.o" for n in range(files)) + " main.o"
    (folder / "Makefile").write_text(
        f"CC = nvcc\nFLAGS = -O2 -std=c++17 -arch=sm_80\nOBJS = {objs}\n"
        "app: $(OBJS)\n\t$(CC) $(FLAGS) $(OBJS) -o $@\n"
        "%.o: %.cu ops.h\n\t$(CC) $(FLAGS) -c $< -o $@\n"
        "clean:\n\trm -f app $(OBJS)\n"
    )


def hip_makefile(cass_folder: Path, env: dict[str, str]) -> str:
    """The commands cass-cc runs, taken from its --dryrun, with the cached .hip replaced by the
    ported file: the baseline differs only by not translating."""
    dry = subprocess.run([sys.executable, str(CASS_CC), "--dryrun", "-O2", "-std=c++17", "-arch=sm_80", "-c", "part0.cu",
                          "-o", "part0.o"], cwd=cass_folder, env=env, capture_output=True, text=True, check=True)
    compile_line = shlex.split(next(line[3:] for line in dry.stderr.splitlines() if " -x hip " in line))
    src_at = compile_line.index("-o") - 1
    cleaned: list[str] = []
    args = iter(compile_line[1:src_at])
    for a in args:
        if a == "-iquote":
            next(args)  # the .cu file's folder: the ported file sits in its own
        else:
            cleaned.append(a)
    clang = compile_line[0]
    link = "g++ $(OBJS) -o $@ -L/usr/lib/x86_64-linux-gnu -lamdhip64"
    return (
        f"CLANG = {clang}\nFLAGS = {shlex.join(cleaned)}\nOBJS = $(patsubst %.cu,%.o,$(wildcard *.cu))\n"
        f"app: $(OBJS)\n\t{link}\n%.o: %.cu ops.h\n\t$(CLANG) $(FLAGS) $< -o $@\nclean:\n\trm -f app $(OBJS)\n"
    )


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_make(folder: Path, env: dict[str, str], args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of every process the build ran)."""
    subprocess.run(["make", "clean"], cwd=folder, env=env, check=True, capture_output=True)
    start, cpu = time.perf_counter(), _children_cpu()
    proc = subprocess.run(["make", "-j2", *args], cwd=folder, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"build failed in {folder}:\n{proc.stderr[-2000:]}")
    return time.perf_counter() - start, _children_cpu() - cpu


@click.command(help=as_written(__doc__), context_settings=CONTEXT)
@click.option("--files", type=int, default=24)
@click.option("--runs", "run_count", type=int, default=3)
def command(files: int, run_count: int) -> int:
    with tempfile.TemporaryDirectory(prefix="cass-build-bench-") as tmp:
        work = Path(tmp)
        cuda = work / "cuda"
        generate(cuda, files)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASS_")}
        env["CASS_CONFIG"] = str(work / "none.toml")
        env["CASS_CACHE_DIR"] = str(work / "cache-warm")
        subprocess.run([sys.executable, str(CASS_CC), "port", str(cuda), "-o", str(work / "hip"), "-q", "--no-build-files"],
                       env=env, check=True, capture_output=True)
        hip = work / "hip"
        (hip / "Makefile").write_text(hip_makefile(cuda, env))
        subprocess.run([sys.executable, str(CASS_CC), "setup"], env=env, check=True, capture_output=True)
        timed_make(cuda, env, [f"CC={CASS_CC}"])  # fills the warm cache
        cold, warm, base = [], [], []
        for run in range(run_count):
            cold_env = {**env, "CASS_CACHE_DIR": str(work / f"cache-cold-{run}")}
            # the device-library fix is a one-time setup, not part of a build: do it first
            subprocess.run([sys.executable, str(CASS_CC), "setup"], env=cold_env, check=True, capture_output=True)
            cold.append(timed_make(cuda, cold_env, [f"CC={CASS_CC}"]))
            warm.append(timed_make(cuda, env, [f"CC={CASS_CC}"]))
            base.append(timed_make(hip, env, []))
        print(f"{files + 1} .cu files, make -j2, median of {run_count} (wall clock; CPU time of all build processes):")
        for i, unit in ((0, "wall"), (1, "CPU")):
            c, w, b = (statistics.median(t[i] for t in runs) for runs in (cold, warm, base))
            print(f"  {unit:4}  HIP port built by clang {b:6.2f} s | cass-cc cold {c:6.2f} s, ratio {c / b:.3f} "
                  f"(target <= 1.3) | warm {w:6.2f} s, ratio {w / b:.3f} (target <= 1.05)")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/build_project.py")


if __name__ == "__main__":
    sys.exit(main())
