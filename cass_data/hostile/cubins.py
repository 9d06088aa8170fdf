"""`cass-data hostile cubins`: real cubins from nvcc, damaged, through `cass-cc --emit-rdna3`.

A few cubins are built once per run by the real nvcc (`nvcc -cubin -arch=sm_XX`, which needs
no GPU) from KERNELS. Case i of seed S takes one of them and applies one to three mutations
drawn from Random(f"{S}:{i}") (so any case can be rebuilt alone): bit flips, truncation, an ELF
header field, a section header field, a symbol, an .nv.info attribute record, an instruction
word in a .text section. Every run is bounded twice: cass-cc's own per-tool deadline
(CASS_TOOL_TIMEOUT) must stop a looping nvdisasm or llc first, and run_bounded's limit,
well past the sum of those deadlines, catches cass-cc itself hanging.

Outcomes: ok (exit 0 and the output written), refused (non-zero exit, no output),
refused-timeout (cass-cc stopped a tool at its deadline: bounded, so no failure), and the
failures: traceback, hang, and `disagrees` (exit 0 without the output, or a failed run that
left an output behind).
"""
from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

from .common import CASS_CC, Result, Tally, finish, run_bounded, sort_outcome

# Kernels that give the lifter varied SASS: global and shared memory, a loop, a barrier,
# atomics, doubles, a constant bank, a switch, several parameters of several sizes.
KERNELS = r"""
__constant__ float coeffs[8];
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void reduce(const int* in, int* out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t == 0) atomicAdd(out, s[0]);
}
__global__ void poly(const double* x, double* y, long n, char mode) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i], acc = 0.0;
  for (int k = 0; k < 8; ++k) acc = acc * v + coeffs[k];
  switch (mode) { case 1: acc = sqrt(fabs(acc)); break; case 2: acc = exp(acc); break; default: break; }
  y[i] = acc;
}
"""
ARCHS = ("sm_80", "sm_89", "sm_90")
TOOLS_IN_PIPELINE = 5  # c++filt, nvdisasm, opt, llc, llvm-mc: each may use its whole deadline


# ---- the cubins to damage ------------------------------------------------------------


def find_nvcc() -> str | None:
    """The real nvcc (never a cass-cc shim on PATH): CASS_NVCC, the CUDA folders, then PATH."""
    from cass_cc.toolchain import Toolchain, ToolchainError

    try:
        return Toolchain(os.environ).nvcc.path
    except ToolchainError:
        return None


