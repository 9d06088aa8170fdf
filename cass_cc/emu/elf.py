"""A bounds-checked reader of the ELF64 little-endian files AMDGPU code objects are.

Only what the loader needs: program headers, section headers and names, notes, symbols and RELA
entries. Every offset, size and count read from the file is checked against the file before it
is used, and anything that does not fit raises ElfError with a sentence saying what (pyelftools,
used before, raised a dozen exception types on damaged files, and trusted sizes it read).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass


class ElfError(Exception):
    """The file is not a well-formed ELF64 little-endian object."""


EM_AMDGPU = 224
PT_LOAD = 1
SHT_SYMTAB, SHT_NOTE, SHT_RELA, SHT_DYNSYM = 2, 7, 4, 11
EHDR = struct.Struct("<16sHHIQQQIHHHHHH")  # Elf64_Ehdr, 64 bytes
PHDR = struct.Struct("<IIQQQQQQ")  # Elf64_Phdr, 56 bytes
SHDR = struct.Struct("<IIQQQQIIQQ")  # Elf64_Shdr, 64 bytes
SYM = struct.Struct("<IBBHQQ")  # Elf64_Sym, 24 bytes
RELA = struct.Struct("<QQq")  # Elf64_Rela, 24 bytes
NOTE = struct.Struct("<III")  # namesz, descsz, type


@dataclass(frozen=True)
class Segment:
    type: int
    offset: int
    vaddr: int
    filesz: int
    memsz: int


@dataclass(frozen=True)
class Section:
    index: int
    name: str
    type: int
    offset: int
    size: int
    link: int
    entsize: int


@dataclass(frozen=True)
class Symbol:
    name: str
    value: int


@dataclass(frozen=True)
class Rela:
    offset: int
    type: int
    sym: int
    addend: int


class Elf:
    def __init__(self, data: bytes) -> None:
        self.data = data
        if len(data) < EHDR.size or data[:4] != b"\x7fELF":
            raise ElfError("not an ELF file")
        ident, _, self.machine, _, _, phoff, shoff, _, _, phentsize, phnum, shentsize, shnum, shstrndx = \
            EHDR.unpack_from(data)
        if ident[4] != 2 or ident[5] != 1:  # ELFCLASS64, ELFDATA2LSB: every AMDGPU code object
            raise ElfError("not a 64-bit little-endian ELF file")
        self.segments = [Segment(*(PHDR.unpack(raw)[i] for i in (0, 2, 3, 5, 6)))
                         for raw in self._table(phoff, phentsize, phnum, PHDR.size, "program header")]
        headers = [SHDR.unpack(raw) for raw in self._table(shoff, shentsize, shnum, SHDR.size, "section header")]
        names = b""
        if headers and shstrndx:
            if shstrndx >= len(headers):
                raise ElfError(f"section name table index {shstrndx} out of range ({len(headers)} sections)")
            names = self.bytes(headers[shstrndx][4], headers[shstrndx][5], "section name table")
        self.sections = [Section(i, _string(names, h[0], "section name") if names else "", h[1], h[4], h[5], h[6], h[9])
                         for i, h in enumerate(headers)]

    def bytes(self, offset: int, size: int, what: str) -> bytes:
        """data[offset:offset + size], or ElfError saying that `what` reaches past the end of the file."""
        if offset < 0 or size < 0 or offset + size > len(self.data):
            raise ElfError(f"{what} ({size} bytes at offset {offset:#x}) reaches past the end of the file "
                           f"({len(self.data)} bytes)")
        return self.data[offset: offset + size]

    def _table(self, offset: int, entsize: int, count: int, need: int, what: str) -> list[bytes]:
        if not count:
            return []
        if entsize < need:
            raise ElfError(f"{what} entries of {entsize} bytes (ELF64 needs {need})")
        raw = self.bytes(offset, entsize * count, f"{what} table")
        return [raw[i * entsize: i * entsize + need] for i in range(count)]

    def section_data(self, sec: Section) -> bytes:
        return self.bytes(sec.offset, sec.size, f"section {sec.name or sec.index}")

    def entries(self, sec: Section, layout: struct.Struct) -> list[tuple]:
        if sec.entsize < layout.size:
            raise ElfError(f"section {sec.name or sec.index}: entries of {sec.entsize} bytes (needs {layout.size})")
        raw = self.section_data(sec)
        return [layout.unpack_from(raw, i) for i in range(0, len(raw) - layout.size + 1, sec.entsize)]

    def linked(self, sec: Section, types: tuple[int, ...], what: str) -> Section:
        if not 0 < sec.link < len(self.sections) or self.sections[sec.link].type not in types:
            raise ElfError(f"section {sec.name or sec.index}: its {what} (section {sec.link}) is missing")
        return self.sections[sec.link]

    def symbols(self, sec: Section) -> list[Symbol]:
        strings = self.section_data(self.linked(sec, (3,), "string table"))  # SHT_STRTAB
        return [Symbol(_string(strings, e[0], "symbol name"), e[4]) for e in self.entries(sec, SYM)]

    def relas(self, sec: Section) -> list[Rela]:
        return [Rela(off, info & 0xFFFFFFFF, info >> 32, addend) for off, info, addend in self.entries(sec, RELA)]

    def notes(self, sec: Section) -> list[tuple[bytes, int, bytes]]:
        """(name without its NUL, type, descriptor) of each note in a SHT_NOTE section."""
        raw, pos, out = self.section_data(sec), 0, []
        while pos + NOTE.size <= len(raw):
            namesz, descsz, kind = NOTE.unpack_from(raw, pos)
            name_at = pos + NOTE.size
            desc_at = name_at + (namesz + 3) // 4 * 4
            end = desc_at + (descsz + 3) // 4 * 4
            if desc_at + descsz > len(raw):
                raise ElfError(f"note at offset {sec.offset + pos:#x} ({namesz}-byte name, {descsz}-byte "
                               f"descriptor) reaches past its section")
            out.append((raw[name_at: name_at + namesz].rstrip(b"\0"), kind, raw[desc_at: desc_at + descsz]))
            pos = end
        return out


def _string(table: bytes, offset: int, what: str) -> str:
    if not 0 <= offset < len(table) and offset:
        raise ElfError(f"{what} at {offset:#x} outside its string table ({len(table)} bytes)")
    end = table.find(b"\0", offset)
    # a name need not be UTF-8 for a loader; one that is not simply matches nothing asked for
    return table[offset: end if end >= 0 else len(table)].decode(errors="replace")
