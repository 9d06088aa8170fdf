"""`cass-data hostile codeobjects`: mutated gfx1100 code objects through `cass-cc emu-run`.

A few small CUDA kernels are built once with `cass-cc -cubin -arch=sm_90` (with cass-cc that is a
gfx1100 code object) and cached under the work folder. Case i takes one of them and mutates it, a
function of (seed, i) alone: bit flips, byte runs, truncations, ELF/program/section header fields,
note and MessagePack metadata fields, kernel descriptor fields (segment sizes, register counts, LDS,
kernarg size, entry), symbols and instruction words (an `s_branch -1` makes a kernel that never ends).
Each mutant is run by `cass-cc emu-run` on a small grid. Outcomes: ok, refused (a non-zero exit with
ONE stderr line naming the file), hang, traceback, and disagrees: a refusal that is not one line
naming the file, or one that only the host's memory limit stopped (the emulator's own memory budget
should refuse first).

Two modes: `subprocess` runs bin/cass-cc per case (what a user runs); `inprocess` forks a worker
that already imported the emulator and calls `cass_cc.cli.main` (x20 faster, for long runs).
Both cap the address space (RLIMIT_AS) and kill at a time limit.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import resource
import struct
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import click

from .common import CASS_CC, ROOT, Result, Tally, run_bounded, sort_outcome

# The harness's host memory cap: above the emulator's default budget (4 GiB), so that the budget
# and not the host limit is what refuses a code object that asks for too much.
HOST_MEMORY_LIMIT = 6 << 30
EMU_TIME_LIMIT = 2  # seconds: emu-run's own --time-limit; the harness waits longer (see TIMEOUT)
TIMEOUT = 30.0
PROGRESS_EVERY = 250
GRID, BLOCK, N = "2", "64", 100  # 4 waves; N < 128 so the bounds checks in the kernels matter


@dataclass(frozen=True)
class Seed:
    """A kernel to build and the emu-run arguments it takes (buf: files made from `inputs`)."""
    name: str
    source: str
    inputs: tuple[tuple[str, str], ...]  # (file name, dtype) of each buffer, N + 1 elements
    scalars: tuple[str, ...] = (f"i32:{N}",)


SEEDS = (
    Seed("vadd", """
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
""", (("a.npy", "float32"), ("b.npy", "float32"), ("c.npy", "float32"))),
    Seed("block_sum", """
__global__ void block_sum(const int *in, int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
""", (("in.npy", "int32"), ("out.npy", "int32"))),
    Seed("local_pick", """
__global__ void local_pick(const int *idx, float *out, int n) {
  float tab[64];  // indexed by data: lives in scratch (private segment)
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 64; k++) tab[k] = k * 0.5f + i;
  if (i < n) out[i] = tab[idx[i] & 63];
}
""", (("idx.npy", "int32"), ("out.npy", "float32"))),
    Seed("collatz", """
__global__ void collatz(const unsigned *in, unsigned *steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = in[i], s = 0;
  while (x > 1) { x = (x & 1) ? 3 * x + 1 : x / 2; s++; }
  atomicAdd(&steps[n], s);
  steps[i] = s;
}
""", (("in.npy", "uint32"), ("steps.npy", "uint32"))),
    Seed("table", """