def build_bases(folder: Path, nvcc: str) -> list[Path]:
    """One cubin per target in ARCHS, from KERNELS, by the real nvcc."""
    folder.mkdir(parents=True, exist_ok=True)
    src = folder / "kernels.cu"
    src.write_text(KERNELS)
    out: list[Path] = []
    for arch in ARCHS:
        cubin = folder / f"kernels.{arch}.cubin"
        proc = subprocess.run([nvcc, "-cubin", f"-arch={arch}", str(src), "-o", str(cubin)],
                              capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            raise click.ClickException(f"{nvcc} -cubin -arch={arch} failed: {proc.stderr.strip()[:300]}")
        out.append(cubin)
    return out


# ---- ELF layout (ELF64, little-endian: what nvcc writes) -------------------------------

# (name, offset, size) of the ELF header fields and of a section header's fields.
EHDR = (("EI_CLASS", 4, 1), ("EI_DATA", 5, 1), ("e_type", 16, 2), ("e_machine", 18, 2), ("e_version", 20, 4),
        ("e_entry", 24, 8), ("e_phoff", 32, 8), ("e_shoff", 40, 8), ("e_flags", 48, 4), ("e_ehsize", 52, 2),
        ("e_phentsize", 54, 2), ("e_phnum", 56, 2), ("e_shentsize", 58, 2), ("e_shnum", 60, 2), ("e_shstrndx", 62, 2))
SHDR = (("sh_name", 0, 4), ("sh_type", 4, 4), ("sh_flags", 8, 8), ("sh_addr", 16, 8), ("sh_offset", 24, 8),
        ("sh_size", 32, 8), ("sh_link", 40, 4), ("sh_info", 44, 4), ("sh_addralign", 48, 8), ("sh_entsize", 56, 8))
SYM = (("st_name", 0, 4), ("st_info", 4, 1), ("st_other", 5, 1), ("st_shndx", 6, 2), ("st_value", 8, 8), ("st_size", 16, 8))
SHT_SYMTAB = 2


def sections(data: bytes) -> list[tuple[str, int, int, int, int]]:
    """(name, header offset, sh_type, sh_offset, sh_size) of each section of an intact cubin."""
    shoff, = struct.unpack_from("<Q", data, 40)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 58)
    headers = []
    for i in range(shnum):
        at = shoff + i * shentsize
        name, kind = struct.unpack_from("<II", data, at)
        offset, size = struct.unpack_from("<QQ", data, at + 24)
        headers.append((name, at, kind, offset, size))
    strtab_off, strtab_size = headers[shstrndx][3], headers[shstrndx][4]
    strtab = data[strtab_off:strtab_off + strtab_size]
    out = []
    for name, at, kind, offset, size in headers:
        end = strtab.find(b"\0", name)
        out.append((strtab[name:end].decode("latin-1"), at, kind, offset, size))
    return out


def interesting(rng: random.Random, old: int, size: int) -> int:
    """A value for an integer field of `size` bytes: the edges, near the old value, or random."""
    top = (1 << (8 * size)) - 1
    choices = (0, 1, top, top >> 1, (top >> 1) + 1, old + 1, old - 1, old * 2, old + 4096, old >> 1,
               rng.randrange(top + 1), rng.randrange(256))
    return rng.choice(choices) & top


def put(data: bytearray, offset: int, size: int, value: int) -> None:
    data[offset:offset + size] = value.to_bytes(size, "little")


def get(data: bytes | bytearray, offset: int, size: int) -> int:
    return int.from_bytes(data[offset:offset + size], "little")


# ---- mutations: each changes `data` in place and says what it did ---------------------


