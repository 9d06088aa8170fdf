"""launch(): lay out kernel arguments, set up every wave's registers as the descriptor asks, run.

Kernel arguments follow the metadata note: explicit ones at their offsets, then hidden ones by
kind (code object v5: block counts, group sizes, remainders, grid dims, dynamic LDS size; v4:
global offsets, and a dispatch packet the kernel reads through its dispatch pointer).
User SGPRs are filled in kernel_code_properties bit order, then the workgroup ids and workgroup
info in system SGPRs; work-item ids are packed into v0 (x | y << 10 | z << 20, as gfx11 does).
"""
from __future__ import annotations

import struct
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import executor
from .loader import LDS_MAX, Arg, CodeObject, Kernel, load
from .memory import PRIVATE_APERTURE, SHARED_APERTURE, EmuError, Memory
from .operands import EXEC_LO, NUM_SREGS

DEFAULT_BUDGET = 2_000_000_000
MAX_BATCH_WAVES = 4096
# scratch of one batch (waves x 32 lanes x private segment): a kernel with a large private
# segment runs in smaller batches instead of asking the host for tens of GiB at once
MAX_BATCH_SCRATCH = 512 << 20
IMAGE_PAGE = 4096
GRID_MAX = (1 << 32) - 1  # the dispatch packet's grid size (blocks x threads) is 32 bits per dimension


@dataclass
class Result:
    buffers: list[np.ndarray]
    wave_instructions: int
    seconds: float
    waves: int = 0
    extra: dict = field(default_factory=dict)


def _dims(x) -> tuple[int, int, int]:
    if isinstance(x, int):
        return (x, 1, 1)
    t = tuple(int(v) for v in x)
    if not 1 <= len(t) <= 3 or min(t) < 1 or max(t) > GRID_MAX:
        raise EmuError(f"bad launch dimensions {x!r}")
    return t + (1,) * (3 - len(t))