__device__ float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};
__device__ float *tp = table;  // a pointer in the image: a dynamic relocation
__global__ void lookup(const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tp[idx[i] & 3];
}
""", (("idx.npy", "int32"), ("out.npy", "float32"))),
)


@dataclass
class Built:
    seed: Seed
    path: Path  # the code object
    kernel: str  # its mangled name
    data: bytes
    layout: "Layout"
    inputs: Path  # folder with the .npy inputs


# ---- building the seeds once -------------------------------------------------------------------

def build_seeds(work: Path) -> list[Built]:
    """Compile every seed (cached under work/seeds by source and cass-cc's identity) and write its inputs."""
    import numpy as np

    from cass_cc.version import version_text

    out = []
    ident = version_text(os.environ)
    for seed in SEEDS:
        key = hashlib.sha256(f"{seed.source}\0{ident}".encode()).hexdigest()[:16]
        folder = work / "seeds" / f"{seed.name}-{key}"
        co = folder / f"{seed.name}.co"
        if not co.exists():
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{seed.name}.cu").write_text(seed.source)
            tmp = folder / f"{seed.name}.co.tmp"
            r = run_bounded([*CASS_CC, "-cubin", "-arch=sm_90", str(folder / f"{seed.name}.cu"), "-o", str(tmp)],
                            timeout=300)
            if r.rc != 0:
                raise click.ClickException(f"building seed {seed.name} failed: {r.stderr.decode(errors='replace')}")
            tmp.replace(co)
        rng = np.random.default_rng(7)
        for fname, dtype in seed.inputs:
            np.save(folder / fname, rng.integers(0, 1000, N + 1).astype(dtype), allow_pickle=False)
        data = co.read_bytes()
        layout = Layout.of(data)
        out.append(Built(seed, co, layout.kernel, data, layout, folder))
    return out


# ---- where things are in a well-formed code object ---------------------------------------------

@dataclass
class Layout:
    """File offsets of the structures the mutators aim at (read from the unmutated seed)."""
    kernel: str
    phdrs: list[int]
    shdrs: list[int]
    note: tuple[int, int]  # (offset, size) of the NT_AMDGPU_METADATA descriptor (MessagePack)
    note_header: int  # offset of that note's namesz/descsz/type
    descriptors: list[int]  # file offsets of <kernel>.kd
    text: tuple[int, int]  # (offset, size) of .text
    symbols: list[int]  # file offsets of .symtab/.dynsym entries
    relocs: list[int]  # file offsets of .rela.dyn entries

    @staticmethod
    def of(data: bytes) -> "Layout":
        import io

        from elftools.elf.elffile import ELFFile

        elf = ELFFile(io.BytesIO(data))
        h = elf.header
        phdrs = [h.e_phoff + i * h.e_phentsize for i in range(h.e_phnum)]
        shdrs = [h.e_shoff + i * h.e_shentsize for i in range(h.e_shnum)]
        note, note_header, text, kd_vaddrs, symbols, relocs = (0, 0), 0, (0, 0), [], [], []
        kernel = ""
        for sec in elf.iter_sections():
            if sec["sh_type"] == "SHT_NOTE":
                off = sec["sh_offset"]
                for n in sec.iter_notes():
                    if n["n_name"] == "AMDGPU" and n["n_type"] in (32, "NT_AMDGPU_METADATA"):
                        note_header = n["n_offset"]
                        note = (n["n_offset"] + 12 + ((n["n_namesz"] + 3) & ~3), n["n_descsz"])
                del off
            elif sec.name == ".text":
                text = (sec["sh_offset"], sec["sh_size"])
            elif sec["sh_type"] in ("SHT_SYMTAB", "SHT_DYNSYM"):
                for i, sym in enumerate(sec.iter_symbols()):
                    symbols.append(sec["sh_offset"] + i * sec["sh_entsize"])
                    if sym.name.endswith(".kd"):
                        kd_vaddrs.append(sym["st_value"])
                        kernel = sym.name[:-3]
            elif sec["sh_type"] == "SHT_RELA":
                relocs += [sec["sh_offset"] + i * 24 for i in range(sec["sh_size"] // 24)]
        descriptors = []
        for va in sorted(set(kd_vaddrs)):
            for seg in elf.iter_segments():
                if seg["p_type"] == "PT_LOAD" and seg["p_vaddr"] <= va < seg["p_vaddr"] + seg["p_filesz"]:
                    descriptors.append(seg["p_offset"] + va - seg["p_vaddr"])
        return Layout(kernel, phdrs, shdrs, note, note_header, descriptors, text, symbols, relocs)


# ---- mutations ---------------------------------------------------------------------------------

def interesting(rng: random.Random, width: int, orig: int) -> int:
    """A value for a `width`-byte field: edges, powers of two, the original off by one, or random."""
    top = (1 << (8 * width)) - 1
    picks = [0, 1, 2, 7, 8, 0x3F, 0x40, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000, 0x10001, 0x40000, 0x7FFFFFFF,
             0x80000000, 0xFFFFFFFF, 1 << 32, 1 << 40, (1 << 63) - 1, 1 << 63, top, orig + 1, orig - 1, orig * 2,
             orig << 8, rng.getrandbits(8 * width)]
    return rng.choice(picks) & top


def _put(data: bytearray, off: int, width: int, value: int) -> None:
    if 0 <= off and off + width <= len(data):
        data[off: off + width] = value.to_bytes(width, "little")


def _get(data: bytes, off: int, width: int) -> int:
    return int.from_bytes(data[off: off + width], "little")


def _field(rng: random.Random, data: bytearray, off: int, width: int) -> str:
    old = _get(data, off, width)
    new = interesting(rng, width, old)
    _put(data, off, width, new)
    return f"{old:#x}->{new:#x}"


def m_bitflips(rng: random.Random, data: bytearray, lay: Layout | None) -> str:
    offs = [rng.randrange(len(data)) for _ in range(rng.randint(1, 16))]
    for o in offs:
        data[o] ^= 1 << rng.randrange(8)
    return f"bitflips at {offs[:4]}"


def m_byterun(rng: random.Random, data: bytearray, lay: Layout) -> str:
    off, n = rng.randrange(len(data)), rng.randint(1, 64)
    fill = rng.choice([b"\0", b"\xff", b"\x80", None])
    data[off: off + n] = (fill * n if fill else rng.randbytes(n))[: len(data[off: off + n])]
    return f"byte run {n} at {off:#x} ({fill!r})"


def m_truncate(rng: random.Random, data: bytearray, lay: Layout) -> str:
    cut = rng.choice([rng.randrange(len(data)), rng.randrange(64), lay.shdrs[0] + rng.randrange(64),
                      lay.note[0] + rng.randrange(max(1, lay.note[1]))])
    del data[cut:]
    return f"truncated to {cut}"


ELF_FIELDS = {"EI_CLASS": (4, 1), "EI_DATA": (5, 1), "e_machine": (18, 2), "e_phoff": (32, 8), "e_shoff": (40, 8),
              "e_phentsize": (54, 2), "e_phnum": (56, 2), "e_shentsize": (58, 2), "e_shnum": (60, 2),
              "e_shstrndx": (62, 2)}
PHDR_FIELDS = {"p_type": (0, 4), "p_offset": (8, 8), "p_vaddr": (16, 8), "p_filesz": (32, 8), "p_memsz": (40, 8)}
SHDR_FIELDS = {"sh_name": (0, 4), "sh_type": (4, 4), "sh_offset": (24, 8), "sh_size": (32, 8), "sh_link": (40, 4),
               "sh_info": (44, 4), "sh_entsize": (56, 8)}
SYM_FIELDS = {"st_name": (0, 4), "st_info": (4, 1), "st_shndx": (6, 2), "st_value": (8, 8), "st_size": (16, 8)}
RELA_FIELDS = {"r_offset": (0, 8), "r_type": (8, 4), "r_sym": (12, 4), "r_addend": (16, 8)}
# amd_kernel_code_t's successor, llvm::amdhsa::kernel_descriptor_t (64 bytes)
KD_FIELDS = {"group_segment_fixed_size": (0, 4), "private_segment_fixed_size": (4, 4), "kernarg_size": (8, 4),
             "kernel_code_entry_byte_offset": (16, 8), "compute_pgm_rsrc3": (44, 4), "compute_pgm_rsrc1": (48, 4),
             "compute_pgm_rsrc2": (52, 4), "kernel_code_properties": (56, 2)}
# bit fields of rsrc1/rsrc2/properties: (offset in the descriptor, low bit, width)
KD_BITS = {"GRANULATED_WORKITEM_VGPR_COUNT": (48, 0, 6), "GRANULATED_WAVEFRONT_SGPR_COUNT": (48, 6, 4),
           "FLOAT_MODE": (48, 12, 8), "USER_SGPR_COUNT": (52, 1, 5), "ENABLE_SGPR_WORKGROUP_ID": (52, 7, 3),
           "ENABLE_VGPR_WORKITEM_ID": (52, 11, 2), "GRANULATED_LDS_SIZE": (52, 15, 9),
           "ENABLE_WAVEFRONT_SIZE32": (56, 10, 1), "USES_DYNAMIC_STACK": (56, 11, 1), "USER_SGPR_ENABLES": (56, 0, 7)}


def _struct_field(rng: random.Random, data: bytearray, bases: list[int], fields: dict[str, tuple[int, int]],
                  what: str) -> str:
    if not bases:
        return f"({what}: none) {m_bitflips(rng, data, None)}"
    k = rng.randrange(len(bases))
    name = rng.choice(sorted(fields))
    off, width = fields[name]
    return f"{what} {k} {name} {_field(rng, data, bases[k] + off, width)}"


def m_elf_header(rng: random.Random, data: bytearray, lay: Layout) -> str:
    name = rng.choice(sorted(ELF_FIELDS))
    off, width = ELF_FIELDS[name]
    return f"ELF header {name} {_field(rng, data, off, width)}"


def m_phdr(rng: random.Random, data: bytearray, lay: Layout) -> str:
    return _struct_field(rng, data, lay.phdrs, PHDR_FIELDS, "program header")


def m_shdr(rng: random.Random, data: bytearray, lay: Layout) -> str:
    return _struct_field(rng, data, lay.shdrs, SHDR_FIELDS, "section header")


def m_symbol(rng: random.Random, data: bytearray, lay: Layout) -> str:
    return _struct_field(rng, data, lay.symbols, SYM_FIELDS, "symbol")


def m_reloc(rng: random.Random, data: bytearray, lay: Layout) -> str:
    return _struct_field(rng, data, lay.relocs or lay.symbols, RELA_FIELDS if lay.relocs else SYM_FIELDS, "reloc")


def m_descriptor(rng: random.Random, data: bytearray, lay: Layout) -> str:
    base = rng.choice(lay.descriptors)
    if rng.random() < 0.5:
        name = rng.choice(sorted(KD_FIELDS))
        off, width = KD_FIELDS[name]
        return f"descriptor {name} {_field(rng, data, base + off, width)}"
    name = rng.choice(sorted(KD_BITS))
    off, lo, width = KD_BITS[name]
    word = _get(data, base + off, 4)
    value = rng.choice([0, (1 << width) - 1, rng.getrandbits(width), ((word >> lo) & ((1 << width) - 1)) ^ 1])
    word = word & ~(((1 << width) - 1) << lo) | value << lo
    _put(data, base + off, 4, word)
    return f"descriptor {name}={value:#x}"


def m_note_header(rng: random.Random, data: bytearray, lay: Layout) -> str:
    name, off = rng.choice([("namesz", 0), ("descsz", 4), ("type", 8)])
    return f"note {name} {_field(rng, data, lay.note_header + off, 4)}"


def msgpack_items(data: bytes, start: int, end: int) -> list[tuple[int, str, int]]:
    """(offset, kind, header length) of every MessagePack item in data[start:end], in order.
    kind: int, str, bin, map, array, other. Stops quietly at anything it cannot follow."""
    items, pos, end = [], start, min(end, len(data))
    sizes = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8, 0xCA: 4, 0xCB: 8}
    while pos < end:
        t = data[pos]
        if t <= 0x7F or t >= 0xE0:
            items.append((pos, "int", 1)); pos += 1
        elif 0x80 <= t <= 0x9F:
            items.append((pos, "map" if t < 0x90 else "array", 1)); pos += 1
        elif 0xA0 <= t <= 0xBF:
            items.append((pos, "str", 1)); pos += 1 + (t & 0x1F)
        elif t in sizes:
            items.append((pos, "int", 1)); pos += 1 + sizes[t]
        elif t in (0xD9, 0xDA, 0xDB, 0xC4, 0xC5, 0xC6):
            w = {0xD9: 1, 0xDA: 2, 0xDB: 4, 0xC4: 1, 0xC5: 2, 0xC6: 4}[t]
            n = int.from_bytes(data[pos + 1: pos + 1 + w], "big")
            items.append((pos, "str" if t >= 0xD9 else "bin", 1 + w)); pos += 1 + w + n
        elif t in (0xDC, 0xDD, 0xDE, 0xDF):
            w = 2 if t in (0xDC, 0xDE) else 4
            items.append((pos, "map" if t >= 0xDE else "array", 1 + w)); pos += 1 + w
        else:
            items.append((pos, "other", 1)); pos += 1
    return items


def m_msgpack(rng: random.Random, data: bytearray, lay: Layout) -> str:
    """One metadata item changed in place (the note keeps its size): a number to an edge value, a
    string to invalid UTF-8 or a wrong length, a container's count, or the item's type byte."""
    off, size = lay.note
    items = msgpack_items(data, off, off + size)
    if not items:
        return m_bitflips(rng, data, lay)
    pos, kind, hl = rng.choice(items)
    choice = rng.randrange(4)
    if choice == 0:  # another type byte
        new = rng.choice([0xC0, 0xC1, 0xC3, 0xC4, 0xCA, 0xCB, 0xCF, 0xD3, 0xD9, 0xDB, 0xDC, 0xDD, 0xDF, 0x9F, 0x8F,
                          0xBF, 0x7F, 0xE0, rng.randrange(256)])
        old, data[pos] = data[pos], new
        return f"msgpack item at {pos:#x} type {old:#x}->{new:#x}"
    if kind == "int":
        t = data[pos]
        width = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8}.get(t, 0)
        if width:
            old = int.from_bytes(data[pos + 1: pos + 1 + width], "big")
            new = interesting(rng, width, old)
            data[pos + 1: pos + 1 + width] = new.to_bytes(width, "big")
            return f"msgpack int at {pos:#x} {old:#x}->{new:#x}"
        new = rng.choice([0x7F, 0xFF, 0xE0, 0x00, rng.randrange(256)])
        data[pos] = new
        return f"msgpack fixint at {pos:#x} -> {new:#x}"
    if kind == "str" and choice == 1:  # invalid UTF-8 inside the string
        n = data[pos] & 0x1F if hl == 1 else 1
        if n:
            at = pos + hl + rng.randrange(n)
            data[at] = rng.choice([0xFF, 0xC3, 0x80, 0xED])
            return f"msgpack string at {pos:#x}: byte {at:#x} not UTF-8"
    # a length or count field: header bytes after the type (or the fix type's low bits)
    if hl == 1:
        low = {"str": 0x1F, "map": 0x0F, "array": 0x0F}.get(kind, 0)
        new = data[pos] & ~low | rng.randrange(low + 1)
        data[pos] = new & 0xFF
        return f"msgpack {kind} at {pos:#x} length -> {data[pos] & low}"
    old = int.from_bytes(data[pos + 1: pos + hl], "big")
    new = interesting(rng, hl - 1, old)
    data[pos + 1: pos + hl] = new.to_bytes(hl - 1, "big")
    return f"msgpack {kind} at {pos:#x} length {old}->{new}"


# s_branch -1 (a loop that never ends), s_endpgm, s_barrier, s_setpc to 0, s_trap, v_nop, garbage
WORDS = (0xBFA0FFFF, 0xBFB00000, 0xBFBD0000, 0xBE804800, 0xBF920000, 0x7E000000)


def m_instruction(rng: random.Random, data: bytearray, lay: Layout) -> str:
    off, size = lay.text
    if size < 4:
        return m_bitflips(rng, data, lay)
    at = off + 4 * rng.randrange(size // 4)
    old = _get(data, at, 4)
    new = rng.choice([*WORDS, rng.getrandbits(32), old ^ (1 << rng.randrange(32))])
    _put(data, at, 4, new)
    return f"instruction at {at:#x} {old:#010x}->{new:#010x}"


MUTATORS: dict[str, tuple[Callable[[random.Random, bytearray, Layout], str], int]] = {  # name -> (mutator, weight)
    "bitflips": (m_bitflips, 3), "byterun": (m_byterun, 2), "truncate": (m_truncate, 2),
    "elf_header": (m_elf_header, 2), "phdr": (m_phdr, 2), "shdr": (m_shdr, 2), "symbol": (m_symbol, 1),
    "reloc": (m_reloc, 1), "descriptor": (m_descriptor, 4), "note_header": (m_note_header, 1),
    "msgpack": (m_msgpack, 4), "instruction": (m_instruction, 4),
}


def mutate(built: Built, rng: random.Random) -> tuple[bytes, str]:
    """One to three mutations of one seed."""
    names = sorted(MUTATORS)
    data = bytearray(built.data)
    done = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        name = rng.choices(names, weights=[MUTATORS[n][1] for n in names])[0]
        if not data:
            break
        done.append(f"{name}: {MUTATORS[name][0](rng, data, built.layout)}")
    return bytes(data), "; ".join(done)


@dataclass
class Case:
    index: int
    built: Built
    path: Path
    what: str
    time_limit: float = EMU_TIME_LIMIT

    def argv(self) -> list[str]:
        b = self.built
        args = [x for fname, _ in b.seed.inputs for x in ("--arg", f"buf:{b.inputs / fname}")]
        args += [x for s in b.seed.scalars for x in ("--arg", s)]
        return ["emu-run", str(self.path), b.kernel, "--grid", GRID, "--block", BLOCK, *args,
                "--time-limit", str(self.time_limit)]


def make_case(seeds: list[Built], seed: str, i: int, folder: Path, time_limit: float = EMU_TIME_LIMIT) -> Case:
    rng = random.Random(f"{seed}:{i}")
    built = seeds[rng.randrange(len(seeds))]
    data, what = mutate(built, rng)
    path = folder / f"case{i}.co"
    path.write_bytes(data)
    return Case(i, built, path, what, time_limit)


# ---- running one case --------------------------------------------------------------------------

def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (HOST_MEMORY_LIMIT, HOST_MEMORY_LIMIT))


LIMITED = ("import os, resource, sys\n"
           "n = int(sys.argv[1]); resource.setrlimit(resource.RLIMIT_AS, (n, n))\n"
           "os.execv(sys.executable, [sys.executable, *sys.argv[2:]])\n")


def run_subprocess(case: Case, timeout: float) -> Result:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    return run_bounded([sys.executable, "-c", LIMITED, str(HOST_MEMORY_LIMIT), *CASS_CC[1:], *case.argv()],
                       timeout=timeout, env=env)


def run_inprocess(case: Case, timeout: float) -> Result:
    """Fork a worker that calls emu-run's main; its stderr goes to a file; killed at the time limit."""
    import signal

    from cass_cc.cli import main

    start = time.monotonic()
    with tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            code = 70
            try:
                os.setpgid(0, 0)
                _limit_memory()
                os.dup2(err.fileno(), 2)
                os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
                sys.stderr = os.fdopen(2, "w", buffering=1)
                code = main(case.argv())
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
            except BaseException:  # noqa: BLE001 - a traceback is the outcome being looked for
                traceback.print_exc()
            finally:
                sys.stderr.flush()
                os._exit(code & 0xFF)
        rc: int | None = None
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                rc = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() - start > timeout:
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
            time.sleep(0.005)
        err.seek(0)
        stderr = err.read()
    return Result(rc, b"", stderr, time.monotonic() - start)


def judge(case: Case, r: Result) -> str:
    """sort_outcome, and a refusal must be one line naming the file, stopped by our own limits."""
    outcome = sort_outcome(r)
    if outcome != "refused":
        return outcome
    text = r.stderr.decode(errors="replace")
    lines = text.splitlines()
    if len(lines) != 1 or str(case.path) not in lines[0] or "MemoryError" in text or "host memory" in text:
        return "disagrees"
    return outcome


def preload() -> None:
    """Import what every worker would import (forked workers then start warm)."""
    import cass_cc.emu.cli  # noqa: F401
    import cass_cc.emu.dispatch  # noqa: F401
    from tinygrad.renderer.amd import decode_inst  # noqa: F401


@click.command("codeobjects")
@click.option("--count", type=click.IntRange(min=0), default=200, show_default=True, help="how many mutants")
@click.option("--seed", default="0", show_default=True, help="case i is a function of (seed, i) alone")
@click.option("--start", type=click.IntRange(min=0), default=0, help="first case index")
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Tally JSON")
@click.option("--mode", type=click.Choice(["subprocess", "inprocess"]), default="subprocess", show_default=True,
              help="bin/cass-cc per case, or forked workers of this process (faster)")
@click.option("--work", type=click.Path(file_okay=False, path_type=Path),
              default=Path(tempfile.gettempdir()) / f"cass-hostile-{os.getuid()}" / "codeobjects", show_default=True,
              help="seeds' build cache and the mutants")
@click.option("--keep", is_flag=True, help="keep every mutant (else only the failing ones)")
@click.option("--timeout", type=float, default=TIMEOUT, show_default=True, help="seconds before a case is a hang")
@click.option("--time-limit", type=float, default=EMU_TIME_LIMIT, show_default=True,
              help="emu-run's own --time-limit (a kernel that loops forever is refused after it)")
def command(count: int, seed: str, start: int, report: Path | None, mode: str, work: Path, keep: bool,
            timeout: float, time_limit: float) -> None:
    """Mutated gfx1100 code objects through `cass-cc emu-run`: no traceback, no hang, one-line refusals."""
    tally = Tally("codeobjects")
    seeds = build_seeds(work)
    folder = work / "cases" / seed
    folder.mkdir(parents=True, exist_ok=True)
    if mode == "inprocess":
        preload()
    runner = run_inprocess if mode == "inprocess" else run_subprocess
    began = time.monotonic()
    per_mutator: dict[str, dict[str, int]] = {}
    def write_report() -> None:
        if report:
            data = tally.to_json() | {"seconds": round(time.monotonic() - began, 1), "mode": mode,
                                      "by_mutator": per_mutator}
            report.write_text(json.dumps(data, indent=1, default=str) + "\n")

    for i in range(start, start + count):
        if i > start and (i - start) % PROGRESS_EVERY == 0:  # a long run can be read while it goes
            click.echo(f"{tally.summary()} ({time.monotonic() - began:.0f} s)", err=True)
            write_report()
        case = make_case(seeds, seed, i, folder, time_limit)
        r = runner(case, timeout)
        outcome = judge(case, r)
        tally.add(outcome, {"case": i, "seed": seed, "kernel": case.built.seed.name, "what": case.what,
                            "rc": r.rc, "stderr": r.stderr.decode(errors="replace")[-2000:], "path": str(case.path)})
        for part in case.what.split("; "):
            counts = per_mutator.setdefault(part.split(":")[0], {})
            counts[outcome] = counts.get(outcome, 0) + 1
        if outcome in ("ok", "refused") and not keep:
            case.path.unlink(missing_ok=True)
    seconds = time.monotonic() - began
    click.echo(tally.summary() + f" ({seconds:.0f} s, {mode})")
    write_report()
    if tally.failures:
        raise SystemExit(1)