def flip_bits(data: bytearray, rng: random.Random) -> str:
    spots = [rng.randrange(len(data) * 8) for _ in range(rng.randint(1, 8))]
    for bit in spots:
        data[bit // 8] ^= 1 << (bit % 8)
    return f"flip bits {','.join(map(str, spots))}"


def truncate(data: bytearray, rng: random.Random) -> str:
    keep = rng.choice((0, 1, 4, 16, 63, 64, rng.randrange(len(data)), len(data) - rng.randint(1, 64)))
    keep = max(0, min(keep, len(data) - 1))
    del data[keep:]
    return f"truncate to {keep}"


def elf_header(data: bytearray, rng: random.Random) -> str:
    name, offset, size = rng.choice(EHDR)
    value = interesting(rng, get(data, offset, size), size)
    put(data, offset, size, value)
    return f"{name}={value:#x}"


def section_header(data: bytearray, rng: random.Random) -> str:
    secs = sections(bytes(data))
    sec = rng.choice(secs)
    name, offset, size = rng.choice(SHDR)
    value = interesting(rng, get(data, sec[1] + offset, size), size)
    put(data, sec[1] + offset, size, value)
    return f"section {sec[0] or '<null>'} {name}={value:#x}"


def symbol(data: bytearray, rng: random.Random) -> str:
    symtab = next(((n, off, size) for n, _, kind, off, size in sections(bytes(data)) if kind == SHT_SYMTAB), None)
    if symtab is None or symtab[2] < 48:
        return flip_bits(data, rng)
    index = rng.randrange(1, symtab[2] // 24)
    name, offset, size = rng.choice(SYM)
    at = symtab[1] + index * 24 + offset
    value = interesting(rng, get(data, at, size), size)
    put(data, at, size, value)
    return f"symbol {index} {name}={value:#x}"


def nv_info(data: bytearray, rng: random.Random) -> str:
    """One EIATTR record of an .nv.info section: its format, attribute, size or value bytes."""
    infos = [s for s in sections(bytes(data)) if s[0].startswith(".nv.info") and s[4] >= 4]
    if not infos:
        return flip_bits(data, rng)
    name, _, _, start, size = rng.choice(infos)
    records, i = [], 0
    while i + 4 <= size:
        records.append(start + i)
        fmt = data[start + i]
        i += 4 + (get(data, start + i + 2, 2) if fmt == 4 else 0)
    at = rng.choice(records)
    part = rng.choice(("format", "attribute", "size", "value"))
    if part == "format":
        data[at] = rng.choice((0, 1, 2, 3, 4, 5, 0xFF))
    elif part == "attribute":
        data[at + 1] = rng.randrange(256)
    elif part == "size":
        put(data, at + 2, 2, interesting(rng, get(data, at + 2, 2), 2))
    else:
        end = min(start + size, at + 4 + get(data, at + 2, 2))
        for j in range(at + 4, end, 4):
            if rng.random() < 0.5:
                put(data, j, min(4, end - j), interesting(rng, get(data, j, 4), min(4, end - j)))
    return f"{name} record at {at - start} {part}"


def instruction(data: bytearray, rng: random.Random) -> str:
    """One 128-bit instruction of a kernel's .text: new opcode/operand bits, new control
    bits, a copy of another instruction, or the whole word random."""
    texts = [s for s in sections(bytes(data)) if s[0].startswith(".text.") and s[4] >= 16]
    if not texts:
        return flip_bits(data, rng)
    name, _, _, start, size = rng.choice(texts)
    at = start + 16 * rng.randrange(size // 16)
    how = rng.choice(("opcode", "operands", "control", "copy", "random"))
    if how == "opcode":  # the low 12 bits select the instruction
        put(data, at, 2, (get(data, at, 2) & ~0xFFF) | rng.randrange(0x1000))
    elif how == "operands":
        bit = rng.randrange(12, 64)
        put(data, at, 8, get(data, at, 8) ^ (1 << bit))
    elif how == "control":
        put(data, at + 8, 8, rng.getrandbits(64))
    elif how == "copy":
        src = start + 16 * rng.randrange(size // 16)
        data[at:at + 16] = data[src:src + 16]
    else:
        data[at:at + 16] = rng.randbytes(16)
    return f"{name}+{at - start:#x} {how}"


MUTATIONS: tuple[Callable[[bytearray, random.Random], str], ...] = (
    flip_bits, truncate, elf_header, section_header, symbol, nv_info, instruction, instruction)


def mutate(base: bytes, rng: random.Random) -> tuple[bytes, str]:
    """1 to 3 mutations of `base`; the section table is read before each, so a later one
    works on what is left and falls back to bit flips where the layout is gone."""
    data = bytearray(base)
    done = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        step = rng.choice(MUTATIONS)
        try:
            done.append(step(data, rng))
        except (struct.error, IndexError, ValueError, OverflowError):  # offsets past ssize_t: OverflowError
            done.append(flip_bits(data, rng))
        if not data:
            break
    return bytes(data), "; ".join(done)


# ---- running ----------------------------------------------------------------------------


def case(bases: list[Path], seed: int, i: int) -> tuple[str, bytes, str]:
    """(base name, mutated bytes, description) of case i: a function of (seed, i) only."""
    rng = random.Random(f"{seed}:{i}")
    base = rng.choice(bases)
    data, what = mutate(base.read_bytes(), rng)
    return base.name, data, what


def cass_env(tool_timeout: float) -> dict[str, str]:
    """cass-cc's environment: its tool deadline set, and no CASS model (the lifter's verdict only)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASS_MODEL")}
    env["CASS_TOOL_TIMEOUT"] = f"{tool_timeout:g}"
    return env


def judge(r: Result, out: Path) -> str:
    outcome = sort_outcome(r)
    if outcome in ("hang", "traceback"):
        return outcome
    written = out.exists() and out.stat().st_size > 0
    if (outcome == "ok") != written:
        return "disagrees"  # success without the file, or a failure that left one
    if outcome == "refused" and b"did not finish in" in r.stderr:
        return "refused-timeout"
    return outcome


def run_case(bases: list[Path], seed: int, i: int, work: Path, tool_timeout: float, limit: float,
             keep: Path | None) -> tuple[str, dict]:
    base, data, what = case(bases, seed, i)
    with tempfile.TemporaryDirectory(prefix=f"c{i}-", dir=work) as tmp:
        cubin, out = Path(tmp, f"case{i}.cubin"), Path(tmp, f"case{i}.s")
        cubin.write_bytes(data)
        r = run_bounded([*CASS_CC, "--emit-rdna3", str(cubin), "-o", str(out)], timeout=limit, cwd=tmp,
                        env=cass_env(tool_timeout))
        outcome = judge(r, out)
        if outcome in ("traceback", "hang", "disagrees") and keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(cubin, keep / f"{seed}-{i}.cubin")
    tail = r.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
    return outcome, {"case": f"{seed}:{i}", "base": base, "mutation": what, "rc": r.rc,
                     "seconds": round(r.seconds, 1), "stderr": tail}


def run(count: int, seed: int, *, jobs: int = 1, tool_timeout: float = 10.0, limit: float | None = None,
        keep: Path | None = None, nvcc: str | None = None, start: int = 0) -> tuple[Tally, float]:
    """Cases start..start+count-1 of `seed`; returns the tally and the seconds taken."""
    nvcc = nvcc or find_nvcc()
    if not nvcc:
        raise click.ClickException("the real nvcc is needed to build the cubins (set CASS_NVCC)")
    # cass-cc's own deadlines must fire first: past all of them together, it is cass-cc hanging
    limit = limit or TOOLS_IN_PIPELINE * tool_timeout + 60
    tally = Tally("cubins")
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hostile-cubins-") as tmp:
        work = Path(tmp)
        bases = build_bases(work / "bases", nvcc)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = pool.map(lambda i: run_case(bases, seed, i, work, tool_timeout, limit, keep),
                               range(start, start + count))
            for outcome, example in results:
                tally.add(outcome, example)
    return tally, time.monotonic() - began


@click.command("cubins")
@click.option("--count", default=100, show_default=True, help="cases to run")
@click.option("--seed", default=0, show_default=True, help="case i is Random(f'{seed}:{i}')")
@click.option("--start", default=0, show_default=True, help="first case index (to resume or split a run)")
@click.option("--jobs", "-j", default=1, show_default=True, help="cases run at once")
@click.option("--tool-timeout", default=10.0, show_default=True, help="CASS_TOOL_TIMEOUT given to cass-cc (seconds)")
@click.option("--limit", type=float, default=None, help="seconds before a run counts as a hang (default: 5 tool timeouts + 60)")
@click.option("--keep", type=click.Path(path_type=Path), default=None, help="copy each failing cubin here")
@click.option("--report", type=click.Path(path_type=Path), default=None, help="write the tally as JSON here")
def command(count: int, seed: int, start: int, jobs: int, tool_timeout: float, limit: float | None,
            keep: Path | None, report: Path | None) -> None:
    """Mutated nvcc cubins through `cass-cc --emit-rdna3`: never a traceback or a hang."""
    tally, seconds = run(count, seed, jobs=jobs, tool_timeout=tool_timeout, limit=limit, keep=keep, start=start)
    finish(tally, seconds, report, f"{seconds / max(count, 1):.2f} s a case")
