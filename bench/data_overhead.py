"""cass-data's overhead: the pipeline's wall time against the same tool work done directly.

Both sides take the same N synthesized programs and the same parallelism (a process pool of
--jobs): the pipeline runs `cass-data run` (collect, translate, build, extract, verify) in a
fresh work folder; the direct side does, per program, exactly the work those stages do (the
rules translation, nvcc -cubin per sm, clang -S and the host-side check for gfx1100, llvm-mc,
cuobjdump, the lifter with opt/llc/llvm-mc) with plain subprocess calls, no store, no sandbox.
Runs alternate; medians are reported. No GPU here, so no runner time is on either side.

    python3 bench/data_overhead.py --n 16 --jobs 2 --repeat 2 [--json out.json]
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402


_CHAIN: list = []


def direct_one(args: tuple[str, str, dict, list[str]]) -> float:
    """One program's tool work, as the stages do it, without the pipeline around it."""
    from cass_cc.port.files import strip_line_directive
    from cass_cc.translate import Target, chain_from_setting
    from cass_data.asm import rdna3_kernels, sass_kernels
    from cass_cc.toolchain import hipclang
    from cass_data.context import HIP_FLAGS, NVCC_FLAGS
    from cass_data.stages import lift

    name, source, paths, sms = args
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="direct.") as tmp:
        cu = Path(tmp, name)
        cu.write_text(source)
        if not _CHAIN:  # one translator per process, as the pipeline's workers keep it
            _CHAIN.append(chain_from_setting("rules"))
        hip = strip_line_directive(_CHAIN[0].translate(source, name, Target((5, 2), 32)).text, name)
        hp = Path(tmp, "h", name)
        hp.parent.mkdir()
        hp.write_text(hip)
        ctx = paths["ctx"]
        for sm in sms:
            cubin = Path(tmp, f"{sm}.cubin")
            subprocess.run([paths["nvcc"], *NVCC_FLAGS, f"-arch={sm}", "-cubin", f"-I{tmp}", str(cu), "-o", str(cubin)],
                           capture_output=True, check=True)
            sass_kernels(subprocess.run([paths["cuobjdump"], "--dump-sass", str(cubin)], capture_output=True, text=True).stdout)
            lift(str(cubin), int(sm[3:]), ctx)
        hip, flags = ctx.found.hip_clang(), [*HIP_FLAGS, f"-I{hp.parent}"]
        s = Path(tmp, "k.s")
        subprocess.run(hip.command(str(hp), str(s), mode=hipclang.DEVICE_ASM, flags=flags), capture_output=True, check=True)
        subprocess.run(hip.command(str(hp), None, mode=hipclang.HOST_SYNTAX, flags=flags), capture_output=True, check=True)
        subprocess.run([paths["llvm-mc"], "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj", str(s), "-o",
                        str(Path(tmp, "k.o"))], capture_output=True, check=True)
        rdna3_kernels(s.read_text())
    return time.monotonic() - start


@click.command(context_settings=CONTEXT)
@click.option("--n", type=int, default=16)
@click.option("--seed", default="7")
@click.option("--jobs", type=int, default=2)
@click.option("--repeat", type=int, default=2)
@click.option("--sm", multiple=True)
@click.option("--json", type=click.Path(path_type=Path), default=None)
def command(**kwargs: Any) -> None:
    a = SimpleNamespace(**kwargs)
    a.sm = list(a.sm) or None
    sms = a.sm or ["sm_80", "sm_90"]
    from cass_data.context import Settings, make_context
    from cass_data.synth import generate_many

    progs = [(f"{p.domain}-{p.index}.cu", p.source) for p in generate_many(a.seed, a.n)]
    scratch = Path(tempfile.mkdtemp(prefix="cass-data-overhead."))
    ctx = make_context(Settings(sms=tuple(sms)), scratch / "ctx")
    from cass_cc.toolchain.found import TOOLS

    paths = {**{t: ctx.found.path(t) for t in TOOLS if ctx.found.has(t)}, "ctx": ctx}
    recipe = scratch / "r.toml"
    direct_t, pipe_t = [], []
    import resource

    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    direct_cpu, pipe_cpu = [], []
    for rep in range(a.repeat):
        c0 = cpu()
        start = time.monotonic()
        with ProcessPoolExecutor(a.jobs) as pool:
            per_item = list(pool.map(direct_one, [(n, s, paths, sms) for n, s in progs]))
        direct_t.append(time.monotonic() - start)
        direct_cpu.append(cpu() - c0)
        c0 = cpu()
        work = scratch / f"work{rep}"
        recipe.write_text(f'work = "{work}"\nsources = ["synth:{a.n}:{a.seed}"]\nworkers = {a.jobs}\n'
                          'stages = ["collect", "translate", "build", "extract", "verify"]\n'
                          f'[settings]\nsms = {json.dumps(sms)}\nexecute = "never"\n')
        start = time.monotonic()
        subprocess.run([sys.executable, str(ROOT / "bin" / "cass-data"), "run", str(recipe), "--no-progress"],
                       check=True, capture_output=True)
        pipe_t.append(time.monotonic() - start)
        pipe_cpu.append(cpu() - c0)
        rows = sum(1 for _ in open(work / "pairs.jsonl"))
        print(f"repeat {rep}: direct {direct_t[-1]:.1f} s (items summed {sum(per_item):.1f} s), "
              f"pipeline {pipe_t[-1]:.1f} s; CPU direct {direct_cpu[-1]:.1f} s, pipeline {pipe_cpu[-1]:.1f} s; "
              f"{rows} pairs; load {os.getloadavg()[0]:.1f}", flush=True)
    d, p = statistics.median(direct_t), statistics.median(pipe_t)
    result = {"programs": a.n, "jobs": a.jobs, "sms": sms, "direct_wall_s": round(d, 2), "pipeline_wall_s": round(p, 2),
              "overhead": round(p / d - 1, 4), "direct_runs": direct_t, "pipeline_runs": pipe_t,
              "direct_cpu_s": direct_cpu, "pipeline_cpu_s": pipe_cpu,
              "cpu_overhead": round(statistics.median(pipe_cpu) / statistics.median(direct_cpu) - 1, 4)}
    print(json.dumps(result, indent=1))
    if a.json:
        a.json.write_text(json.dumps(result, indent=1) + "\n")
    shutil.rmtree(scratch, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/data_overhead.py")


if __name__ == "__main__":
    raise SystemExit(main())
