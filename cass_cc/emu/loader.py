"""Read a gfx1100 code object: code bytes, kernel descriptors (`<kernel>.kd`) and the metadata note.

Works for clang's `--cuda-device-only --no-gpu-bundle-output` output, `--emit-hsaco` output and
ld.lld-linked llvm-mc objects, code object v4 and v5. The metadata note (NT_AMDGPU_METADATA, type 32)
is MessagePack; a small reader for it lives here so the emulator needs no extra package. The ELF
structure is read by elf.py, which checks every offset against the file; the sizes a kernel states
are checked against gfx1100's limits below. A damaged file is one LoadError naming it.
"""
from __future__ import annotations

import hashlib
import io
import struct
from dataclasses import dataclass, field
from pathlib import Path

from .elf import EM_AMDGPU, PT_LOAD, SHT_DYNSYM, SHT_NOTE, SHT_RELA, SHT_SYMTAB, Elf, ElfError
from .memory import MEMORY_BUDGET, EmuError

NT_AMDGPU_METADATA = 32
R_AMDGPU_ABS64, R_AMDGPU_RELATIVE64 = 3, 13

# What gfx1100 and the HSA ABI allow. Every size a code object states is checked against these
# before it becomes an allocation: a flipped bit in a size field must be a refusal, not 32 GiB.
LDS_MAX = 64 * 1024  # LDS per workgroup (group segment + dynamic) on gfx11
# COMPUTE_TMPRING_SIZE.WAVESIZE on gfx11: 15 bits in units of 256 bytes per wave (LLVM's
# getMaxWaveScratchSize); per lane of a wave32 wave that is 262,136 bytes
SCRATCH_PER_LANE_MAX = ((1 << 15) - 1) * 256 // 32
# CUDA 12.1+ passes up to 32,764 bytes of kernel parameters; code object v5 adds 256 bytes of
# hidden arguments. 64 KiB is past anything clang emits for a CUDA or HIP kernel.
KERNARG_MAX = 64 * 1024
VGPR_MAX = 256  # a wave32 wave addresses v0..v255
ENTRY_ALIGN = 256  # kernel code entries are 256-byte aligned (AMDGPUUsage, kernel descriptor)
# The loaded image (segments at their addresses, .bss and gaps zero-filled) is copied a few times
# on its way into device memory; at 1 GiB that took 8 CPU seconds before the first instruction.
# 256 MiB is far past the code and __device__ data of the kernels this emulator is for.
IMAGE_MAX = min(256 << 20, MEMORY_BUDGET)


class LoadError(EmuError):
    pass


@dataclass
class Arg:
    offset: int
    size: int
    kind: str  # .value_kind: global_buffer, by_value, hidden_block_count_x, ...
    name: str = ""
    address_space: str = ""


@dataclass
class Descriptor:
    group_segment_size: int
    private_segment_size: int
    kernarg_size: int
    entry: int  # address of the first instruction
    rsrc1: int
    rsrc2: int
    rsrc3: int
    properties: int

    @property
    def user_sgpr_count(self) -> int:
        return (self.rsrc2 >> 1) & 0x1F

    @property
    def vgpr_count(self) -> int:  # wave32 granule of 8
        return ((self.rsrc1 & 0x3F) + 1) * 8

    @property
    def denorm_f32(self) -> int:  # 0 flush in and out ... 3 keep
        return (self.rsrc1 >> 16) & 3

    @property
    def round_f32(self) -> int:
        return (self.rsrc1 >> 12) & 3

    @property
    def initial_mode(self) -> int:
        """MODE at wave start: FLOAT_ROUND_MODE_32/16_64 -> [3:0], FLOAT_DENORM_MODE_32/16_64 -> [7:4],
        DX10_CLAMP -> 8, IEEE_MODE -> 9 (from rsrc1 bits 12-19, 21, 23)."""
        return ((self.rsrc1 >> 12) & 0xFF) | ((self.rsrc1 >> 21) & 1) << 8 | ((self.rsrc1 >> 23) & 1) << 9

    @property
    def tidig_count(self) -> int:
        return (self.rsrc2 >> 11) & 3

    @property
    def wave32(self) -> bool:
        return bool(self.properties & (1 << 10))


@dataclass
class Kernel:
    name: str
    descriptor: Descriptor
    args: list[Arg] = field(default_factory=list)
    kernarg_size: int = 0
    group_segment_size: int = 0
    private_segment_size: int = 0
    wavefront_size: int = 32
    dynamic_lds: bool = False


