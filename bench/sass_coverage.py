"""How much of HeCBench the SASS lifter covers.

For each dev-set program (src/<name>-cuda in a HeCBench checkout), every .cu file is built
with `nvcc -cubin -arch=sm_XX`; each kernel in the cubin is lifted to LLVM IR and compiled
for gfx1100 (opt/llc-16), and the .s must assemble with llvm-mc-16. Prints the share of
kernels lifted and assembled, and the unsupported-opcode histogram (kernels blocked by
each opcode) to steer the next work.

    git -C /work/.mirror/zjin-lcf+HeCBench/repo archive HEAD src | tar -x -C /tmp/hecfull
    python3 bench/sass_coverage.py --hecbench /tmp/hecfull --sm 80 [--jobs 4] [--limit 20]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cass_cc.sass import codegen  # noqa: E402
from cass_cc.sass.cubin import CubinError, read  # noqa: E402
from cass_cc.toolchain import Toolchain  # noqa: E402


def build_cubin(nvcc: str, cu: Path, sm: int, out: Path) -> str:
    """'' when built, else the first error line."""
    argv = [nvcc, "-cubin", f"-arch=sm_{sm}", "-O3", "-std=c++17", "--expt-relaxed-constexpr", "-w",
            f"-I{cu.parent}", f"-I{cu.parent.parent / 'include'}", "-o", str(out), str(cu)]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "nvcc timed out"
    if proc.returncode != 0:
        lines = [line for line in proc.stderr.splitlines() if "error" in line] or proc.stderr.splitlines() or ["?"]
        return lines[0][:200]
    return ""


def one_file(cu: Path, sm: int, tools: dict[str, str]) -> dict:
    rec: dict = {"file": str(cu), "kernels": 0, "lifted": 0, "assembled": 0, "blocked": {}, "error": ""}
    with tempfile.TemporaryDirectory(prefix="cass-cov-") as tmp:
        cub = Path(tmp, "k.cubin")
        err = build_cubin(tools["nvcc"], cu, sm, cub)
        if err:
            rec["error"] = f"nvcc: {err}"
            return rec
        try:
            (cb,) = read(cub)
        except CubinError as e:
            rec["error"] = str(e)
            return rec
        try:
            report = codegen.lift_cubin(cb, tools["nvdisasm"])
        except Exception as e:  # nvdisasm failures
            rec["error"] = f"disassembly: {e}"
            return rec
        rec["kernels"] = len(cb.kernels)
        rec["lifted"] = len(report.lifted)
        rec["blocked"] = {name: e.unsupported for name, e in report.failed.items()}
        good = []
        for lk in report.lifted:  # per kernel: one failing kernel must not hide the others
            single = codegen.LiftReport(cb, [lk])
            try:
                asm = codegen.gfx1100_asm(codegen.ir_module(single), tools["opt"], tools["llc"])
                s = Path(tmp, "k.s")
                s.write_text(asm)
                codegen.assemble(s, Path(tmp, "k.o"), tools["mc"])
                good.append(lk.name)
            except codegen.CodegenError as e:
                rec["blocked"][lk.name] = [f"(gfx1100 build: {str(e)[:120]})"]
        rec["assembled"] = len(good)
    return rec


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hecbench", default="/tmp/hecfull")
    ap.add_argument("--names", default="/work/shared/eval/hecbench_dev.txt")
    ap.add_argument("--sm", type=int, default=80)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--limit", type=int, default=0, help="only the first N programs")
    ap.add_argument("--json", help="write per-file records here")
    args = ap.parse_args()
    tc = Toolchain(os.environ)
    tools = {"nvcc": tc.nvcc.path, "nvdisasm": tc.nvdisasm.path, "opt": tc.tool("opt").path, "llc": tc.tool("llc").path, "mc": tc.llvm_mc.path}
    names = [n.strip() for n in Path(args.names).read_text().splitlines() if n.strip()]
    if args.limit:
        names = names[: args.limit]
    files = [cu for n in names for cu in sorted((Path(args.hecbench) / "src" / f"{n}-cuda").glob("*.cu"))]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        records = list(pool.map(lambda cu: one_file(cu, args.sm, tools), files))
    kernels = sum(r["kernels"] for r in records)
    lifted = sum(r["lifted"] for r in records)
    assembled = sum(r["assembled"] for r in records)
    built = sum(1 for r in records if not r["error"])
    hist: collections.Counter[str] = collections.Counter()
    for r in records:
        for ops in r["blocked"].values():
            for op in ops:
                hist[op.split(" (")[0] if not op.startswith("(") else "(gfx1100 build)"] += 1
    programs = {Path(r["file"]).parent.name for r in records if r["kernels"]}
    full = {p for p in programs if all(r["lifted"] == r["kernels"] == r["assembled"] for r in records if Path(r["file"]).parent.name == p)}
    print(f"sm_{args.sm}: {len(names)} programs, {len(files)} .cu files, {built} built by nvcc")
    share = (lambda a, b: f"{100.0 * a / b:.1f}%" if b else "n/a")
    print(f"kernels: {kernels}; lifted {lifted} ({share(lifted, kernels)}); lifted and assembled for gfx1100 {assembled} ({share(assembled, kernels)})")
    print(f"programs with every kernel lifted and assembled: {len(full)} of {len(programs)}")
    print("unsupported (kernels blocked by each):")
    for op, n in hist.most_common(40):
        print(f"  {n:5d}  {op}")
    if args.json:
        Path(args.json).write_text(json.dumps(records, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
