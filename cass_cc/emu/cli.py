"""`cass-cc emu-run`: run one kernel of a gfx1100 code object on the CPU emulator.

    cass-cc emu-run k.co vadd --grid 4 --block 256 \
        --arg buf:a.npy --arg buf:b.npy --arg buf:c.npy --arg i32:1000 --out results/

Arguments in the kernel's order: buf:FILE.npy (a device buffer filled from the file; after the run
it is written to --out under the same file name), f32:/f64:/i32:/u32:/i64:/u64: scalars, and
bytes:HEX for by-value structs. Exit status 0 on success, 1 when the run stops (uncovered
instruction, out-of-bounds access, budget), 2 for bad usage; the reason is one line on stderr.
"""
from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Sequence

SCALARS = {"f32": "float32", "f64": "float64", "i32": "int32", "u32": "uint32", "i64": "int64", "u64": "uint64",
           "i16": "int16", "u16": "uint16", "i8": "int8", "u8": "uint8"}


class UsageError(Exception):
    pass


def _dims(text: str) -> tuple[int, ...]:
    try:
        dims = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise UsageError(f"bad dimensions {text!r} (want X[,Y[,Z]])") from None
    if not 1 <= len(dims) <= 3 or min(dims) < 1:
        raise UsageError(f"bad dimensions {text!r} (want X[,Y[,Z]])")
    return dims


def parse_arg(spec: str):
    """-> (value, file name or None) for one --arg."""
    import numpy as np

    kind, sep, rest = spec.partition(":")
    if not sep:
        raise UsageError(f"--arg {spec!r}: want KIND:VALUE (buf:, f32:, i32:, u64:, ...)")
    if kind == "buf":
        path = Path(rest)
        try:
            arr = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise UsageError(f"{path}: cannot read a NumPy array ({e})") from None
        return arr, path.name
    if kind == "bytes":
        try:
            return bytes.fromhex(rest), None
        except ValueError:
            raise UsageError(f"--arg {spec!r}: bad hex") from None
    if kind not in SCALARS:
        raise UsageError(f"--arg {spec!r}: unknown kind {kind!r}")
    dt = np.dtype(SCALARS[kind])
    try:
        value = float(rest) if dt.kind == "f" else int(rest, 0)
        if dt.kind != "f":
            info = np.iinfo(dt)
            if not info.min <= value <= info.max:
                raise ValueError
        return dt.type(value), None
    except ValueError:
        raise UsageError(f"--arg {spec!r}: {rest!r} is not a {kind}") from None


def main(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog="cass-cc emu-run", description="Run a gfx1100 kernel on the CPU emulator.")
    p.add_argument("code_object")
    p.add_argument("kernel")
    p.add_argument("--grid", required=True, help="blocks: X[,Y[,Z]]")
    p.add_argument("--block", required=True, help="threads per block: X[,Y[,Z]]")
    p.add_argument("--arg", action="append", default=[], help="buf:FILE.npy, f32:2.5, i32:1000, u64:7, bytes:HEX")
    p.add_argument("--shared", type=int, default=0, help="dynamic LDS bytes")
    p.add_argument("--budget", type=int, default=None, help="wave-instruction budget")
    p.add_argument("--out", default=None, help="folder for the buffers after the run")
    try:
        ns = p.parse_args(list(argv))
    except SystemExit as e:
        return int(e.code or 0) and 2
    try:
        grid, block = _dims(ns.grid), _dims(ns.block)
        parsed = [parse_arg(a) for a in ns.arg]
    except UsageError as e:
        sys.stderr.write(f"cass-cc emu-run: {e}\n")
        return 2
    import numpy as np

    from ..util import atomic_write_bytes
    from .dispatch import DEFAULT_BUDGET, launch
    from .memory import EmuError

    names = [n for _, n in parsed if n is not None]
    if len(set(names)) != len(names):
        sys.stderr.write("cass-cc emu-run: two buffers with the same file name\n")
        return 2
    try:
        res = launch(ns.code_object, ns.kernel, grid, block, [v for v, _ in parsed], shared=ns.shared,
                     budget=ns.budget or DEFAULT_BUDGET, detail=True)
    except EmuError as e:
        msg = str(e) if str(e).startswith(ns.code_object) else f"{ns.code_object}: {e}"
        sys.stderr.write(f"cass-cc emu-run: {msg}\n")
        return 1
    if ns.out:
        out = Path(ns.out)
        out.mkdir(parents=True, exist_ok=True)
        for name, arr in zip(names, res.buffers):
            buf = io.BytesIO()
            np.save(buf, arr, allow_pickle=False)
            atomic_write_bytes(out / name, buf.getvalue())
    sys.stderr.write(f"cass-cc emu-run: {ns.kernel}: {res.waves} waves, {res.wave_instructions} wave-instructions, "
                     f"{res.seconds:.3f} s\n")
    return 0