@dataclass
class CodeObject:
    path: str
    code: bytes  # the loaded image: bytes at their virtual addresses (from 0)
    kernels: dict[str, Kernel]
    version: tuple[int, int]
    target: str
    relocs: list[tuple[int, int]] = field(default_factory=list)  # (image offset, value before adding the load address)

    def image_at(self, base: int) -> bytes:
        """The image loaded at device address base, dynamic relocations applied."""
        img = bytearray(self.code)
        for off, value in self.relocs:
            struct.pack_into("<Q", img, off, (base + value) & 0xFFFFFFFFFFFFFFFF)
        return bytes(img)

    def kernel(self, name: str) -> Kernel:
        if name in self.kernels:
            return self.kernels[name]
        raise LoadError(f"{self.path}: no kernel {name!r} (has: {', '.join(sorted(self.kernels)) or 'none'})")


# ---- MessagePack -----------------------------------------------------------------------------

MSGPACK_DEPTH = 32  # the metadata nests 4 deep (map, kernels, kernel, args); more is damage


def unpack_msgpack(data: bytes):
    """One MessagePack value from data (trailing bytes ignored); LoadError for anything malformed."""
    buf = io.BytesIO(data)

    def rd(n: int) -> bytes:
        b = buf.read(n)
        if len(b) != n:
            raise LoadError("metadata note: MessagePack truncated")
        return b

    def text(raw: bytes) -> str:
        try:
            return raw.decode()
        except UnicodeDecodeError:
            raise LoadError(f"metadata note: string {raw[:40]!r} is not UTF-8") from None

    def value(depth: int):
        if depth > MSGPACK_DEPTH:
            raise LoadError(f"metadata note: MessagePack nested deeper than {MSGPACK_DEPTH}")
        t = rd(1)[0]
        if t <= 0x7F:
            return t
        if t >= 0xE0:
            return t - 0x100
        if 0x80 <= t <= 0x8F:
            return {key(depth): value(depth + 1) for _ in range(t & 0x0F)}
        if 0x90 <= t <= 0x9F:
            return [value(depth + 1) for _ in range(t & 0x0F)]
        if 0xA0 <= t <= 0xBF:
            return text(rd(t & 0x1F))
        simple = {0xC0: None, 0xC2: False, 0xC3: True}
        if t in simple:
            return simple[t]
        ints = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q",
                0xCA: ">f", 0xCB: ">d"}
        if t in ints:
            fmt = ints[t]
            return struct.unpack(fmt, rd(struct.calcsize(fmt)))[0]
        strs = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I", 0xC4: ">B", 0xC5: ">H", 0xC6: ">I"}
        if t in strs:
            fmt = strs[t]
            n = struct.unpack(fmt, rd(struct.calcsize(fmt)))[0]
            raw = rd(n)
            return text(raw) if t >= 0xD9 else raw
        # a count is not trusted: each element takes at least one byte, so a count past the end
        # stops at the first missing byte instead of building a huge list first
        if t in (0xDC, 0xDD):
            n = struct.unpack(">H" if t == 0xDC else ">I", rd(2 if t == 0xDC else 4))[0]
            return [value(depth + 1) for _ in range(n)]
        if t in (0xDE, 0xDF):
            n = struct.unpack(">H" if t == 0xDE else ">I", rd(2 if t == 0xDE else 4))[0]
            return {key(depth): value(depth + 1) for _ in range(n)}
        raise LoadError(f"metadata note: MessagePack type {t:#x} not understood")

    def key(depth: int):
        k = value(depth + 1)
        return k if isinstance(k, (str, int)) else str(k)

    return value(0)


# ---- ELF ---------------------------------------------------------------------------------------

def _descriptor(raw: bytes, kd_addr: int) -> Descriptor:
    if len(raw) < 64:
        raise LoadError("kernel descriptor shorter than 64 bytes")
    group, private, kernarg = struct.unpack_from("<III", raw, 0)
    entry_off = struct.unpack_from("<q", raw, 16)[0]
    rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", raw, 44)
    props = struct.unpack_from("<H", raw, 56)[0]
    return Descriptor(group, private, kernarg, kd_addr + entry_off, rsrc1, rsrc2, rsrc3, props)


_LOADED: dict[tuple[str, bytes], CodeObject] = {}
CACHE_SIZE = 64


def load(path: str | Path) -> CodeObject:
    """Read a code object (parsed once per process for the same path and contents)."""
    path = str(path)
    try:
        if Path(path).stat().st_size > MEMORY_BUDGET:
            raise LoadError(f"{path}: {Path(path).stat().st_size} bytes, more than the emulator's "
                            f"{MEMORY_BUDGET >> 20} MiB memory budget")
        data = Path(path).read_bytes()
    except OSError as e:
        raise LoadError(f"{path}: {e.strerror}") from None
    key = (path, hashlib.sha256(data).digest())
    co = _LOADED.get(key)
    if co is None:
        co = _parse(path, data)
        if len(_LOADED) >= CACHE_SIZE:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = co
    return co


