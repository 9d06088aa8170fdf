"""Build accuracy on HeCBench: CUDA programs through `make CC=cass-cc` versus the
hand-written HIP versions through hipcc, both for gfx1100, on this machine.

    python bench/hecbench_accuracy.py HECBENCH_DIR [--list shared/eval/hecbench_dev.txt]
        [--jobs 2] [--json out.json] [--only NAME ...] [--sides cuda]

HECBENCH_DIR is a HeCBench checkout (programs in src/<name>-cuda, src/<name>-hip).
Target: every program whose hand-written HIP version builds here also builds through
cass-cc. Prints a line per program, the failure reasons, and the totals.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT, GreedyCommand, as_written, greedy_values  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402
from cass_cc.toolchain import Toolchain  # noqa: E402

CASS_CC = ROOT / "bin" / "cass-cc"
TIMEOUT = 600


def reason(log: str) -> str:
    """The first cause in a build log, in a few words."""
    patterns = [
        (r"error: <([^>]+)> needs (.+?) \(<[^>]+>\), which is not installed", lambda m: f"missing {m.group(2)}"),
        (r"fatal error: '([^']+)' file not found", lambda m: f"missing header {m.group(1)}"),
        (r"cass-cc fatal   : (.*)", lambda m: f"cass-cc: {m.group(1)[:100]}"),
        (r"nvcc fatal   : (.*)", lambda m: f"nvcc: {m.group(1)[:100]}"),
        (r"PLEASE submit a bug report", lambda m: "compiler crash"),
        (r"error: (.*)", lambda m: f"error: {m.group(1)[:100]}"),
        (r"undefined reference to `([^']+)'", lambda m: f"link: undefined {m.group(1)[:80]}"),
        (r"No rule to make target '([^']+)'", lambda m: f"make: no rule for {m.group(1)}"),
    ]
    for pattern, describe in patterns:
        m = re.search(pattern, log)
        if m:
            return describe(m)
    return "failed (see log)"


def build(folder: Path, args: list[str], env: dict[str, str]) -> tuple[bool, str, float]:
    start = time.perf_counter()
    subprocess.run(["make", "clean"], cwd=folder, env=env, capture_output=True)
    try:
        proc = subprocess.run(["make", *args], cwd=folder, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, f"timeout after {TIMEOUT} s", time.perf_counter() - start
    log = proc.stdout + proc.stderr
    (folder / "cass-bench.log").write_text(log)
    ok = proc.returncode == 0
    return ok, "" if ok else reason(log), time.perf_counter() - start


@click.command(cls=GreedyCommand, greedy={"--only": True}, help=as_written(__doc__), context_settings=CONTEXT)
@click.argument("hecbench", type=click.Path(path_type=Path))
@click.option("--list", type=click.Path(path_type=Path), default=ROOT.parent / "shared" / "eval" / "hecbench_dev.txt")
@click.option("--only", multiple=True, metavar="[ONLY ...]")
@click.option("--jobs", type=int, default=2)
@click.option("--json", type=click.Path(path_type=Path))
@click.option("--keep", type=click.Path(path_type=Path), help="build in this folder and keep it (default: a temporary one)")
@click.option("--sides", type=click.Choice(("both", "cuda")), default="both",
              help="cuda: only the CUDA programs through cass-cc (the HIP side does not change with cass-cc)")
def command(**kwargs: Any) -> int:
    args = SimpleNamespace(**kwargs)
    args.only = greedy_values(args.only)

    names = args.only or [n.strip() for n in args.list.read_text().split() if n.strip()]
    work = args.keep or Path(tempfile.mkdtemp(prefix="cass-hecbench-"))
    tc = Toolchain(os.environ, cache_dir=work / "cache")
    device_libs = tc.device_lib_dir(["gfx1100"])
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("CASS_")}
    cass_env = {**base_env, "CASS_CACHE_DIR": str(work / "cache")}
    hip_env = {
        **base_env,
        "HIP_PLATFORM": "amd",
        "HIPCC_COMPILE_FLAGS_APPEND": f"--offload-arch=gfx1100 --rocm-device-lib-path={device_libs}",
    }
    hipcc = tc.hipcc.path

    for name in names:
        for side in ("cuda", "hip"):
            src = args.hecbench / "src" / f"{name}-{side}"
            dst = work / "src" / f"{name}-{side}"
            if src.is_dir() and not dst.exists():
                shutil.copytree(src, dst, symlinks=True)

    def one(name: str) -> dict[str, object]:
        row: dict[str, object] = {"name": name}
        cuda, hip = work / "src" / f"{name}-cuda", work / "src" / f"{name}-hip"
        if cuda.is_dir():
            row["cass_ok"], row["cass_reason"], row["cass_s"] = build(cuda, [f"CC={CASS_CC}"], cass_env)
        if hip.is_dir() and args.sides == "both":
            row["hip_ok"], row["hip_reason"], row["hip_s"] = build(hip, [f"CC={hipcc}"], hip_env)
        status = "ok  " if row.get("cass_ok") else "FAIL"
        print(f"{status} {name:<28} cass-cc: {row.get('cass_reason') or 'built'}; "
              f"hand-written HIP: {row.get('hip_reason') or ('built' if row.get('hip_ok') else 'absent')}", flush=True)
        return row

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(one, names))

    cass_ok = sum(1 for r in rows if r.get("cass_ok"))
    hip_ok = sum(1 for r in rows if r.get("hip_ok"))
    regressions = [r["name"] for r in rows if r.get("hip_ok") and not r.get("cass_ok")]
    beyond = [r["name"] for r in rows if r.get("cass_ok") and "hip_ok" in r and not r.get("hip_ok")]
    reasons: dict[str, int] = {}
    for r in rows:
        if not r.get("cass_ok"):
            key = str(r.get("cass_reason", "no -cuda folder"))
            key = re.sub(r"^missing header .*/", "missing header .../", key)
            reasons[key] = reasons.get(key, 0) + 1
    print(f"\nbuilt for gfx1100: cass-cc {cass_ok}/{len(rows)} ({100 * cass_ok / len(rows):.1f}%), "
          f"hand-written HIP with hipcc {hip_ok}/{len(rows)} ({100 * hip_ok / len(rows):.1f}%)")
    print(f"HIP version builds but cass-cc does not ({len(regressions)}): {', '.join(regressions) or 'none'}")
    print(f"cass-cc builds but the HIP version does not ({len(beyond)}): {', '.join(beyond) or 'none'}")
    print("cass-cc failure reasons:")
    for key, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  {count:3d}  {key}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "cass_ok": cass_ok, "hip_ok": hip_ok, "regressions": regressions}, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/hecbench_accuracy.py")


if __name__ == "__main__":
    sys.exit(main())
