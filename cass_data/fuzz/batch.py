"""A batch: `size` consecutive kernels of one seed in one .cu file, with their inputs, as a folder.

    fz.cu         the kernels (gen.batch_source)
    kernels.txt   name grid block out_words, one kernel per line (read by runner.cu)
    in.bin        1,024 input words per kernel
    meta.json     seed, first index, size, the source's digest
    fz.cubin      nvcc's sm_90 code (written by the truth stage)
    truth.bin     every kernel's output words on the NVIDIA GPU, status.txt their CUDA status

Everything here is the standard library: the truth stage runs on a GPU machine with Python and nvcc
and nothing else of this project's dependencies.
"""
from __future__ import annotations

import hashlib
import json
import random
import struct
from pathlib import Path

from .ast import Kernel
from .gen import batch_source, generate

IN_WORDS = 1024
SIZE = 20  # kernels per batch


def kernels(seed: str, batch: int, size: int = SIZE) -> list[Kernel]:
    return [generate(seed, batch * size + j) for j in range(size)]


def inputs(seed: str, index: int) -> bytes:
    """A kernel's input: small integers, floats a program meets (small values, halves, specials:
    zeros, infinities, NaN, subnormals, the largest finite) and random words."""
    rng = random.Random(f"cass-fuzz-in:{seed}:{index}")
    specials = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x807FFFFF,
                0x7F7FFFFF, 0x3F800000, 0xBF800000, 0x00800000, 0x7BFF7BFF, 0x3C003C00]
    words = []
    for _ in range(IN_WORDS):
        pick = rng.random()
        if pick < 0.25:
            w = rng.randint(-64, 64) & 0xFFFFFFFF
        elif pick < 0.5:
            w = struct.unpack("<I", struct.pack("<f", rng.randint(-512, 512) / rng.choice((1, 2, 4, 8, 16, 10))))[0]
        elif pick < 0.6:
            w = rng.choice(specials)
        else:
            w = rng.getrandbits(32)
        words.append(w)
    return struct.pack(f"<{IN_WORDS}I", *words)


def write(folder: Path, seed: str, batch: int, size: int = SIZE) -> list[Kernel]:
    folder.mkdir(parents=True, exist_ok=True)
    ks = kernels(seed, batch, size)
    src = batch_source(ks)
    (folder / "fz.cu").write_text(src)
    (folder / "kernels.txt").write_text("".join(f"{k.name} {k.grid} {k.block} {k.out_words}\n" for k in ks))
    (folder / "in.bin").write_bytes(b"".join(inputs(seed, batch * size + j) for j in range(size)))
    (folder / "meta.json").write_text(json.dumps({"seed": seed, "batch": batch, "size": size,
                                                   "sha256": hashlib.sha256(src.encode()).hexdigest()}) + "\n")
    return ks


def name(seed: str, batch: int) -> str:
    return f"{seed}-{batch:05d}"


# The second opinion (truth.py --second-opinion): the same batch built with `-Xcicc -O0 -Xptxas -O0`. Where
# nvcc's optimiser is wrong (a ptxas bug: r3:503), the GPU's two answers differ, and a path that
# agrees with the unoptimised one is not charged with the difference (check.py: outcome "nvcc").
SECOND = ("truth-O0.bin", "status-O0.txt")


def read_truth(folder: Path, ks: list[Kernel], files: tuple[str, str] = ("truth.bin", "status.txt")) -> list[tuple[str, bytes]]:
    """(status, out bytes) per kernel, from the truth stage's files (or the second opinion's)."""
    status = (folder / files[1]).read_text().split()
    data = (folder / files[0]).read_bytes()
    out, pos = [], 0
    for k, st in zip(ks, status):
        n = 4 * k.out_words
        out.append((st, data[pos:pos + n]))
        pos += n
    return out
