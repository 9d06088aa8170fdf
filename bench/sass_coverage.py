"""How much of HeCBench the SASS lifter covers, and (with --prove) how much of it is verified.

For each dev-set program (src/<name>-cuda in a HeCBench checkout), every .cu file is built
with `nvcc -cubin -arch=sm_XX`; each kernel in the cubin is lifted to LLVM IR and compiled
for gfx1100 (opt/llc-16), and the .s must assemble with llvm-mc-16. Prints the share of
kernels lifted and assembled, and the unsupported-opcode histogram (kernels blocked by
each opcode) to steer the next work.

With --prove, each .cu file with a lifted kernel is also translated and compiled for gfx1100
by cass-cc itself (`bin/cass-cc -cubin`: the rules translator, the user's headers translated,
clang device-only into one code object), every lifted kernel's .s becomes a code object
(cass_data.prove's llvm-mc + ld.lld step), and cass_data.prove.prove_pair runs both on the
gfx1100 emulator with the same planned inputs (the program's own block size first, found by
cass_cc.sass.inputs.source_block). Outcomes per kernel: proven, differs, or not proven with
the reason (a histogram in the summary). Every step's failure is a counted reason.

    git -C /work/.mirror/zjin-lcf+HeCBench/repo archive HEAD src | tar -x -C /tmp/hecfull
    python3 bench/sass_coverage.py --hecbench /tmp/hecfull --sm 80 [--jobs 4] [--limit 20]
    python3 bench/sass_coverage.py --hecbench /tmp/hecfull --sm 90 --prove --jobs 2 \
        --json bench/results/sass_coverage_sm90.jsonl --summary bench/results/sass_coverage_sm90.txt

--json writes one JSON line per kernel (and one per .cu file that gave no kernels), written
as the run goes to F.partial and moved to F at the end.
"""
from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import types
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Iterator

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT, as_written  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402
from cass_cc.emu.differential import kernel_in  # noqa: E402
from cass_cc.sass import codegen  # noqa: E402
from cass_cc.sass.cubin import CubinError, read  # noqa: E402
from cass_cc.toolchain import Toolchain  # noqa: E402
from cass_cc.util import atomic_write_text  # noqa: E402

SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".hh", ".inc", ".inl", ".cpp", ".c")
# cass-cc with the rules translator only and the default target, whatever the user's config says
DRIVER_ENV = {"CASS_TRANSLATOR": "rules", "CASS_MODEL": "", "CASS_MODEL_ENDPOINT": "", "CASS_ARCH_MAP": "",
              "CASS_OFFLOAD_ARCH": "gfx1100", "CASS_CONFIG": os.devnull}
BUILD_SECONDS = 300  # one kernel's opt + llc + llvm-mc


def _first_error(text: str) -> str:
    lines = [ln for ln in text.splitlines() if "error" in ln] or [ln for ln in text.splitlines() if ln.strip()] or ["?"]
    return lines[0].strip()[:200]


def makefile_defines(folder: Path) -> list[str]:
    """The -D flags the program's Makefile always passes (outside ifeq/ifdef blocks), e.g. adv's
    -Ddfloat=double."""
    mk = folder / "Makefile"
    if not mk.is_file():
        return []
    out, depth = [], 0
    for line in mk.read_text(errors="replace").splitlines():
        word = line.split()[0] if line.split() else ""
        if word in ("ifeq", "ifneq", "ifdef", "ifndef"):
            depth += 1
        elif word == "endif":
            depth = max(0, depth - 1)
        elif depth == 0:
            out += re.findall(r"(?<!\S)-D[A-Za-z_]\w*(?:=[^\s\\]+)?", line)
    return out


def include_flags(cu: Path) -> list[str]:
    flags = [*makefile_defines(cu.parent), f"-I{cu.parent}"]
    shared = cu.parent.parent / "include"
    if shared.is_dir():
        flags.append(f"-I{shared}")
    return flags


def build_cubin(nvcc: str, cu: Path, sm: int, out: Path) -> str:
    """'' when built, else the first error line."""
    argv = [nvcc, "-cubin", f"-arch=sm_{sm}", "-O3", "-std=c++17", "--expt-relaxed-constexpr", "-w",
            *include_flags(cu), "-o", str(out), str(cu)]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "nvcc timed out"
    if proc.returncode != 0:
        return _first_error(proc.stderr)
    return ""


def build_hip_code_object(cu: Path, sm: int, out: Path) -> str:
    """cass-cc's own path: translate (rules) and compile device-only for gfx1100 into one code
    object. '' when built, else the first error line."""
    argv = [sys.executable, str(ROOT / "bin" / "cass-cc"), f"-arch=sm_{sm}", "-cubin", "-O3", "-std=c++17",
            "--expt-relaxed-constexpr", "-w", *include_flags(cu), str(cu), "-o", str(out)]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, env={**os.environ, **DRIVER_ENV})
    except subprocess.TimeoutExpired:
        return "cass-cc timed out"
    if proc.returncode != 0 or not out.is_file():
        return _first_error(proc.stderr)
    return ""


