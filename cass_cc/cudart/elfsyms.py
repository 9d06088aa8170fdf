"""The function names a shared library exports (its .dynsym), read without binutils."""
from __future__ import annotations

import struct
from pathlib import Path

_SHT_DYNSYM = 11
_STT_FUNC = 2
_STT_GNU_IFUNC = 10
_SHN_UNDEF = 0


def exported_functions(path: str | Path) -> set[str]:
    """Defined global/weak function symbols of a 64-bit little-endian ELF shared library."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError(f"{path}: not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names: set[str] = set()
    for _name, sh_type, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if sh_type != _SHT_DYNSYM:
            continue
        str_offset = sections[link][4]
        for at in range(offset, offset + size, entsize or 24):
            st_name, st_info, _other, st_shndx = struct.unpack_from("<IBBH", data, at)
            if st_shndx == _SHN_UNDEF or (st_info & 0xF) not in (_STT_FUNC, _STT_GNU_IFUNC) or (st_info >> 4) == 0:
                continue
            end = data.index(b"\0", str_offset + st_name)
            names.add(data[str_offset + st_name:end].decode())
    return names
