"""Reduced kernels kept as regression tests (tests/data/fuzz_cases/NAME/):

    case.json   where it came from (SEED:INDEX), the path that differed, launch, slot types
    fz.cu       the reduced kernel (gen.batch_source of one kernel)
    truth.bin   its output on the NVIDIA GPU (`python3 -m cass_data.fuzz.truth --cases DIR`)

The input is regenerated from the origin (batch.inputs). tests/data/test_fuzz_cases.py builds each
case through its path and compares with truth.bin.
"""
from __future__ import annotations

import json
from pathlib import Path

from .ast import Kernel, Slot
from .batch import inputs
from .gen import batch_source


def file_case(k: Kernel, origin: str, path: str, note: str, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "fz.cu").write_text(batch_source([k]))
    (folder / "case.json").write_text(json.dumps({
        "origin": origin, "path": path, "note": note, "kernel": k.name, "grid": k.grid, "block": k.block,
        "slots": [[s.ty, s.ulps, s.what] for s in k.slots], "atomics": k.atomics}, indent=1) + "\n")


def file_from_truth(seed: str, index: int, path: str, note: str, truth_folder: Path, folder: Path) -> None:
    """A generated kernel kept as it is (a one-operation kernel needs no reducing), with its
    output from the truth run that found it."""
    from .batch import SIZE, read_truth
    from .gen import generate

    k = generate(seed, index)
    batch = [generate(seed, (index // SIZE) * SIZE + j) for j in range(SIZE)]
    status, data = read_truth(truth_folder, batch)[index % SIZE]
    if status != "ok":
        raise ValueError(f"{seed}:{index}: no truth ({status})")
    file_case(k, f"{seed}:{index}", path, note, folder)
    (folder / "truth.bin").write_bytes(data)


def load_case(folder: Path) -> tuple[Kernel, dict, bytes]:
    meta = json.loads((folder / "case.json").read_text())
    k = Kernel(meta["kernel"], meta["grid"], meta["block"], [], [], [Slot(*s) for s in meta["slots"]], meta["atomics"])
    seed, _, index = meta["origin"].rpartition(":")
    return k, meta, inputs(seed, int(index))


def prepare_for_truth(folder: Path) -> None:
    """The files runner.cu reads, for a case folder."""
    k, _, inp = load_case(folder)
    (folder / "kernels.txt").write_text(f"{k.name} {k.grid} {k.block} {k.out_words}\n")
    (folder / "in.bin").write_bytes(inp)
