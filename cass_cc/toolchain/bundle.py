"""Reading the AMD device code out of what clang's HIP driver produced.

A HIP object or executable keeps its device code in the ELF section `.hip_fatbin`:
one clang offload bundle per translation unit (concatenated, each aligned), laid
out as

    "__CLANG_OFFLOAD_BUNDLE__"          24-byte magic
    u64 count
    count x { u64 offset, u64 size, u64 id_len, id }   offsets from the magic
    ... payloads

with ids like `hipv4-amdgcn-amd-amdhsa--gfx1100` (device code objects) and
`host-x86_64-unknown-linux-gnu` (empty for HIP). A device code object is an ELF with
e_machine EM_AMDGPU (224) and the target in the low byte of e_flags.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
EM_AMDGPU = 224

# EF_AMDGPU_MACH_AMDGCN_* values (llvm/BinaryFormat/ELF.h, LLVM 16).
AMDGPU_MACH = {
    0x030: "gfx908",
    0x036: "gfx1030",
    0x03F: "gfx90a",
    0x040: "gfx940",
    0x041: "gfx1100",
    0x044: "gfx1103",
    0x046: "gfx1101",
    0x047: "gfx1102",
}


class BundleError(Exception):
    pass


@dataclass(frozen=True)
class Entry:
    id: str
    data: bytes

    @property
    def target(self) -> str:
        """'gfx1100' from 'hipv4-amdgcn-amd-amdhsa--gfx1100' (features after ':' dropped)."""
        return self.id.rsplit("-", 1)[-1].split(":")[0]


def parse_bundles(blob: bytes) -> list[Entry]:
    """Every entry of every bundle found in `blob` (a .hip_fatbin section or a .fatbin file)."""
    entries: list[Entry] = []
    start = blob.find(MAGIC)
    if start < 0:
        raise BundleError("no clang offload bundle found")
    while start >= 0:
        pos = start + len(MAGIC)
        try:
            (count,) = struct.unpack_from("<Q", blob, pos)
            pos += 8
            if count > 4096:
                raise BundleError(f"implausible bundle entry count {count}")
            for _ in range(count):
                offset, size, id_len = struct.unpack_from("<QQQ", blob, pos)
                pos += 24
                ident = blob[pos : pos + id_len].decode("ascii")
                pos += id_len
                if start + offset + size > len(blob):
                    raise BundleError(f"bundle entry {ident} runs past the end of the data")
                entries.append(Entry(ident, blob[start + offset : start + offset + size]))
        except (struct.error, UnicodeDecodeError) as e:
            raise BundleError(f"truncated or malformed offload bundle: {e}") from None
        start = blob.find(MAGIC, pos)
    return entries


def hip_fatbin(path: str) -> bytes:
    """The `.hip_fatbin` section of an object, executable or shared library."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile

    try:
        with open(path, "rb") as f:
            elf = ELFFile(f)
            section = elf.get_section_by_name(".hip_fatbin")
            if section is None:
                raise BundleError(f"{path}: no .hip_fatbin section (no AMD device code)")
            return section.data()
    except ELFError as e:
        raise BundleError(f"{path}: not an ELF file: {e}") from None


def code_object_target(data: bytes) -> str:
    """The gfx name of an AMDGPU code object; BundleError if `data` is not one."""
    if data[:4] != b"\x7fELF" or len(data) < 52:
        raise BundleError("not an ELF code object")
    (machine,) = struct.unpack_from("<H", data, 18)
    if machine != EM_AMDGPU:
        raise BundleError(f"ELF machine {machine} is not AMDGPU ({EM_AMDGPU})")
    (flags,) = struct.unpack_from("<I", data, 48)
    mach = flags & 0xFF
    return AMDGPU_MACH.get(mach, f"mach-0x{mach:03x}")


def kernel_names(data: bytes) -> list[str]:
    """Kernels an AMDGPU code object defines: its `<name>.kd` kernel-descriptor symbols."""
    import io

    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    code_object_target(data)
    try:
        elf = ELFFile(io.BytesIO(data))
        names = [
            sym.name[: -len(".kd")]
            for section in elf.iter_sections() if isinstance(section, SymbolTableSection)
            for sym in section.iter_symbols() if sym.name.endswith(".kd")
        ]
    except ELFError as e:
        raise BundleError(f"malformed code object: {e}") from None
    return sorted(set(names))


def code_objects(path: str) -> list[Entry]:
    """The device code objects linked into `path`, in bundle order."""
    return [e for e in parse_bundles(hip_fatbin(path)) if e.id.startswith(("hip-", "hipv4-")) and e.data]


def device_targets(path: str) -> list[str]:
    """gfx targets of the device code objects linked into `path`, in bundle order."""
    return [code_object_target(e.data) for e in code_objects(path)]
