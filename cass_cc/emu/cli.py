"""`cass-cc emu-run`: run one kernel of a gfx1100 code object on the CPU emulator.

    cass-cc emu-run k.co vadd --grid 4 --block 256 \
        --arg buf:a.npy --arg buf:b.npy --arg buf:c.npy --arg i32:1000 --out results/

Arguments in the kernel's order: buf:FILE.npy (a device buffer filled from the file; after the run
it is written to --out under the same file name), f32:/f64:/i32:/u32:/i64:/u64: scalars, and
bytes:HEX for by-value structs. Exit status 0 on success, 1 when the run stops (uncovered
instruction, out-of-bounds access, budget, time limit) or the code object is damaged, 2 for bad
usage; the reason is on stderr as every cass-cc command gives it ("Error: ...", naming the code
object). A run is bounded three ways: --budget (wave-instructions), --time-limit (seconds) and
--memory-limit (host bytes for device memory, LDS and scratch; sizes a code object states are
also checked against gfx1100's limits).
"""
from __future__ import annotations

import io
from pathlib import Path

import click

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


class _Size(click.ParamType):
    """'4G', '512M', '65536' -> bytes."""

    name = "size"

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        if isinstance(value, int):
            return value
        text = str(value)
        scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:].upper(), 1)
        try:
            size = int(text[:-1] if scale > 1 else text) * scale
        except ValueError:
            self.fail(f"{text!r} is not a size (like 4G, 512M or 65536)", param, ctx)
        if size <= 0:
            self.fail(f"{text!r}: a size > 0", param, ctx)
        return size


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


@click.command("emu-run")
@click.argument("code_object")
@click.argument("kernel")
@click.option("--grid", required=True, help="blocks: X[,Y[,Z]]")
@click.option("--block", required=True, help="threads per block: X[,Y[,Z]]")
@click.option("--arg", "args", multiple=True, help="buf:FILE.npy, f32:2.5, i32:1000, u64:7, bytes:HEX (repeat, in the kernel's order)")
@click.option("--shared", type=click.IntRange(min=0), default=0, help="dynamic LDS bytes")
@click.option("--budget", type=click.IntRange(min=0), default=None, help="wave-instruction budget")
@click.option("--time-limit", type=click.FloatRange(min=0), default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
              help=f"stop a run after this many seconds, 0 for none (default {DEFAULT_TIME_LIMIT:g})")
@click.option("--memory-limit", type=_Size(), default=None, metavar="BYTES",
              help="host memory for device memory, LDS and scratch (K/M/G suffixes; default 4G)")
@click.option("--out", default=None, help="folder for the buffers after the run")
def emu_run(code_object: str, kernel: str, grid: str, block: str, args: tuple[str, ...], shared: int,
            budget: int | None, time_limit: float, memory_limit: int | None, out: str | None) -> None:
    """Run one kernel of a gfx1100 code object on the CPU emulator."""
    import numpy as np

    import tinygrad.renderer.amd  # noqa: F401 - the executor's decoder (the 'emu' extra: cli.py names it if missing)

    from ..util import atomic_write_bytes
    from .dispatch import DEFAULT_BUDGET, launch
    from .memory import EmuError, Memory

    try:
        dims = _dims(grid), _dims(block)
        parsed = [parse_arg(a) for a in args]
    except UsageError as e:
        raise click.UsageError(str(e)) from None
    names = [n for _, n in parsed if n is not None]
    if len(set(names)) != len(names):
        raise click.UsageError("two buffers with the same file name")
    mem = Memory() if memory_limit is None else Memory(memory_limit)
    try:
        res = launch(code_object, kernel, dims[0], dims[1], [v for v, _ in parsed], shared=shared,
                     budget=budget or DEFAULT_BUDGET, detail=True, memory=mem, time_limit=time_limit or None)
    except EmuError as e:
        msg = str(e) if str(e).startswith(code_object) else f"{code_object}: {e}"
        raise click.ClickException(msg.splitlines()[0] if msg else msg) from None
    except MemoryError:  # the host refused before the budget did (a smaller ulimit than the budget)
        raise click.ClickException(f"{code_object}: out of host memory (lower --memory-limit)") from None
    if out:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        for name, arr in zip(names, res.buffers):
            buf = io.BytesIO()
            np.save(buf, arr, allow_pickle=False)
            atomic_write_bytes(folder / name, buf.getvalue())
    click.echo(f"cass-cc emu-run: {kernel}: {res.waves} waves, {res.wave_instructions} wave-instructions, "
               f"{res.seconds:.3f} s", err=True)
