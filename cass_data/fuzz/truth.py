"""The truth: each batch built by nvcc and run on an NVIDIA GPU (runner.cu), the outputs saved.

    python3 -m cass_data.fuzz.truth --seed S --batches 0:500 --out DIR [--jobs 16] [--arch sm_90]

Runs where nvcc and a GPU are (the device machine); the folders it writes are what `cass-data fuzz
check` compares against, so CPU-only runs reuse them. Needs the standard library and click only.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

from . import batch as batchmod

NVCC_FLAGS = ["-cubin", "-O3", "-fmad=false", "-w"]
# The second opinion's: NVVM and ptxas both unoptimised (r3:503 was ptxas's bug; r4:5075 NVVM's:
# it folds fdimf(-3.5f, fabsf(x)) to 0 where the GPU's fdimf gives NaN for a NaN x)
SECOND_FLAGS = ("-Xcicc", "-O0", "-Xptxas", "-O0")
HERE = Path(__file__).resolve().parent


def compile_batch(folder: Path, nvcc: str, arch: str, extra: tuple[str, ...] = ()) -> str:
    """'' or nvcc's first error line."""
    proc = subprocess.run([nvcc, *NVCC_FLAGS, *extra, f"-arch={arch}", "-o", str(folder / "fz.cubin"), str(folder / "fz.cu")],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode == 0:
        return ""
    lines = [ln for ln in proc.stderr.splitlines() if "error" in ln] or proc.stderr.splitlines() or ["exit"]
    return lines[0][:300]


def run_batch(folder: Path, runner: Path, size: int, timeout: int = 60) -> None:
    """truth.bin + status.txt; a kernel that hangs or poisons the context is rerun alone and
    marked, the others keep their results."""
    def one(first: int, count: int) -> tuple[int, str]:
        try:
            proc = subprocess.run([str(runner), str(folder), str(first), str(count)], capture_output=True, text=True,
                                  timeout=timeout)
            return proc.returncode, proc.stderr.strip()
        except subprocess.TimeoutExpired:
            return 124, "timed out"

    rc, err = one(0, size)
    status = (folder / "status.txt.0").read_text().split() if (folder / "status.txt.0").exists() else []
    data = (folder / "truth.bin.0").read_bytes() if (folder / "truth.bin.0").exists() else b""
    ks = [ln.split() for ln in (folder / "kernels.txt").read_text().splitlines()]
    while len(status) < size:  # the rest one at a time
        i = len(status)
        rc, err = one(i, 1)
        part = folder / f"status.txt.{i}"
        if rc in (0, 3) and part.exists():
            status += part.read_text().split()
            data += (folder / f"truth.bin.{i}").read_bytes()
        else:
            status.append("timeout" if rc == 124 else f"runner-{rc}")
            data += b"\0" * (4 * int(ks[i][3]))
    (folder / "status.txt").write_text("\n".join(status) + "\n")
    (folder / "truth.bin").write_bytes(data)
    for p in folder.glob("*.txt.*"):
        p.unlink()
    for p in folder.glob("truth.bin.*"):
        p.unlink()


def second_opinion(folder: Path, nvcc: str, arch: str, runner: Path, size: int) -> None:
    """The batch again with nvcc's optimisers off (NVVM's and ptxas's): batch.SECOND beside the truth."""
    sub = folder / "O0"
    sub.mkdir(exist_ok=True)
    for name in ("fz.cu", "kernels.txt", "in.bin"):
        shutil.copy(folder / name, sub / name)
    if compile_batch(sub, nvcc, arch, SECOND_FLAGS):
        shutil.rmtree(sub)
        return
    run_batch(sub, runner, size)
    for made, kept in zip(("truth.bin", "status.txt"), batchmod.SECOND):
        os.replace(sub / made, folder / kept)
    shutil.rmtree(sub)


def batch_numbers(spec: str) -> list[int]:
    """"0:500" or "25,31,40:42" -> the batch numbers."""
    numbers: list[int] = []
    for part in spec.split(","):
        first, colon, end = part.partition(":")
        numbers += range(int(first), int(end)) if colon else [int(first)]
    return numbers


def run(out: Path, seed: str | None = None, batches: str | None = None, cases: Path | None = None,
        jobs: int = os.cpu_count() or 4, arch: str = "sm_90", size: int = batchmod.SIZE,
        pack_to: Path | None = None, second: bool = False) -> None:
    """Write the batches (or copy the reduced cases), build them with nvcc, run them on the GPU."""
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    out.mkdir(parents=True, exist_ok=True)
    runner = out / "fuzz_runner"
    subprocess.run([nvcc, "-O2", "-o", str(runner), str(HERE / "runner.cu"), "-lcuda"], check=True)
    start = time.time()
    folders = []
    if cases:
        from .cases import prepare_for_truth

        for case in sorted(p.parent for p in cases.glob("*/case.json")):
            folder = out / case.name
            shutil.copytree(case, folder, dirs_exist_ok=True)
            prepare_for_truth(folder)
            folders.append(folder)
        size = 1
    elif seed and batches:
        for b in batch_numbers(batches):
            folder = out / batchmod.name(seed, b)
            batchmod.write(folder, seed, b, size)
            folders.append(folder)
    else:
        raise ValueError("give a seed and batches, or cases")
    with ThreadPoolExecutor(jobs) as pool:
        errors = list(pool.map(lambda f: compile_batch(f, nvcc, arch), folders))
    built = time.time()
    for folder, err in zip(folders, errors):
        if err:
            (folder / "nvcc-error.txt").write_text(err + "\n")
            continue
        run_batch(folder, runner, size)
        if second:
            second_opinion(folder, nvcc, arch, runner, size)
    done = time.time()
    failed = sum(1 for e in errors if e)
    print(f"truth: {len(folders)} batches ({len(folders) * size} kernels), {failed} not built by nvcc; "
          f"compile {built - start:.0f} s, run {done - built:.0f} s", file=sys.stderr)
    for folder, err in zip(folders, errors):
        if err:
            print(f"  {folder.name}: {err}", file=sys.stderr)
    if pack_to:
        pack(folders, pack_to)


@click.command()
@click.option("--seed", default=None)
@click.option("--batches", default=None, metavar="FIRST:END", help="batch numbers (20 kernels each)")
@click.option("--cases", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="instead: every reduced case under this folder (cases.py)")
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path), required=True)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 4, show_default=True)
@click.option("--arch", default="sm_90", show_default=True)
@click.option("--size", type=click.IntRange(min=1), default=batchmod.SIZE, show_default=True)
@click.option("--pack", "pack_to", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="also write the results (cubins, outputs, statuses) as one .tar.gz")
@click.option("--second-opinion", "second", is_flag=True,
              help="also run each batch built with -Xcicc -O0 -Xptxas -O0 (where a path differs: is nvcc's optimiser wrong?)")
def main(seed: str | None, batches: str | None, cases: Path | None, out: Path, jobs: int, arch: str, size: int,
         pack_to: Path | None, second: bool) -> None:
    """Build generated kernels with nvcc and run them on this machine's NVIDIA GPU (the truth).
    --batches takes ranges and lists: 0:500, or 25,31,40:42."""
    if not cases and not (seed and batches):
        raise click.UsageError("give --seed and --batches, or --cases")
    run(out, seed, batches, cases, jobs, arch, size, pack_to, second)


KEPT = ("meta.json", "case.json", "fz.cubin", "truth.bin", "status.txt", "nvcc-error.txt", *batchmod.SECOND)


def pack(folders: list[Path], tar: Path) -> None:
    """What a CPU-only machine needs: the sources and inputs are regenerated from meta.json."""
    import tarfile

    with tarfile.open(tar, "w:gz") as t:
        for folder in folders:
            for name in KEPT:
                if (folder / name).exists():
                    t.add(folder / name, arcname=f"{folder.name}/{name}")


if __name__ == "__main__":
    main()