def program_sources(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(errors="replace") for p in sorted(folder.iterdir())
            if p.is_file() and p.suffix in SOURCE_SUFFIXES}


class WallClock(BaseException):
    """Not an Exception: the emulator turns an Exception raised inside an instruction into an
    EmuError, and prove_pair then goes on to the next launch shape with no limit left."""


def _alarm(signum: int, frame: Any) -> None:
    raise WallClock()


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """WallClock after `seconds` (a worker's main thread; subprocess.run kills its child on it)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def prove_kernel(clang_co: Any, lifted_asm: str, kernel: Any, block: Any, folder: Path, tools: dict[str, str],
                 timeout: int) -> dict[str, Any]:
    """{"outcome", "reason", "detail"} for one lifted kernel (never raises)."""
    from cass_data.prove import BuildError, _code_object, prove_pair

    from cass_cc.util import first_line

    from cass_cc.toolchain.found import Found

    ctx = types.SimpleNamespace(found=Found(llvm_mc=tools["mc"], ld_lld=tools["lld"]))
    try:
        lifted_co = _code_object(lifted_asm, folder, "lifted", ctx, True)  # type: ignore[arg-type]
    except (BuildError, subprocess.TimeoutExpired) as e:
        return {"outcome": "compiled", "reason": "lifted code object not built", "detail": first_line(e)}
    except Exception as e:  # noqa: BLE001 - a code object the loader refuses is this kernel's outcome
        return {"outcome": "compiled", "reason": f"lifted code object not loaded ({type(e).__name__})",
                "detail": first_line(e)}
    try:
        with time_limit(timeout):
            return prove_pair(clang_co, lifted_co, kernel, block)
    except WallClock:
        return {"outcome": "compiled", "reason": f"wall-clock limit ({timeout} s)", "detail": ""}
    except Exception as e:  # noqa: BLE001 - an emulator crash is counted, not fatal
        return {"outcome": "compiled", "reason": f"emulator error ({type(e).__name__})", "detail": first_line(e)}


def one_file(cu: Path, sm: int, tools: dict[str, str], prove: bool, timeout: int) -> tuple[dict, list[dict]]:
    """(the file's record, one record per kernel)."""
    rec: dict = {"file": str(cu), "kernels": 0, "lifted": 0, "assembled": 0, "blocked": {}, "error": ""}
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="cass-cov-") as tmp:
        cub = Path(tmp, "k.cubin")
        err = build_cubin(tools["nvcc"], cu, sm, cub)
        if err:
            rec["error"] = f"nvcc: {err}"
            return rec, rows
        try:
            (cb,) = read(cub)
        except (CubinError, ValueError) as e:
            rec["error"] = str(e)
            return rec, rows
        try:
            report = codegen.lift_cubin(cb, tools["nvdisasm"])
        except Exception as e:  # nvdisasm failures
            rec["error"] = f"disassembly: {e}"
            return rec, rows
        rec["kernels"] = len(cb.kernels)
        rec["lifted"] = len(report.lifted)
        rec["blocked"] = {name: e.unsupported for name, e in report.failed.items()}
        asms: dict[str, str] = {}
        for lk in report.lifted:  # per kernel: one failing kernel must not hide the others
            single = codegen.LiftReport(cb, [lk])
            try:
                with time_limit(BUILD_SECONDS):  # llc-16 has been seen to run for many minutes
                    asm = codegen.gfx1100_asm(codegen.ir_module(single), tools["opt"], tools["llc"])
                    s = Path(tmp, "k.s")
                    s.write_text(asm)
                    codegen.assemble(s, Path(tmp, "k.o"), tools["mc"])
                asms[lk.name] = asm
            except codegen.CodegenError as e:
                rec["blocked"][lk.name] = [f"(gfx1100 build: {str(e)[:120]})"]
            except WallClock:
                rec["blocked"][lk.name] = [f"(gfx1100 build: opt/llc/llvm-mc over {BUILD_SECONDS} s)"]
        rec["assembled"] = len(asms)
        base = {"program": cu.parent.name.removesuffix("-cuda"), "file": cu.name}
        for k in cb.kernels:
            row = {**base, "kernel": k.name, "demangled": k.demangled, "lifted": k.name not in report.failed,
                   "assembled": k.name in asms}
            if not row["assembled"]:
                row["outcome"] = "not lifted" if not row["lifted"] else "not assembled"
                row["blocked"] = list(rec["blocked"].get(k.name, []))
            rows.append(row)
        if not prove or not asms:
            return rec, rows
        from cass_cc.emu import load
        from cass_cc.sass.inputs import source_block

        todo = [r for r in rows if r["assembled"]]
        co = Path(tmp, "clang.co")
        err = build_hip_code_object(cu, sm, co)
        clang_co = None
        if err:
            why = {"outcome": "compiled", "reason": "cass-cc -cubin (translate + clang) failed", "detail": err}
        else:
            try:
                clang_co = load(co)
            except Exception as e:  # noqa: BLE001
                why = {"outcome": "compiled", "reason": f"clang code object not loaded ({type(e).__name__})",
                       "detail": str(e)[:200]}
        sources = program_sources(cu.parent)
        kernels = {k.name: k for k in cb.kernels}
        for row in todo:
            t0 = time.monotonic()
            if clang_co is None:
                row.update(why)
            elif not kernel_in(clang_co, kernels[row["kernel"]]):
                row.update({"outcome": "compiled", "reason": "no such kernel in clang's code object", "detail": ""})
            else:
                k = kernels[row["kernel"]]
                other = kernel_in(clang_co, k)  # prove_pair runs clang's kernel of the same CUDA signature
                if other != k.name:
                    row["clang_kernel"] = other
                block = source_block(sources, k.demangled)
                row["block"] = list(block) if block else None
                sub = Path(tmp, "prove")
                sub.mkdir(exist_ok=True)
                row.update(prove_kernel(clang_co, asms[row["kernel"]], k, block, sub, tools, timeout))
            row["seconds"] = round(time.monotonic() - t0, 1)
    return rec, rows