def _parse(path: str, data: bytes) -> CodeObject:
    try:
        elf = Elf(data)
    except ElfError as e:
        raise LoadError(f"{path}: {e}") from None
    if elf.machine != EM_AMDGPU:
        raise LoadError(f"{path}: not an AMDGPU code object (ELF machine {elf.machine}, want {EM_AMDGPU})")
    try:
        image = _image(path, elf)
        meta = _metadata(path, elf)
        kernels = _kernels(path, elf, image, meta)
        relocs = _relocations(path, elf, len(image))
    except ElfError as e:
        raise LoadError(f"{path}: {e}") from None
    version = meta.get("amdhsa.version", [1, 0])
    if not (isinstance(version, list) and len(version) >= 2 and all(_is_int(v) for v in version[:2])):
        raise LoadError(f"{path}: metadata note: amdhsa.version is {version!r}, not [major, minor]")
    target = meta.get("amdhsa.target", "")
    if not isinstance(target, str):
        raise LoadError(f"{path}: metadata note: amdhsa.target is {target!r}, not a string")
    return CodeObject(path, bytes(image), kernels, (version[0], version[1]), target, relocs)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _image(path: str, elf: Elf) -> bytearray:
    """PT_LOAD segments at their virtual addresses; the span is bounded before anything is allocated."""
    loads = [(i, s) for i, s in enumerate(elf.segments) if s.type == PT_LOAD]
    size = max((s.vaddr + s.memsz for _, s in loads), default=0)
    if not size:  # a relocatable object: lay sections out at their offsets
        raise LoadError(f"{path}: no loadable segments (link it with ld.lld -shared first)")
    if size > IMAGE_MAX:
        raise LoadError(f"{path}: loadable segments span {size:#x} bytes, more than the emulator's "
                        f"{IMAGE_MAX >> 20} MiB budget for a code object's image")
    image = bytearray(size)
    for i, s in loads:
        if s.filesz > s.memsz:
            raise LoadError(f"{path}: program header {i}: {s.filesz} bytes in the file but {s.memsz} in memory")
        image[s.vaddr: s.vaddr + s.filesz] = elf.bytes(s.offset, s.filesz, f"loadable segment {i}")
    return image


def _metadata(path: str, elf: Elf) -> dict:
    meta: object = {}
    for sec in elf.sections:
        if sec.type != SHT_NOTE:
            continue
        for name, kind, desc in elf.notes(sec):
            if name == b"AMDGPU" and kind == NT_AMDGPU_METADATA:
                try:
                    meta = unpack_msgpack(desc)
                except LoadError as e:
                    raise LoadError(f"{path}: {e}") from None
    if not isinstance(meta, dict):
        raise LoadError(f"{path}: metadata note: a {type(meta).__name__}, not a map")
    return meta


def _meta_int(md: dict, key: str, default: int, limit: int, where: str) -> int:
    """md[key] as an int in 0..limit, or LoadError naming the field."""
    v = md.get(key, default)
    if not _is_int(v):
        raise LoadError(f"{where}: {key} is {v!r}, not an integer")
    if not 0 <= v <= limit:
        raise LoadError(f"{where}: {key} of {v} (at most {limit})")
    return v


def _meta_str(md: dict, key: str, where: str) -> str:
    v = md.get(key, "")
    if not isinstance(v, str):
        raise LoadError(f"{where}: {key} is {v!r}, not a string")
    return v


def _kernel_records(path: str, meta: dict) -> dict[str, dict]:
    """The metadata's kernel maps by symbol name (without .kd)."""
    records = meta.get("amdhsa.kernels", [])
    if not isinstance(records, list) or not all(isinstance(k, dict) for k in records):
        raise LoadError(f"{path}: metadata note: amdhsa.kernels is not a list of maps")
    out = {}
    for k in records:
        symbol = _meta_str(k, ".symbol", f"{path}: metadata note")
        out[symbol[:-3] if symbol.endswith(".kd") else _meta_str(k, ".name", f"{path}: metadata note")] = k
    return out


