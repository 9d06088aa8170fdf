"""Each batch with a truth, through cass-cc's paths, on this machine:

    lifter   the truth's own cubin through the SASS lifter (what `--emit-rdna3` does) to a gfx1100
             code object, run on the emulator
    rules    fz.cu through `cass-cc -cubin` (the rules translation, clang for gfx1100), on the emulator
    simt     the lifted LLVM IR compiled for this CPU and run on the SIMT runtime (simt.c)

Per kernel and path, one outcome:
    same      every output word agrees with the truth (compare.py)
    differs   a silent wrong answer: the defect this hunts
    fault     the kernel faulted or ran out of budget where the truth ran (wrong, but not silent)
    refused   the path said why it cannot translate the kernel (counted apart)
    gap       the emulator or harness lacks an instruction (a tool gap, counted apart)
    skipped   no truth (nvcc or the GPU refused the kernel)
    nvcc      differs from the GPU's answer, but agrees with the same batch built with nvcc's optimisers off
              (truth.py --second-opinion): nvcc's optimiser is wrong, not the path (counted apart)
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from . import batch as batchmod
from .ast import Kernel
from .compare import differences

PATHS = ("lifter", "rules", "simt")
ROOT = Path(__file__).resolve().parents[2]
BUDGET = 20_000_000  # wave-instructions: a generated kernel needs well under a million
SIMT_C = ROOT / "tests" / "sass" / "simt.c"


def _first_line(text: str) -> str:
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    return (lines[0] if lines else "")[:300]


def _emulate(co: Any, k: Kernel, inp: bytes) -> tuple[str, bytes | str]:
    import numpy as np

    from cass_cc.emu import EmuError, launch
    from cass_cc.emu.executor import BudgetExceeded

    try:
        out = launch(co, k.name, k.grid, k.block, [np.frombuffer(inp, np.uint32).copy(),
                                                   np.zeros(k.out_words, np.uint32)], budget=BUDGET)[1]
    except BudgetExceeded as e:
        return "fault", f"budget: {_first_line(e)}"
    except EmuError as e:
        text = _first_line(e)
        if type(e).__name__ == "Uncovered" or "Uncovered" in text:
            return "gap", text
        return "fault", f"{type(e).__name__}: {text}"
    return "ran", out.tobytes()


# ---- the paths: build a code object (or library) for a batch, run one kernel --------------------


def bisect_build(items: list[Any], build: Callable[[list[Any], str], str], tag: str = "") -> dict[int, str]:
    """Build `items` together; where that fails, halves of them, down to single items, so one bad
    kernel costs about two builds of the batch instead of one per kernel. build(subset, tag) returns
    '' or the error. Returns {position: error} for the items that fail alone."""
    err = build(items, tag or "all")
    if not err:
        return {}
    if len(items) == 1:
        return {0: err}
    mid = len(items) // 2
    out = bisect_build(items[:mid], build, f"{tag}a")
    out.update({mid + i: e for i, e in bisect_build(items[mid:], build, f"{tag}b").items()})
    return out


class Lifter:
    name = "lifter"

    def __init__(self, folder: Path, ks: list[Kernel], tmp: Path) -> None:
        from dataclasses import replace

        from cass_cc.sass import codegen
        from cass_cc.sass.cubin import read
        from cass_cc.toolchain import Toolchain

        tc = Toolchain(os.environ)
        self.refused: dict[str, str] = {}
        self.error = ""
        self.cos: dict[str, Any] = {}
        try:
            cb = read(folder / "fz.cubin")[0]
            report = codegen.lift_cubin(cb, tc.nvdisasm.path)
        except Exception as e:  # noqa: BLE001 - the whole batch's outcome on this path, named
            self.error = f"{type(e).__name__}: {_first_line(e)}"
            return
        for name, e in report.failed.items():
            self.refused[name] = "unsupported SASS: " + ", ".join(e.unsupported)
        if not report.lifted:
            return
        built: dict[str, Any] = {}

        def build(lifted: list[Any], tag: str) -> str:
            err = self._build(replace(report, lifted=lifted), tmp / f"lifted-{tag}", tc)
            if not err:
                built.update({lk.name: self.co for lk in lifted})
            return err

        # one kernel's IR can spoil the module (llc): bisect to find it
        for i, err in bisect_build(list(report.lifted), build).items():
            self.refused[report.lifted[i].name] = err
        self.cos = built

    def _build(self, report: Any, stem: Path, tc: Any) -> str:
        from cass_cc.emu import load
        from cass_cc.sass import codegen

        try:
            asm = codegen.gfx1100_asm(codegen.ir_module(report), tc.tool("opt").path, tc.tool("llc").path)
            s, o, co = stem.with_suffix(".s"), stem.with_suffix(".o"), stem.with_suffix(".co")
            s.write_text(asm)
            codegen.assemble(s, o, tc.llvm_mc.path)
            codegen.link(o, co, tc.ld_lld.path)
            self.co = load(co)
        except Exception as e:  # noqa: BLE001 - named as this kernel's (or batch's) refusal
            return f"{type(e).__name__}: {_first_line(e)}"
        return ""

    def run(self, k: Kernel, inp: bytes) -> tuple[str, bytes | str]:
        if k.name in self.refused:
            return "refused", self.refused[k.name]
        if k.name not in self.cos:
            return "refused", self.error or "no code object"
        return _emulate(self.cos[k.name], k, inp)


class Rules:
    name = "rules"

    def __init__(self, folder: Path, ks: list[Kernel], tmp: Path) -> None:
        from cass_cc.emu import load

        self.cos: dict[str, Any] = {}
        self.refused: dict[str, str] = {}
        from .gen import batch_source

        def build(subset: list[Kernel], tag: str) -> str:
            src = folder / "fz.cu" if tag == "all" else tmp / f"rules-{tag}.cu"
            if tag != "all":
                src.write_text(batch_source(subset))
            err = self._build(src, tmp / f"rules-{tag}.co")
            if not err:
                co = load(tmp / f"rules-{tag}.co")
                self.cos.update({k.name: co for k in subset})
            return err

        # one kernel the translation refuses spoils the file: bisect to find it
        for i, err in bisect_build(list(ks), build).items():
            self.refused[ks[i].name] = err

    @staticmethod
    def _build(src: Path, out: Path) -> str:
        proc = subprocess.run([sys.executable, str(ROOT / "bin" / "cass-cc"), "-cubin", "-arch=sm_90", "-O3",
                               "-fmad=false", "-w", str(src), "-o", str(out)], capture_output=True, text=True,
                              timeout=600)
        if proc.returncode == 0:
            return ""
        lines = [ln for ln in proc.stderr.splitlines() if "error" in ln or "not supported" in ln]
        return _first_line(lines[0] if lines else proc.stderr) or f"exit {proc.returncode}"

    def run(self, k: Kernel, inp: bytes) -> tuple[str, bytes | str]:
        if k.name in self.refused:
            return "refused", self.refused[k.name]
        return _emulate(self.cos[k.name], k, inp)


class Simt:
    """The lifted IR for x86-64, linked with simt.c, run in a child process (a lifted kernel that
    misbehaves on the CPU must not take the checker with it)."""
    name = "simt"

    def __init__(self, folder: Path, ks: list[Kernel], tmp: Path) -> None:
        from cass_cc.sass import codegen
        from cass_cc.sass.cubin import read
        from cass_cc.sass.targets import CPU, module
        from cass_cc.toolchain import Toolchain

        tc = Toolchain(os.environ)
        self.refused: dict[str, str] = {}
        self.error = ""
        self.lib = ""
        self.shared: dict[str, int] = {}
        try:
            cb = read(folder / "fz.cubin")[0]
            report = codegen.lift_cubin(cb, tc.nvdisasm.path, CPU)
            for name, e in report.failed.items():
                self.refused[name] = "unsupported SASS: " + ", ".join(e.unsupported)
            self.shared = {lk.name: lk.shared_size for lk in report.lifted}
            ll, bc, obj, lib = tmp / "cpu.ll", tmp / "cpu.bc", tmp / "cpu.o", tmp / "cpu.so"
            ll.write_text(module(CPU, report.lifted, report.kernels))
            opt, llc = tc.tool("opt").path, tc.tool("llc").path
            for argv in ([opt, "-O2", str(ll), "-o", str(bc)],
                         [llc, "-O2", "-filetype=obj", "-relocation-model=pic", str(bc), "-o", str(obj)],
                         [tc.host_cc().path, "-O2", "-shared", "-fPIC", "-o", str(lib), str(obj), str(SIMT_C), "-lm"]):
                proc = subprocess.run(argv, capture_output=True, text=True, timeout=600)
                if proc.returncode:
                    raise RuntimeError(_first_line(proc.stderr))
            self.lib = str(lib)
        except Exception as e:  # noqa: BLE001
            self.error = f"{type(e).__name__}: {_first_line(e)}"

    def run(self, k: Kernel, inp: bytes) -> tuple[str, bytes | str]:
        if k.name in self.refused:
            return "refused", self.refused[k.name]
        if not self.lib:
            return "refused", self.error or "no library"
        job = json.dumps({"lib": self.lib, "kernel": k.name, "grid": k.grid, "block": k.block,
                          "out_words": k.out_words, "shared": self.shared.get(k.name, 0)})
        try:
            proc = subprocess.run([sys.executable, "-m", "cass_data.fuzz.simt_child", job], input=inp,
                                  capture_output=True, timeout=120, cwd=ROOT)
        except subprocess.TimeoutExpired:
            return "fault", "simt: timed out"
        if proc.returncode != 0:
            err = _first_line(proc.stderr.decode(errors="replace")) or str(proc.returncode)
            # simt.c runs a warp's collectives only when every live lane of it reaches the same one
            return ("gap" if "mixes warp operations" in err else "fault"), f"simt: {err}"
        return "ran", proc.stdout


BUILDERS = {"lifter": Lifter, "rules": Rules, "simt": Simt}


def judge(k: Kernel, got: bytes, want: bytes, second: tuple[str, bytes] | None = None) -> dict[str, str]:
    """The outcome of a run against the truth, and against the second opinion where it differs."""
    n, notes = differences(k, got, want)
    if n == 0:
        return {"outcome": "same"}
    if second is not None and second[0] == "ok" and differences(k, got, second[1])[0] == 0:
        return {"outcome": "nvcc", "detail": f"agrees with nvcc -Xcicc -O0 -Xptxas -O0 on the GPU; nvcc -O3's answer differs in {n} values: "
                + "; ".join(notes)}
    return {"outcome": "differs", "detail": f"{n} values: " + "; ".join(notes)}


def check_batch(folder: Path, paths: tuple[str, ...] = PATHS) -> list[dict[str, Any]]:
    meta = json.loads((folder / "meta.json").read_text())
    ks = batchmod.kernels(meta["seed"], meta["batch"], meta["size"])
    from .gen import batch_source
    import hashlib

    if hashlib.sha256(batch_source(ks).encode()).hexdigest() != meta["sha256"]:
        raise SystemExit(f"{folder}: the truth was made by another version of the generator")
    inp = (folder / "in.bin").read_bytes()
    records: list[dict[str, Any]] = []
    if (folder / "nvcc-error.txt").exists():
        truth = [("nvcc: " + (folder / "nvcc-error.txt").read_text().strip(), b"")] * len(ks)
    else:
        truth = batchmod.read_truth(folder, ks)
    second = batchmod.read_truth(folder, ks, batchmod.SECOND) if (folder / batchmod.SECOND[0]).exists() else None
    with tempfile.TemporaryDirectory(prefix="cass-fuzz-") as tmp:
        built = {p: BUILDERS[p](folder, ks, Path(tmp)) for p in paths}
        for j, (k, (status, want)) in enumerate(zip(ks, truth)):
            index = meta["batch"] * meta["size"] + j
            base = {"seed": meta["seed"], "index": index, "kernel": k.name}
            if status != "ok":
                records.append({**base, "path": "truth", "outcome": "skipped", "detail": status})
                continue
            for p in paths:
                how, got = built[p].run(k, inp[4096 * j:4096 * (j + 1)])
                if how == "ran":
                    rec = judge(k, got, want, second[j] if second is not None else None)  # type: ignore[arg-type]
                else:
                    rec = {"outcome": how, "detail": got}
                records.append({**base, "path": p, **rec})
    return records