def _share(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def _detail_key(detail: str) -> str:
    return re.sub(r"^\S+:\d+:\d+: ", "", detail or "")[:100]


def summary(sm: int, rows: list[dict], prove: bool) -> str:
    """The report, from the JSON lines alone (kernel rows, and file rows with kernel '')."""
    files = {(r["program"], r["file"]) for r in rows}
    failed_files = [r for r in rows if not r["kernel"]]
    ks = [r for r in rows if r["kernel"]]
    kernels, lifted, assembled = len(ks), sum(r["lifted"] for r in ks), sum(r["assembled"] for r in ks)
    by_prog: dict[str, list[dict]] = collections.defaultdict(list)
    for r in ks:
        by_prog[r["program"]].append(r)
    no_build = sum(r["error"] != "no kernels" for r in failed_files)
    out = [f"sm_{sm}: {len({r['program'] for r in rows})} programs, {len(files)} .cu files, "
           f"{len(files) - no_build} built by nvcc, {len(files) - len(failed_files)} with kernels",
           f"kernels: {kernels}; lifted {lifted} ({_share(lifted, kernels)}); "
           f"lifted and assembled for gfx1100 {assembled} ({_share(assembled, kernels)})",
           f"programs with every kernel lifted and assembled: "
           f"{sum(all(r['assembled'] for r in rs) for rs in by_prog.values())} of {len(by_prog)}"]
    if prove:
        outcomes = collections.Counter(r.get("outcome") for r in ks if r["assembled"])
        proven, differs = outcomes["proven"], outcomes["differs"]
        out.append(f"proven on the emulator (same buffers as clang's kernel of cass-cc's translation): {proven} "
                   f"({_share(proven, kernels)} of kernels, {_share(proven, assembled)} of those assembled)")
        out.append(f"differs: {differs}")
        for r in ks:
            if r.get("outcome") == "differs":
                out.append(f"  {r['program']}/{r['file']}: {r['demangled'][:90]}  -- {r.get('detail', '')[:160]}")
        reasons = collections.Counter(r["reason"] for r in ks if r.get("outcome") == "compiled")
        out.append(f"lifted and assembled, not proven: {sum(reasons.values())}")
        for why, n in reasons.most_common():
            out.append(f"  {n:5d}  {why}")
            if why.startswith("cass-cc") or "(Uncovered)" in why:  # which error, which instruction
                errs = collections.Counter(_detail_key(r.get("detail", "")) for r in ks if r.get("reason") == why)
                out += [f"          {m:4d}  {e}" for e, m in errs.most_common(12)]
        every = sorted(p for p, rs in by_prog.items() if all(r.get("outcome") == "proven" for r in rs))
        out.append(f"programs with every kernel proven: {len(every)} of {len(by_prog)}")
    hist: collections.Counter[str] = collections.Counter()
    for r in ks:
        for op in r.get("blocked", []):
            hist[op.split(" (")[0] if not op.startswith("(") else "(gfx1100 build)"] += 1
    out.append("unsupported (kernels blocked by each):")
    out += [f"  {n:5d}  {op}" for op, n in hist.most_common(40)]
    errors = collections.Counter(r["error"].split(":")[0] for r in failed_files)
    if errors:
        out.append("files that gave no kernels: " + ", ".join(f"{why} {n}" for why, n in errors.most_common()))
        out += [f"  {r['program']}/{r['file']}: {r['error'][:150]}" for r in failed_files]
    return "\n".join(out) + "\n"


@click.command(help=as_written(__doc__), context_settings=CONTEXT)
@click.option("--hecbench", default="/tmp/hecfull")
@click.option("--names", default="/work/shared/eval/hecbench_dev.txt")
@click.option("--sm", type=int, default=80)
@click.option("--jobs", type=int, default=os.cpu_count() or 2)
@click.option("--limit", type=int, default=0, help="only the first N programs")
@click.option("--only", default="", help="comma list of program names (instead of the list's)")
@click.option("--prove", is_flag=True, help="run each lifted kernel beside clang's on the emulator")
@click.option("--kernel-timeout", type=int, default=300, help="wall-clock seconds per proved kernel")
@click.option("--json", help="write one JSON line per kernel here")
@click.option("--summary", help="write the summary here too")
@click.option("--resume", help="JSON lines of an earlier run (.partial too): keep its files' rows, run the rest")
@click.option("--from-json", help="only print the summary of these JSON lines (a finished or .partial run)")
def command(**kwargs: Any) -> int:
    args = types.SimpleNamespace(**kwargs)
    if args.from_json:
        rows = [json.loads(line) for line in Path(args.from_json).read_text().splitlines() if line.strip()]
        text = summary(args.sm, rows, any("outcome" in r and r.get("assembled") for r in rows))
        sys.stdout.write(text)
        if args.summary:
            atomic_write_text(args.summary, text)
        return 0
    tc = Toolchain(os.environ)
    tools = {"nvcc": str(tc.nvcc.path), "nvdisasm": str(tc.nvdisasm.path), "opt": str(tc.tool("opt").path),
             "llc": str(tc.tool("llc").path), "mc": str(tc.llvm_mc.path), "lld": str(tc.ld_lld.path)}
    names = [n.strip() for n in Path(args.names).read_text().splitlines() if n.strip()]
    if args.only:
        names = [n for n in args.only.split(",") if n]
    if args.limit:
        names = names[: args.limit]
    files = [cu for n in names for cu in sorted((Path(args.hecbench) / "src" / f"{n}-cuda").glob("*.cu"))]
    rows: list[dict] = []
    if args.resume:  # the rows of files an earlier (interrupted) run finished
        rows = [json.loads(line) for line in Path(args.resume).read_text().splitlines() if line.strip()]
        done = {(r["program"], r["file"]) for r in rows}
        files = [cu for cu in files if (cu.parent.name.removesuffix("-cuda"), cu.name) not in done]
    partial = Path(args.json + ".partial") if args.json else None
    log = partial.open("w") if partial else None
    if log:
        log.write("".join(json.dumps(r) + "\n" for r in rows))
        log.flush()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(one_file, cu, args.sm, tools, args.prove, args.kernel_timeout): cu for cu in files}
        for i, fut in enumerate(as_completed(futures), 1):
            cu = futures[fut]
            try:
                rec, krows = fut.result()
            except Exception as e:  # noqa: BLE001 - a worker that died is this file's outcome
                rec, krows = {"kernels": 0, "error": f"worker: {type(e).__name__}: {str(e)[:160]}"}, []
            if not krows:
                krows = [{"program": cu.parent.name.removesuffix("-cuda"), "file": cu.name, "kernel": "",
                          "error": rec["error"] or "no kernels"}]
            rows += krows
            if log:
                log.write("".join(json.dumps(r) + "\n" for r in krows))
                log.flush()
            got = collections.Counter(r.get("outcome", "?") for r in krows if r["kernel"])
            print(f"[{i}/{len(files)}] {cu.parent.name}/{cu.name}: {rec['kernels']} kernels, "
                  + ", ".join(f"{k} {n}" for k, n in sorted(got.items())) + (f" ({rec['error'][:80]})" if rec["error"] else ""),
                  file=sys.stderr, flush=True)
    rows.sort(key=lambda r: (r["program"], r["file"], r["kernel"]))
    text = summary(args.sm, rows, args.prove)
    sys.stdout.write(text)
    if args.json and log and partial:
        log.close()
        atomic_write_text(args.json, "".join(json.dumps(r) + "\n" for r in rows))
        partial.unlink()
    if args.summary:
        atomic_write_text(args.summary, text)
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/sass_coverage.py")


if __name__ == "__main__":
    sys.exit(main())
