"""How many of the SASS lifter's kernels run on the gfx1100 emulator and match their CUDA reference.

The lifter's test set (tests/sass/kernels.py CASES) is built by tests/sass/harness.py's build_all():
nvcc -cubin per SM -> cass_cc.sass lifts -> gfx1100 assembly. Here each SM's assembly is assembled
(llvm-mc-16) and linked (ld.lld-16) into a code object, every kernel runs on the emulator with the
harness's inputs (same generator, same seed), and its buffers are compared with the harness's C
reference using the harness's own comparison.

Kernel arguments are packed by the harness itself (tests/sass/harness.kernargs, the lifter's
parameter offsets) with the emulator's device addresses, and passed as launch(kernarg=...).

    python3 bench/emu_lifter.py [--json out.json] [--sm 80] [--case NAME ...]   (EMU_SHOW=N: N differing values)
"""
from __future__ import annotations

import ctypes
import json
import os
import random
import struct
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

NP = {"i8": np.int8, "u8": np.uint8, "i16": np.int16, "i32": np.int32, "u32": np.uint32, "i64": np.int64, "f32": np.float32, "f64": np.float64}


def code_object(smb, tmp: Path) -> Path:
    from cass_cc.sass import codegen
    from cass_cc.toolchain import Toolchain
    import os

    tc = Toolchain(os.environ)
    s = tmp / f"sm_{smb.sm}.s"
    s.write_text(smb.asm)
    codegen.assemble(s, s.with_suffix(".o"), str(tc.llvm_mc.path))
    codegen.link(s.with_suffix(".o"), s.with_suffix(".co"), str(tc.ld_lld.path))
    return s.with_suffix(".co")


def run_one(b, smb, co, case) -> tuple[str, str]:
    """('ok' | 'mismatch' | 'error', detail) for one case on the emulator."""
    from cass_cc.emu import EmuError, launch
    from cass_cc.emu.memory import Memory
    from tests.sass import harness
    from tests.sass.kernels import Buf, Raw

    k = smb.kernel(case.name)
    rng = random.Random(case.name)
    mem = Memory()
    rbufs, kbufs, device = [], [], {}
    for a in case.args:
        if isinstance(a, Buf):
            vals = harness._values(a, rng) if a.kind != "out" else [0] * a.n
            ct = harness.CTYPES[a.ty] * a.n
            rbufs.append(ct(*vals))
            kbufs.append(ct(*vals))
            device[id(kbufs[-1])] = mem.alloc(ctypes.sizeof(ct), f"arg {len(kbufs) - 1}", bytes(kbufs[-1]))
        else:
            rbufs.append(None)
            kbufs.append(None)
    layout = [(p.offset, p.size) for p in k.params]
    packed = bytearray(harness.kernargs(case, kbufs, layout, address=lambda buf: device[id(buf)]))
    for a, (off, _) in zip(case.args, layout):
        if isinstance(a, Raw) and a.fill == "dims":  # its first field points at DIMS_DATA: give the kernel a device copy
            dev = mem.alloc(ctypes.sizeof(harness.DIMS_DATA), "dims", bytes(harness.DIMS_DATA))
            struct.pack_into("<Q", packed, off, dev)
    rparams = harness._pack(case, rbufs, layout)
    try:
        launch(co, k.name, case.grid, case.block, [], shared=case.dyn, memory=mem, budget=500_000_000, kernarg=bytes(packed))
    except EmuError as e:
        return "error", str(e).splitlines()[0][:300]
    except Exception as e:  # noqa: BLE001 - a bench reports, it does not stop
        return "error", f"{type(e).__name__}: {e}"[:300]
    ref = b.refs[f"ref_{case.name}"]
    ref(*[ctypes.c_uint(x) for x in (*case.grid, *case.block, case.dyn)], rparams)
    bad = []
    for idx, a in enumerate(case.args):
        if not isinstance(a, Buf) or a.kind == "in":
            continue
        got = np.frombuffer(mem.read(device[id(kbufs[idx])], ctypes.sizeof(kbufs[idx])), NP[a.ty])
        for i in range(a.n):
            g, w = got[i].item(), rbufs[idx][i]
            if not harness._same(g, w, a.ty, case.rtol):
                bad.append(f"arg {idx}[{i}]: emulator {g!r}, reference {w!r}")
    if bad:
        return "mismatch", f"{len(bad)} values differ, first {'; '.join(bad[:int(os.environ.get('EMU_SHOW', 1))])}"
    return "ok", ""


@click.command(context_settings=CONTEXT)
@click.option("--json", default=None)
@click.option("--sm", type=int, multiple=True)
@click.option("--case", multiple=True, help="only these cases")
def command(**kwargs: Any) -> int:
    ns = SimpleNamespace(**kwargs)
    from cass_cc.emu import load
    from tests.sass import harness
    from tests.sass.kernels import CASES

    t0 = time.perf_counter()
    b = harness.build_all()
    print(f"built the lifter's kernels in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    report = {}
    with tempfile.TemporaryDirectory(prefix="emu-lifter-") as tmp:
        for sm, smb in sorted(b.sms.items()):
            if ns.sm and sm not in ns.sm:
                continue
            if not smb.asm:
                report[sm] = {"error": "; ".join(smb.errors) or "no gfx1100 assembly"}
                continue
            co = load(code_object(smb, Path(tmp)))
            rows = {}
            for case in CASES:
                if ns.case and case.name not in ns.case:
                    continue
                t = time.perf_counter()
                try:
                    status, detail = run_one(b, smb, co, case)
                except KeyError as e:
                    status, detail = "error", f"not lifted: {e}"
                rows[case.name] = {"status": status, "detail": detail, "seconds": round(time.perf_counter() - t, 3)}
            ok = sum(r["status"] == "ok" for r in rows.values())
            report[sm] = {"ok": ok, "total": len(rows), "cases": rows}
            print(f"sm_{sm}: {ok}/{len(rows)} lifted kernels run on the emulator and match the reference")
            for name, r in rows.items():
                if r["status"] != "ok":
                    print(f"  {name}: {r['status']}: {r['detail']}")
    if ns.json:
        Path(ns.json).write_text(json.dumps(report, indent=1) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/emu_lifter.py")


if __name__ == "__main__":
    raise SystemExit(main())
