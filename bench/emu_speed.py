"""Speed of the gfx1100 emulator (cass_cc/emu).

For a few kernels of tests/emu/kernels.hip launched as 1,024 waves: wave-instructions per second
once warm (best of 3), and as the baseline the same kernel launched as one wave, or one block
for kernels written for 256 threads (where little can be batched across waves); the ratio is what running waves together buys. The first run of a
kernel is timed in a fresh process (decoding and compiling its opcodes included; imports not).

    python3 bench/emu_speed.py [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WAVES = 1024
KERNELS = {
    # name: (args for `threads` threads, block)
    "saxpy": (lambda n, r: [np.float32(2.0), r.random(n, np.float32), r.random(n, np.float32), n], 256),
    "block_sum": (lambda n, r: [r.random(n, np.float32), np.zeros(n // 256, np.float32)], 256),
    "matmul_tiled": None,  # fixed shape below
    "loop_collatz": (lambda n, r: [r.integers(1, 200, n).astype(np.int32), np.zeros(n, np.int32), n], 256),
}


def _args(name: str, threads: int, rng):
    make, block = KERNELS[name]
    return make(threads, rng), block


def measure(co, name: str, threads: int, reps: int = 3) -> tuple[float, int]:
    from cass_cc.emu import launch

    rng = np.random.default_rng(0)
    if name == "matmul_tiled":
        n = int(round((threads / 1) ** 0.5))  # threads = n * n
        args, grid, block = [rng.random(n * n, np.float32), rng.random(n * n, np.float32), np.zeros(n * n, np.float32), n], (n // 16, n // 16), (16, 16)
    else:
        args, block = _args(name, threads, rng)
        grid = max(1, threads // block)
        block = min(block, threads)
    best, count = float("inf"), 0
    for _ in range(reps):
        r = launch(co, name, grid, block, args, detail=True)
        best, count = min(best, r.seconds), r.wave_instructions
    return best, count


FIRST_RUN = """
import sys, time
sys.path.insert(0, {root!r})
import numpy as np
from cass_cc.emu import launch, load
import tinygrad.renderer.amd, tinygrad.runtime.autogen.amd.rdna3.ins  # imports are not the kernel's first run
co = load({path!r})
rng = np.random.default_rng(0)
n = 256 * 64
t = time.perf_counter()
launch(co, {name!r}, 64, 256, {args})
print(time.perf_counter() - t)
"""


def first_run(path: str, name: str) -> float:
    args = {"saxpy": "[np.float32(2), rng.random(n, np.float32), rng.random(n, np.float32), n]",
            "block_sum": "[rng.random(n, np.float32), np.zeros(64, np.float32)]",
            "loop_collatz": "[rng.integers(1, 200, n).astype(np.int32), np.zeros(n, np.int32), n]"}[name]
    out = subprocess.run([sys.executable, "-c", FIRST_RUN.format(root=str(ROOT), path=path, name=name, args=args)],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", default=None)
    ns = ap.parse_args()
    from cass_cc.emu import load
    from tests.emu.build import hip_code_object

    path = str(hip_code_object())
    co = load(path)
    rows = []
    for name in ("saxpy", "block_sum", "loop_collatz", "matmul_tiled"):
        threads = WAVES * 32 if name != "matmul_tiled" else 128 * 128  # matmul: 512 waves of 16x16 tiles
        measure(co, name, threads, reps=1)  # warm-up: decode and compile
        t, n = measure(co, name, threads)
        small = 32 if name in ("saxpy", "loop_collatz") else 256  # one wave, or one block where the kernel needs 256 threads
        t1, n1 = measure(co, name, small, reps=3)
        first = first_run(path, name) if name != "matmul_tiled" else None
        row = {"kernel": name, "waves": threads // 32, "wave_instr": n, "seconds": round(t, 4),
               "wave_instr_per_s": round(n / t), "baseline_waves": small // 32, "one_wave_wave_instr_per_s": round(n1 / t1),
               "ratio_vs_one_wave": round((n / t) / (n1 / t1), 1), "first_run_s": first and round(first, 3)}
        rows.append(row)
        print(f"{name:14s} {row['waves']:5d} waves  {row['wave_instr_per_s'] / 1e6:6.2f} M wave-instr/s  "
              f"({small // 32} wave(s): {row['one_wave_wave_instr_per_s'] / 1e6:5.3f} M/s, x{row['ratio_vs_one_wave']})  "
              f"first run {first if first is None else f'{first:.3f} s'}")
    if ns.json:
        Path(ns.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
