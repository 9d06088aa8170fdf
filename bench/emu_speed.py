"""Speed of the gfx1100 emulator (cass_cc/emu).

For kernels of tests/emu/kernels.hip launched as 1,024 waves (matmul_tiled: 512 waves of 16x16
tiles, 128x128): wave-instructions per second once warm (best of 3), by wall clock and by this
process's CPU time (the machine may be shared: CPU time is what the emulator itself spent).
Ratios printed against two baselines measured in this same run: the same kernel launched as one
wave (or one 256-thread block where the kernel needs it; what running waves together buys), and
the 2 M wave-instructions/s target. The first run of each kernel is timed in a fresh process
(decoding and compiling its opcodes included; Python and NumPy imports not). The atomics rows
time a float atomic add (clang makes it a compare-and-swap loop, which on one address retires one
lane per pass, so it runs at 1,024 threads as in tests/emu) and a value-returning atomic max at
1,024 waves, every lane on one address.

    python3 bench/emu_speed.py [--json out.json]
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import click
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

WAVES = 1024
TARGET = 2e6
MATMUL_N = 128
ATOMIC_CAS_THREADS = 1024  # a CAS loop on one address retires one lane per pass: work grows as threads squared


def args_for(name: str, threads: int, rng):
    """(args, grid, block) for a launch of `threads` threads."""
    if name == "matmul_tiled":
        n = int(round(threads ** 0.5))
        return [rng.random(n * n, dtype=np.float32), rng.random(n * n, dtype=np.float32), np.zeros(n * n, np.float32), n], \
            (n // 16, n // 16), (16, 16)
    block = min(256, threads)
    make = {
        "saxpy": lambda n: [np.float32(2.0), rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32), n],
        "block_sum": lambda n: [rng.random(n, dtype=np.float32), np.zeros(max(1, n // 256), np.float32)],
        "loop_collatz": lambda n: [rng.integers(1, 200, n).astype(np.int32), np.zeros(n, np.int32), n],
        "atomic_add_float": lambda n: [rng.integers(-20, 20, n).astype(np.float32), np.zeros(1, np.float32), n],
        "atomic_max_ret": lambda n: [rng.integers(-1000, 1000, n).astype(np.int32), np.full(1, -10**9, np.int32),
                                     np.zeros(n, np.int32)],
    }[name]
    return make(threads), max(1, threads // block), block


def measure(co, name: str, threads: int, reps: int = 3) -> tuple[float, float, int]:
    """(best wall seconds, best CPU seconds, wave-instructions) of `reps` launches."""
    from cass_cc.emu import launch

    wall, cpu, count = float("inf"), float("inf"), 0
    for _ in range(reps):
        args, grid, block = args_for(name, threads, np.random.default_rng(0))
        t, c = time.perf_counter(), time.process_time()
        r = launch(co, name, grid, block, args, detail=True)
        wall, cpu, count = min(wall, time.perf_counter() - t), min(cpu, time.process_time() - c), r.wave_instructions
    return wall, cpu, count


FIRST_RUN = """
import sys, time
sys.path.insert(0, {root!r})
import numpy as np
sys.argv = ["x"]
from bench.emu_speed import args_for
from cass_cc.emu import launch, load
import tinygrad.renderer.amd, tinygrad.runtime.autogen.amd.rdna3.ins  # imports are not the kernel's first run
co = load({path!r})
args, grid, block = args_for({name!r}, {threads}, np.random.default_rng(0))
t = time.perf_counter()
launch(co, {name!r}, grid, block, args)
print(time.perf_counter() - t)
"""


def first_run(path: str, name: str, threads: int) -> float:
    code = FIRST_RUN.format(root=str(ROOT), path=path, name=name, threads=threads)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


@click.command(context_settings=CONTEXT)
@click.option("--json", "json_out", default=None)
def command(json_out: str | None) -> int:
    from cass_cc.emu import load
    from tests.emu.build import hip_code_object

    path = str(hip_code_object())
    co = load(path)
    rows = []
    for name in ("saxpy", "block_sum", "loop_collatz", "matmul_tiled", "atomic_add_float", "atomic_max_ret"):
        threads = {"matmul_tiled": MATMUL_N * MATMUL_N, "atomic_add_float": ATOMIC_CAS_THREADS}.get(name, WAVES * 32)
        first = first_run(path, name, threads)
        measure(co, name, threads, reps=1)  # warm-up: decode and compile
        t, c, n = measure(co, name, threads)
        small = 32 if name in ("saxpy", "loop_collatz") else 256
        t1, c1, n1 = measure(co, name, small) if name != "matmul_tiled" else measure(co, name, 256)
        row = {"kernel": name, "waves": threads // 32, "wave_instr": n, "seconds": round(t, 4), "cpu_seconds": round(c, 4),
               "wave_instr_per_s": round(n / t), "wave_instr_per_cpu_s": round(n / c),
               "baseline_waves": small // 32, "baseline_wave_instr_per_cpu_s": round(n1 / c1),
               "ratio_vs_baseline": round((n / c) / (n1 / c1), 1), "ratio_vs_target": round((n / c) / TARGET, 2),
               "first_run_s": round(first, 3)}
        rows.append(row)
        print(f"{name:17s} {row['waves']:5d} waves  {n / t / 1e6:5.2f} M wave-instr/s wall, {n / c / 1e6:5.2f} M per CPU s "
              f"(x{row['ratio_vs_target']} of the 2 M target; {small // 32} wave(s): {n1 / c1 / 1e6:5.3f} M/s, "
              f"x{row['ratio_vs_baseline']})  {t:.3f} s  first run {first:.3f} s")
    if json_out:
        Path(json_out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/emu_speed.py")


if __name__ == "__main__":
    raise SystemExit(main())