def _scalar_bytes(value, size: int) -> bytes:
    if isinstance(value, (bytes, bytearray)):
        raw = bytes(value)
    elif isinstance(value, np.ndarray) and value.dtype.names is not None or isinstance(value, np.void):
        raw = value.tobytes()
    elif isinstance(value, (np.generic,)):
        raw = value.tobytes()
    elif isinstance(value, float):
        raw = struct.pack("<f", value) if size == 4 else struct.pack("<d", value)
    elif isinstance(value, (int, np.integer)):
        raw = (int(value) & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    else:
        raise EmuError(f"cannot pass {type(value).__name__} as a {size}-byte kernel argument")
    if len(raw) != size:
        raise EmuError(f"argument of {len(raw)} bytes where the kernel expects {size}")
    return raw


def launch(code_object: CodeObject | str | Path, kernel: str, grid, block, args: list, *, shared: int = 0,
           budget: int = DEFAULT_BUDGET, memory: Memory | None = None, detail: bool = False,
           kernarg: bytes | None = None, time_limit: float | None = None):
    """Run kernel over grid x block; return the buffer arguments' contents after the run.

    args: NumPy arrays for pointer arguments (copied to device memory and back), Python/NumPy
    scalars or bytes for by-value arguments. shared: dynamic LDS bytes. With detail=True a Result
    with counts and time comes back instead of the list.
    kernarg: the explicit arguments already packed (pointers being addresses the caller allocated
    in `memory`); args must then be empty, and the hidden arguments are still filled in.
    time_limit: seconds of emulation before TimeLimitExceeded (None: no limit; `budget` still holds).
    """
    co = code_object if isinstance(code_object, CodeObject) else load(code_object)
    k = co.kernel(kernel)
    grid3, block3 = _dims(grid), _dims(block)
    if any(g * b > GRID_MAX for g, b in zip(grid3, block3)):
        raise EmuError(f"grid of {grid3} blocks of {block3} threads: more than {GRID_MAX} threads in a dimension")
    mem = memory or Memory()
    start = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    kernarg_addr, buffers = _kernargs(co, k, mem, grid3, block3, args, shared, kernarg)
    executed, waves = _run(co, k, mem, grid3, block3, kernarg_addr, shared, budget, deadline)
    outs = [np.frombuffer(mem.read(addr, arr.nbytes), arr.dtype).reshape(arr.shape).copy() for addr, arr in buffers]
    if detail:
        return Result(outs, executed, time.perf_counter() - start, waves)
    return outs


def _sequential_args(args: list) -> list[Arg]:
    """Argument layout for a kernel without a metadata note (hand-written assembly): in order,
    pointers (arrays) as 8 bytes, scalars at their natural size and alignment."""
    out, off = [], 0
    for value in args:
        if isinstance(value, np.ndarray) and value.dtype.names is None:
            size, kind = 8, "global_buffer"
        elif isinstance(value, (bytes, bytearray)):
            size, kind = len(value), "by_value"
        elif isinstance(value, np.generic):
            size, kind = value.nbytes, "by_value"
        elif isinstance(value, float):
            size, kind = 4, "by_value"
        else:
            size, kind = 4, "by_value"
        align = min(8, size) if size in (1, 2, 4, 8) else 8
        off = (off + align - 1) // align * align
        out.append(Arg(off, size, kind))
        off += size
    return out


def _kernargs(co: CodeObject, k: Kernel, mem: Memory, grid, block, args, shared, packed: bytes | None = None):
    explicit = [a for a in k.args if not a.kind.startswith("hidden_")]
    if not k.args:
        explicit = _sequential_args(args)
    if packed is not None:
        if args:
            raise EmuError("pass either packed kernel arguments or an argument list, not both")
        explicit = []
    elif len(args) != len(explicit):
        raise EmuError(f"kernel {k.name} takes {len(explicit)} arguments, {len(args)} given")
    size = max(k.kernarg_size, max((a.offset + a.size for a in k.args), default=0), 256, len(packed or b""))
    seg = bytearray(size)
    if packed is not None:
        seg[: len(packed)] = packed
    buffers = []
    for a, value in zip(explicit, args):
        pointer_like = a.size == 8 and isinstance(value, np.ndarray) and value.dtype.names is None
        if a.kind in ("global_buffer", "dynamic_shared_pointer") or pointer_like:
            if isinstance(value, np.ndarray):
                arr = np.ascontiguousarray(value)
                addr = mem.alloc(arr.nbytes, a.name, arr)
                buffers.append((addr, arr))
            elif isinstance(value, (int, np.integer)):
                addr = int(value)  # a raw device address (or 0 for nullptr)
            else:
                raise EmuError(f"argument {a.name or a.offset}: pass a NumPy array for a pointer")
            seg[a.offset: a.offset + 8] = struct.pack("<Q", addr)
        else:
            seg[a.offset: a.offset + a.size] = _scalar_bytes(value, a.size)
    hidden = {
        "hidden_block_count_x": (grid[0], 4), "hidden_block_count_y": (grid[1], 4), "hidden_block_count_z": (grid[2], 4),
        "hidden_group_size_x": (block[0], 2), "hidden_group_size_y": (block[1], 2), "hidden_group_size_z": (block[2], 2),
        "hidden_remainder_x": (0, 2), "hidden_remainder_y": (0, 2), "hidden_remainder_z": (0, 2),
        "hidden_grid_dims": (sum(1 for d in (grid[1], grid[2]) if d > 1) + 1, 2),
        "hidden_dynamic_lds_size": (shared, 4),
        "hidden_private_base": (PRIVATE_APERTURE, 4), "hidden_shared_base": (SHARED_APERTURE, 4),
    }
    for a in k.args:
        if a.kind in hidden:
            v, n = hidden[a.kind]
            seg[a.offset: a.offset + min(n, a.size)] = int(v).to_bytes(n, "little")[: a.size]
    addr = mem.alloc(len(seg), "kernarg", bytes(seg))
    return addr, buffers


def _dispatch_packet(mem: Memory, k: Kernel, grid, block, kernarg: int, shared: int) -> int:
    pkt = bytearray(64)
    struct.pack_into("<HHHHH", pkt, 0, 0, 3, block[0], block[1], block[2])
    struct.pack_into("<III", pkt, 12, grid[0] * block[0], grid[1] * block[1], grid[2] * block[2])
    struct.pack_into("<II", pkt, 24, k.private_segment_size, k.group_segment_size + shared)
    struct.pack_into("<Q", pkt, 40, kernarg)
    return mem.alloc(64, "dispatch packet", bytes(pkt))


def _run(co: CodeObject, k: Kernel, mem: Memory, grid, block, kernarg: int, shared: int, budget: int,
         deadline: float | None = None):
    d = k.descriptor
    if not d.wave32:
        raise EmuError(f"kernel {k.name} is wave64; only wave32 is emulated")
    threads = block[0] * block[1] * block[2]
    if threads > 1024:
        raise EmuError(f"block of {threads} threads; at most 1024")
    wpg = (threads + 31) // 32
    nwg = grid[0] * grid[1] * grid[2]
    packet = _dispatch_packet(mem, k, grid, block, kernarg, shared)
    queue = mem.alloc(256, "queue")
    lds_size = max(k.group_segment_size, d.group_segment_size) + shared
    if shared < 0 or lds_size > LDS_MAX:
        raise EmuError(f"kernel {k.name} needs {lds_size} bytes of LDS per workgroup "
                       f"({shared} of them dynamic); gfx1100 has {LDS_MAX}")
    psize = max(k.private_segment_size, d.private_segment_size)
    if d.properties & (1 << 11) or k.dynamic_lds:
        psize += 16384
    psize = (psize + 15) // 16 * 16
    nv = min(max(d.vgpr_count, 8), 256)
    user = []
    props = d.properties
    if props & 1:
        user += [0, 0, 0, 0]
    if props & 2:
        user += [packet & 0xFFFFFFFF, packet >> 32]
    if props & 4:
        user += [queue & 0xFFFFFFFF, queue >> 32]
    if props & 8:
        user += [kernarg & 0xFFFFFFFF, kernarg >> 32]
    if props & 16:
        user += [0, 0]
    if props & 32:
        user += [0, 0]
    if props & 64:
        user += [psize]
    nuser = d.user_sgpr_count
    tid = np.arange(wpg * 32)
    tx, ty, tz = tid % block[0], (tid // block[0]) % block[1], tid // (block[0] * block[1])
    packed = (tx | (ty << 10) | (tz << 20)).astype(np.uint32).reshape(wpg, 32)
    alive = (tid < threads).reshape(wpg, 32)
    exec_per_wave = np.packbits(alive, axis=1, bitorder="little").view(np.uint32).reshape(wpg)
    prog = executor.program(co.code)
    # its globals, reached pc-relatively; whole pages, as a loader maps them (s_load_dwordx4 of a
    # 12-byte __constant__ array at the image's end reads past it on hardware without a fault)
    image = mem.alloc(-(-len(co.code) // IMAGE_PAGE) * IMAGE_PAGE, "code object")
    mem.write(image, co.image_at(image))
    executed = 0
    per_batch = max(1, min(MAX_BATCH_WAVES // wpg, MAX_BATCH_SCRATCH // (wpg * 32 * psize or 1)))
    for first in range(0, nwg, per_batch):
        wgs = np.arange(first, min(nwg, first + per_batch))
        W = wgs.size * wpg
        s = np.zeros((NUM_SREGS, W), np.uint32)
        for i, val in enumerate(user[:nuser]):
            s[i] = val
        wg_of_wave = np.repeat(wgs, wpg)
        gx = wg_of_wave % grid[0]
        gy = (wg_of_wave // grid[0]) % grid[1]
        gz = wg_of_wave // (grid[0] * grid[1])
        r = nuser
        for bit, val in ((7, gx), (8, gy), (9, gz)):
            if d.rsrc2 & (1 << bit):
                s[r] = val
                r += 1
        if d.rsrc2 & (1 << 10):
            s[r] = threads
            r += 1
        if d.rsrc2 & 1:
            s[r] = 0
            r += 1
        s[EXEC_LO] = np.tile(exec_per_wave, wgs.size)
        v = np.zeros((nv, W, 32), np.uint32)
        v[0] = np.tile(packed, (wgs.size, 1))
        wave_ids = (wg_of_wave - first) * wpg + np.tile(np.arange(wpg), wgs.size)
        host = (max(lds_size, 4) * wgs.size + 16) + max(W * 32 * psize, 16)
        mem.reserve(host, f"kernel {k.name}'s LDS and scratch for {W} waves")
        ctx = executor.Context(mem, np.zeros(max(lds_size, 4) * wgs.size + 16, np.uint8), lds_size,
                               np.zeros(max(W * 32 * psize, 16), np.uint8), psize, first * wpg, image, len(co.code))
        g = executor.Group(s, v, np.zeros(W, np.uint32), d.entry, np.arange(W) + first * wpg, wg_of_wave - first, ctx,
                           d.initial_mode)
        del wave_ids
        try:
            with np.errstate(all="ignore"):
                executed += executor.run([g], prog, budget - executed, deadline)
        finally:
            mem.release(host)
    return executed, nwg * wpg