def _args(md: dict, where: str) -> list[Arg]:
    records = md.get(".args", [])
    if not isinstance(records, list) or not all(isinstance(a, dict) for a in records):
        raise LoadError(f"{where}: .args is not a list of maps")
    out = []
    for i, a in enumerate(records):
        at = f"{where}: argument {i}"
        arg = Arg(_meta_int(a, ".offset", 0, KERNARG_MAX, at), _meta_int(a, ".size", 0, KERNARG_MAX, at),
                  _meta_str(a, ".value_kind", at), _meta_str(a, ".name", at), _meta_str(a, ".address_space", at))
        if arg.offset + arg.size > KERNARG_MAX:
            raise LoadError(f"{at}: ends at byte {arg.offset + arg.size} of the kernarg segment "
                            f"(at most {KERNARG_MAX})")
        if arg.kind in ("global_buffer", "dynamic_shared_pointer") and arg.size != 8:
            raise LoadError(f"{at}: a {arg.kind} of {arg.size} bytes (pointers take 8)")
        out.append(arg)
    return out


def _kernels(path: str, elf: Elf, image: bytearray, meta: dict) -> dict[str, Kernel]:
    symtab = next((s for s in elf.sections if s.type == SHT_SYMTAB), None) or \
        next((s for s in elf.sections if s.type == SHT_DYNSYM), None)
    kds = {sym.name[:-3]: sym.value for sym in (elf.symbols(symtab) if symtab else []) if sym.name.endswith(".kd")}
    by_symbol = _kernel_records(path, meta)
    kernels: dict[str, Kernel] = {}
    for name, kd_addr in kds.items():
        if kd_addr + 64 > len(image):
            raise LoadError(f"{path}: kernel descriptor {name}.kd at {kd_addr:#x} is outside the loaded image "
                            f"({len(image):#x} bytes)")
        desc = _descriptor(bytes(image[kd_addr: kd_addr + 64]), kd_addr)
        _check_descriptor(path, name, desc, len(image))
        md = by_symbol.get(name, {})
        where = f"{path}: metadata note: kernel {name}"
        wave = _meta_int(md, ".wavefront_size", 32 if desc.wave32 else 64, 64, where)
        if wave not in (32, 64):
            raise LoadError(f"{where}: .wavefront_size of {wave} (32 or 64)")
        kernels[name] = Kernel(
            name, desc, _args(md, where),
            kernarg_size=_meta_int(md, ".kernarg_segment_size", desc.kernarg_size, KERNARG_MAX, where),
            group_segment_size=_meta_int(md, ".group_segment_fixed_size", desc.group_segment_size, LDS_MAX, where),
            private_segment_size=_meta_int(md, ".private_segment_fixed_size", desc.private_segment_size,
                                           SCRATCH_PER_LANE_MAX, where),
            wavefront_size=wave,
            dynamic_lds=bool(md.get(".uses_dynamic_stack", False)),
        )
    if not kernels:
        raise LoadError(f"{path}: no kernel descriptors (<kernel>.kd symbols)")
    return kernels


def _check_descriptor(path: str, name: str, d: Descriptor, image_size: int) -> None:
    """The descriptor's sizes and entry against what gfx1100 allows (see the limits at the top)."""
    where = f"{path}: kernel descriptor {name}.kd"
    for what, value, limit in (("group segment (LDS)", d.group_segment_size, LDS_MAX),
                               ("private segment (scratch per lane)", d.private_segment_size, SCRATCH_PER_LANE_MAX),
                               ("kernarg segment", d.kernarg_size, KERNARG_MAX),
                               ("VGPR count", d.vgpr_count, VGPR_MAX)):
        if value > limit:
            raise LoadError(f"{where}: {what} of {value} (gfx1100 allows at most {limit})")
    if not 0 <= d.entry < image_size or d.entry % ENTRY_ALIGN:
        raise LoadError(f"{where}: kernel code entry at {d.entry:#x} is outside the image or not "
                        f"{ENTRY_ALIGN}-byte aligned")


def _relocations(path: str, elf: Elf, image_size: int) -> list[tuple[int, int]]:
    relocs = []
    for sec in elf.sections:
        if sec.type != SHT_RELA or not sec.name.startswith(".rela.dyn"):
            continue
        syms = elf.symbols(elf.linked(sec, (SHT_DYNSYM, SHT_SYMTAB), "symbol table")) if sec.link else None
        for r in elf.relas(sec):
            if r.type not in (R_AMDGPU_ABS64, R_AMDGPU_RELATIVE64):
                continue
            if not 0 <= r.offset <= image_size - 8:
                raise LoadError(f"{path}: relocation at {r.offset:#x} outside the image ({image_size:#x} bytes)")
            if r.type == R_AMDGPU_RELATIVE64:  # load address + addend
                relocs.append((r.offset, r.addend))
            elif syms is not None:  # R_AMDGPU_ABS64 to a symbol of this image
                if r.sym >= len(syms):
                    raise LoadError(f"{path}: relocation at {r.offset:#x} names symbol {r.sym} of {len(syms)}")
                relocs.append((r.offset, syms[r.sym].value + r.addend))
    return relocs
