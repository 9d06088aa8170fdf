"""Read a gfx1100 code object: code bytes, kernel descriptors (`<kernel>.kd`) and the metadata note.

Works for clang's `--cuda-device-only --no-gpu-bundle-output` output, `--emit-hsaco` output and
ld.lld-linked llvm-mc objects, code object v4 and v5. The metadata note (NT_AMDGPU_METADATA, type 32)
is MessagePack; a small reader for it lives here so the emulator needs no extra package.
"""
from __future__ import annotations

import hashlib
import io
import struct
from dataclasses import dataclass, field
from pathlib import Path

from .memory import EmuError

NT_AMDGPU_METADATA = 32


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

def unpack_msgpack(data: bytes):
    buf = io.BytesIO(data)

    def rd(n: int) -> bytes:
        b = buf.read(n)
        if len(b) != n:
            raise LoadError("truncated metadata note")
        return b

    def value():
        t = rd(1)[0]
        if t <= 0x7F:
            return t
        if t >= 0xE0:
            return t - 0x100
        if 0x80 <= t <= 0x8F:
            return {key(): value() for _ in range(t & 0x0F)}
        if 0x90 <= t <= 0x9F:
            return [value() for _ in range(t & 0x0F)]
        if 0xA0 <= t <= 0xBF:
            return rd(t & 0x1F).decode()
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
            return raw.decode() if t >= 0xD9 else raw
        if t in (0xDC, 0xDD):
            n = struct.unpack(">H" if t == 0xDC else ">I", rd(2 if t == 0xDC else 4))[0]
            return [value() for _ in range(n)]
        if t in (0xDE, 0xDF):
            n = struct.unpack(">H" if t == 0xDE else ">I", rd(2 if t == 0xDE else 4))[0]
            return {key(): value() for _ in range(n)}
        raise LoadError(f"metadata note: MessagePack type {t:#x} not understood")

    def key():
        k = value()
        return k if isinstance(k, (str, int)) else str(k)

    return value()


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
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile

    try:
        elf = ELFFile(io.BytesIO(data))
    except ELFError as e:
        raise LoadError(f"{path}: not an ELF file ({e})") from None
    if elf["e_machine"] not in ("EM_AMDGPU", 224):
        raise LoadError(f"{path}: not an AMDGPU code object (machine {elf['e_machine']})")
    size = 0
    for seg in elf.iter_segments():
        if seg["p_type"] == "PT_LOAD":
            size = max(size, seg["p_vaddr"] + seg["p_memsz"])
    image = bytearray(size)
    for seg in elf.iter_segments():
        if seg["p_type"] == "PT_LOAD":
            image[seg["p_vaddr"]: seg["p_vaddr"] + seg["p_filesz"]] = seg.data()
    if not size:  # a relocatable object: lay sections out at their offsets
        raise LoadError(f"{path}: no loadable segments (link it with ld.lld -shared first)")

    meta: dict = {}
    for sec in elf.iter_sections():
        if sec["sh_type"] != "SHT_NOTE":
            continue
        for note in sec.iter_notes():
            if note["n_name"] == "AMDGPU" and note["n_type"] in (NT_AMDGPU_METADATA, "NT_AMDGPU_METADATA"):
                desc = note["n_desc"]
                raw = desc if isinstance(desc, bytes) else desc.encode("latin-1")
                meta = unpack_msgpack(raw)
    version = tuple(meta.get("amdhsa.version", [1, 0]))[:2]
    target = meta.get("amdhsa.target", "")

    symtab = elf.get_section_by_name(".symtab") or elf.get_section_by_name(".dynsym")
    kds: dict[str, int] = {}
    if symtab is not None:
        for sym in symtab.iter_symbols():
            if sym.name.endswith(".kd"):
                kds[sym.name[:-3]] = sym["st_value"]
    kernels: dict[str, Kernel] = {}
    by_symbol = {k.get(".symbol", "")[:-3] if k.get(".symbol", "").endswith(".kd") else k.get(".name"): k
                 for k in meta.get("amdhsa.kernels", [])}
    for name, kd_addr in kds.items():
        desc = _descriptor(bytes(image[kd_addr: kd_addr + 64]), kd_addr)
        md = by_symbol.get(name, {})
        args = [Arg(a.get(".offset", 0), a.get(".size", 0), a.get(".value_kind", ""), a.get(".name", ""),
                    a.get(".address_space", "")) for a in md.get(".args", [])]
        kernels[name] = Kernel(
            name, desc, args,
            kernarg_size=md.get(".kernarg_segment_size", desc.kernarg_size),
            group_segment_size=md.get(".group_segment_fixed_size", desc.group_segment_size),
            private_segment_size=md.get(".private_segment_fixed_size", desc.private_segment_size),
            wavefront_size=md.get(".wavefront_size", 32 if desc.wave32 else 64),
            dynamic_lds=bool(md.get(".uses_dynamic_stack", False)),
        )
    if not kernels:
        raise LoadError(f"{path}: no kernel descriptors (<kernel>.kd symbols)")
    relocs = []
    for sec in elf.iter_sections():
        if sec["sh_type"] != "SHT_RELA" or not sec.name.startswith(".rela.dyn"):
            continue
        syms = elf.get_section(sec["sh_link"]) if sec["sh_link"] else None
        for r in sec.iter_relocations():
            kind = r["r_info_type"]
            if kind == 13:  # R_AMDGPU_RELATIVE64: load address + addend
                relocs.append((r["r_offset"], r["r_addend"]))
            elif kind == 3 and syms is not None:  # R_AMDGPU_ABS64 to a symbol of this image
                sym = syms.get_symbol(r["r_info_sym"])
                relocs.append((r["r_offset"], sym["st_value"] + r["r_addend"]))
    return CodeObject(path, bytes(image), kernels, (int(version[0]), int(version[1])), target, relocs)
