"""`cass-cc emu-run`: run one kernel of a gfx1100 code object on the CPU emulator.

    cass-cc emu-run k.co vadd --grid 4 --block 256 \
        --arg buf:a.npy --arg buf:b.npy --arg buf:c.npy --arg i32:1000 --out results/

Arguments in the kernel's order: buf:FILE.npy (a device buffer filled from the file; after the run
it is written to --out under the same file name), f32:/f64:/i32:/u32:/i64:/u64: scalars, and
bytes:HEX for by-value structs. Exit status 0 on success, 1 when the run stops (uncovered
instruction, out-of-bounds access, budget, time limit) or the code object is damaged, 2 for bad
usage; the reason is one line on stderr naming the code object. A run is bounded three ways:
--budget (wave-instructions), --time-limit (seconds) and --memory-limit (host bytes for device
memory, LDS and scratch; sizes a code object states are also checked against gfx1100's limits).
"""
from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Sequence

DEFAULT_TIME_LIMIT = 600.0  # seconds: the README's slowest kernels take tens; a loop that never ends stops

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


def _bytes(text: str) -> int:
    """'4G', '512M', '65536' -> bytes (for argparse)."""
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:].upper(), 1)
    try:
        value = int(text[:-1] if scale > 1 else text) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (like 4G, 512M or 65536)") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a size > 0")
    return value


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
    p.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                   help=f"stop a run after this many seconds, 0 for none (default {DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--memory-limit", type=_bytes, default=None, metavar="BYTES",
                   help="host memory for device memory, LDS and scratch (K/M/G suffixes; default 4G)")
    p.add_argument("--out", default=None, help="folder for the buffers after the run")
    try:
        ns = p.parse_args(list(argv))
    except SystemExit as e:
        return int(e.code or 0) and 2
    try:
        import numpy as np

        import tinygrad.renderer.amd  # noqa: F401 - the executor's decoder, imported at the first instruction

        from .dispatch import DEFAULT_BUDGET, launch
        from .memory import EmuError, Memory
    except ModuleNotFoundError as e:  # the 'emu' extra is not installed
        from ..extras import missing_extra_message

        msg = missing_extra_message(e, "emu-run")
        if msg is None:
            raise
        sys.stderr.write(msg + "\n")
        return 1
    from ..util import atomic_write_bytes

    try:
        grid, block = _dims(ns.grid), _dims(ns.block)
        parsed = [parse_arg(a) for a in ns.arg]
        if ns.time_limit < 0 or ns.shared < 0 or (ns.budget or 0) < 0:
            raise UsageError("--time-limit, --shared and --budget take values >= 0")
    except UsageError as e:
        sys.stderr.write(f"cass-cc emu-run: {e}\n")
        return 2

    names = [n for _, n in parsed if n is not None]
    if len(set(names)) != len(names):
        sys.stderr.write("cass-cc emu-run: two buffers with the same file name\n")
        return 2
    mem = Memory() if ns.memory_limit is None else Memory(ns.memory_limit)
    try:
        res = launch(ns.code_object, ns.kernel, grid, block, [v for v, _ in parsed], shared=ns.shared,
                     budget=ns.budget or DEFAULT_BUDGET, detail=True, memory=mem, time_limit=ns.time_limit or None)
    except EmuError as e:
        msg = str(e) if str(e).startswith(ns.code_object) else f"{ns.code_object}: {e}"
        sys.stderr.write(f"cass-cc emu-run: {msg.splitlines()[0] if msg else msg}\n")
        return 1
    except MemoryError:  # the host refused before the budget did (a smaller ulimit than the budget)
        sys.stderr.write(f"cass-cc emu-run: {ns.code_object}: out of host memory (lower --memory-limit)\n")
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
