"""Reading NVIDIA device code: cubins, and the cubins inside fatbins, objects and executables.

A cubin is an ELF file (machine EM_CUDA = 190, SM number in e_flags bits 8-15). Per kernel
it has `.text.<k>`, `.nv.info.<k>` (EIATTR records), `.nv.constant0.<k>` (constant bank 0:
driver values, then the parameters) and, when it uses shared memory, `.nv.shared.<k>`.
Host objects and executables keep a fatbin in `.nv_fatbin`; a fatbin is a header and a
list of entries (PTX or ELF), read here without cuobjdump.

Every failure on a malformed or truncated file is a `CubinError` naming the file.
"""
from __future__ import annotations

import io
import struct
from dataclasses import dataclass, field
from pathlib import Path

EM_CUDA = 190
FATBIN_MAGIC = 0xBA55ED50
ELF_MAGIC = b"\x7fELF"

# EIATTR attribute codes (as cuobjdump -elf names them). Only these are interpreted.
EIATTR_MAX_THREADS = 0x05
EIATTR_PARAM_CBANK = 0x0A
EIATTR_REQNTID = 0x10
EIATTR_FRAME_SIZE = 0x11
EIATTR_MIN_STACK_SIZE = 0x12
EIATTR_KPARAM_INFO = 0x17
EIATTR_CBANK_PARAM_SIZE = 0x19
EIATTR_MAXREG_COUNT = 0x1B
EIATTR_EXIT_INSTR_OFFSETS = 0x1C
EIATTR_CRS_STACK_SIZE = 0x1E
EIATTR_REGCOUNT = 0x2F

# Record formats: a u8 format, a u8 attribute, then the value.
EIFMT_NVAL = 1  # no value (2 bytes of padding)
EIFMT_BVAL = 2  # one byte (and one of padding)
EIFMT_HVAL = 3  # a u16
EIFMT_SVAL = 4  # a u16 size, then that many bytes


class CubinError(Exception):
    """A file that is not a usable cubin; the message is one line naming the file."""


@dataclass(frozen=True)
class Param:
    ordinal: int
    offset: int  # from the start of the parameter area in constant bank 0
    size: int


@dataclass
class Kernel:
    name: str
    demangled: str
    text: bytes
    params: list[Param] = field(default_factory=list)
    param_base: int = 0  # where the parameters start in constant bank 0 (0x160, 0x210)
    param_size: int = 0
    regcount: int = 0
    max_threads: tuple[int, int, int] | None = None
    reqntid: tuple[int, int, int] | None = None
    exit_offsets: list[int] = field(default_factory=list)
    cbank0_size: int = 0
    shared_size: int = 0  # static, as the .nv.shared section has it (with sm_90's reserved 1 KiB)
    cbanks: dict[int, bytes] = field(default_factory=dict)  # .nv.constantN.<k>, N > 0
    frame_size: int = 0
    min_stack_size: int = 0
    crs_stack_size: int = 0


@dataclass
class Cubin:
    path: str
    sm: int
    kernels: list[Kernel]
    # Module-wide constant banks other than 0 (user __constant__ data lives in bank 3).
    cbanks: dict[int, bytes] = field(default_factory=dict)
    data: bytes = b""
    # Device globals: section name -> (initial bytes, size); .nv.global has no bytes.
    global_sections: dict[str, tuple[bytes, int]] = field(default_factory=dict)
    # Constant-bank relocations: bank -> [(offset, type, target section, offset in it)].
    cbank_relocs: dict[int, list[tuple[int, int, str, int]]] = field(default_factory=dict)


def _u32s(data: bytes) -> list[int]:
    return list(struct.unpack_from(f"<{len(data) // 4}I", data)) if len(data) >= 4 else []


def parse_nv_info(data: bytes) -> list[tuple[int, int, bytes | int | None]]:
    """(format, attribute, value) per record: bytes for SVAL, an int for BVAL/HVAL."""
    out: list[tuple[int, int, bytes | int | None]] = []
    i = 0
    while i + 4 <= len(data):
        fmt, attr = data[i], data[i + 1]
        if fmt == EIFMT_SVAL:
            (size,) = struct.unpack_from("<H", data, i + 2)
            if i + 4 + size > len(data):
                raise ValueError(f"EIATTR record 0x{attr:x} runs past the section")
            out.append((fmt, attr, data[i + 4 : i + 4 + size]))
            i += 4 + size
        elif fmt == EIFMT_HVAL:
            out.append((fmt, attr, struct.unpack_from("<H", data, i + 2)[0]))
            i += 4
        elif fmt == EIFMT_BVAL:
            out.append((fmt, attr, data[i + 2]))
            i += 4
        elif fmt == EIFMT_NVAL:
            out.append((fmt, attr, None))
            i += 4
        else:
            raise ValueError(f"unknown EIATTR format {fmt} at offset {i}")
    return out


def demangle(names: list[str]) -> dict[str, str]:
    """C++ names demangled by c++filt when it is there; a missing tool leaves them as they are."""
    import shutil

    from ..toolchain.tool import ToolTimeout, run_tool

    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    try:
        proc = run_tool([tool], input="\n".join(names) + "\n", text=True, errors="replace")
        lines = proc.stdout.splitlines()
    except (OSError, ToolTimeout):
        return {n: n for n in names}
    if proc.returncode != 0 or len(lines) != len(names):
        return {n: n for n in names}
    return dict(zip(names, lines))


def _read_kernel_info(kernel: Kernel, records: list[tuple[int, int, bytes | int | None]]) -> None:
    for fmt, attr, value in records:
        if attr == EIATTR_KPARAM_INFO and isinstance(value, bytes) and len(value) >= 12:
            _index, ordinal, offset, flags = struct.unpack_from("<IHHI", value)
            kernel.params.append(Param(ordinal, offset, (flags >> 18) & 0x3FFF))
        elif attr == EIATTR_PARAM_CBANK and isinstance(value, bytes) and len(value) >= 8:
            _sym, kernel.param_base, kernel.param_size = struct.unpack_from("<IHH", value)
        elif attr == EIATTR_CBANK_PARAM_SIZE and isinstance(value, int):
            kernel.param_size = kernel.param_size or value
        elif attr in (EIATTR_MAX_THREADS, EIATTR_REQNTID) and isinstance(value, bytes) and len(value) >= 12:
            dims = tuple(struct.unpack_from("<3I", value))
            if attr == EIATTR_MAX_THREADS:
                kernel.max_threads = dims  # type: ignore[assignment]
            else:
                kernel.reqntid = dims  # type: ignore[assignment]
        elif attr == EIATTR_EXIT_INSTR_OFFSETS and isinstance(value, bytes):
            kernel.exit_offsets = _u32s(value)
        elif attr == EIATTR_CRS_STACK_SIZE and isinstance(value, bytes) and len(value) >= 4:
            kernel.crs_stack_size = struct.unpack_from("<I", value)[0]
    kernel.params.sort(key=lambda p: p.ordinal)


def _read_global_info(kernels: dict[int, Kernel], records: list[tuple[int, int, bytes | int | None]]) -> None:
    """The module-wide .nv.info holds per-function values keyed by symbol index."""
    for fmt, attr, value in records:
        if not isinstance(value, bytes) or len(value) < 8:
            continue
        sym, val = struct.unpack_from("<II", value)
        k = kernels.get(sym)
        if k is None:
            continue
        if attr == EIATTR_REGCOUNT:
            k.regcount = val
        elif attr == EIATTR_FRAME_SIZE:
            k.frame_size = val
        elif attr == EIATTR_MIN_STACK_SIZE:
            k.min_stack_size = val


def _parse_cubin(data: bytes, path: str) -> Cubin:
    from elftools.elf.elffile import ELFFile

    elf = ELFFile(io.BytesIO(data))
    if elf["e_machine"] not in ("EM_CUDA", EM_CUDA):
        raise CubinError(f"{path}: not a cubin (ELF machine {elf['e_machine']})")
    sm = (elf["e_flags"] >> 8) & 0xFF
    if sm < 50:  # nvcc 13 writes the SM number in bits 8-15; older layouts used bits 0-7
        sm = elf["e_flags"] & 0xFF
    sections = {s.name: s for s in elf.iter_sections()}
    symtab = elf.get_section_by_name(".symtab")
    if symtab is None:
        raise CubinError(f"{path}: cubin without a symbol table")
    # Kernel entry symbols: STO_CUDA_ENTRY (0x10) in st_other, defined in a .text section.
    by_index: dict[int, Kernel] = {}
    for idx, sym in enumerate(symtab.iter_symbols()):
        if sym["st_info"]["type"] != "STT_FUNC" or sym["st_info"]["bind"] != "STB_GLOBAL":
            continue
        text = sections.get(f".text.{sym.name}")
        if text is None:
            continue
        by_index[idx] = Kernel(name=sym.name, demangled=sym.name, text=text.data())
    for k in by_index.values():
        info = sections.get(f".nv.info.{k.name}")
        if info is not None:
            _read_kernel_info(k, parse_nv_info(info.data()))
        c0 = sections.get(f".nv.constant0.{k.name}")
        k.cbank0_size = c0["sh_size"] if c0 is not None else 0
        prefix_len = len(".nv.constant")
        for name, sec in sections.items():
            if name.startswith(".nv.constant") and name.endswith(f".{k.name}"):
                num = name[prefix_len : -len(k.name) - 1]
                if num.isdigit() and num != "0":
                    k.cbanks[int(num)] = sec.data()
        sh = sections.get(f".nv.shared.{k.name}")
        k.shared_size = sh["sh_size"] if sh is not None else 0
    if ".nv.info" in sections:
        _read_global_info(by_index, parse_nv_info(sections[".nv.info"].data()))
    kernels = sorted(by_index.values(), key=lambda k: k.name)
    names = demangle([k.name for k in kernels])
    for k in kernels:
        k.demangled = names.get(k.name, k.name)
    cbanks: dict[int, bytes] = {}
    for name, s in sections.items():
        if name.startswith(".nv.constant") and name[len(".nv.constant") :].isdigit():
            bank = int(name[len(".nv.constant") :])
            cbanks[bank] = s.data() if s["sh_type"] != "SHT_NOBITS" else bytes(s["sh_size"])
    globals_ = {}
    for name in (".nv.global.init", ".nv.global"):
        if name in sections:
            sec = sections[name]
            globals_[name] = (sec.data() if sec["sh_type"] != "SHT_NOBITS" else b"", sec["sh_size"])
    relocs: dict[int, list[tuple[int, int, str, int]]] = {}
    for name, sec in sections.items():
        for prefix in (".rel.nv.constant", ".rela.nv.constant"):
            if name.startswith(prefix) and name[len(prefix) :].isdigit():
                bank = int(name[len(prefix) :])
                syms = elf.get_section(sec["sh_link"])
                for r in sec.iter_relocations():
                    sym = syms.get_symbol(r["r_info_sym"])
                    target = elf.get_section(sym["st_shndx"]).name if isinstance(sym["st_shndx"], int) else "?"
                    addend = r["r_addend"] if r.is_RELA() else 0
                    relocs.setdefault(bank, []).append((r["r_offset"], r["r_info_type"], target, sym["st_value"] + addend))
    return Cubin(path, sm, kernels, cbanks, data, globals_, relocs)


def fatbin_cubins(blob: bytes, path: str) -> list[bytes]:
    """The ELF entries of a fatbin (several fatbins may follow one another)."""
    out: list[bytes] = []
    pos = 0
    while pos + 16 <= len(blob):
        magic, _version, header_size, fat_size = struct.unpack_from("<IHHQ", blob, pos)
        if magic != FATBIN_MAGIC:
            if out and not blob[pos:].strip(b"\0"):
                break
            raise CubinError(f"{path}: bad fatbin magic 0x{magic:08x} at offset {pos}")
        entry = pos + header_size
        end = entry + fat_size
        if end > len(blob):
            raise CubinError(f"{path}: fatbin truncated (needs {end} bytes, has {len(blob)})")
        while entry + 16 <= end:
            kind, _v, entry_header, payload = struct.unpack_from("<HHIQ", blob, entry)
            if entry_header < 16 or entry + entry_header + payload > end:
                raise CubinError(f"{path}: fatbin entry at offset {entry} runs past its fatbin")
            body = blob[entry + entry_header : entry + entry_header + payload]
            if kind == 2:  # ELF
                if not body.startswith(ELF_MAGIC):
                    raise CubinError(f"{path}: compressed cubin in the fatbin (rebuild with -Xfatbin -compress-all=false, or extract it with cuobjdump -xelf all)")
                out.append(body)
            entry += entry_header + payload
        pos = (end + 7) & ~7
    return out


def _cubins_in(data: bytes, path: str) -> list[bytes]:
    if data[:4] == struct.pack("<I", FATBIN_MAGIC):
        return fatbin_cubins(data, path)
    if not data.startswith(ELF_MAGIC):
        raise CubinError(f"{path}: not an ELF file or fatbin")
    from elftools.elf.elffile import ELFFile

    elf = ELFFile(io.BytesIO(data))
    if elf["e_machine"] in ("EM_CUDA", EM_CUDA):
        return [data]
    fat = elf.get_section_by_name(".nv_fatbin") or elf.get_section_by_name("__nv_relfatbin")
    if fat is None:
        raise CubinError(f"{path}: no NVIDIA device code (no .nv_fatbin section)")
    return fatbin_cubins(fat.data(), path)


def read(path: str | Path, sm: int | None = None) -> list[Cubin]:
    """Every cubin in `path` (a cubin, a fatbin, or a host object/executable); with `sm`,
    only those for that SM. Raises CubinError with a one-line message on any damage."""
    from elftools.common.exceptions import ELFError

    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise CubinError(f"{name}: {e.strerror or e}") from None
    try:
        cubins = [_parse_cubin(c, name) for c in _cubins_in(data, name)]
    except CubinError:
        raise
    except (ELFError, ValueError, struct.error, KeyError, IndexError, AttributeError, TypeError, AssertionError, OverflowError, MemoryError, UnicodeDecodeError) as e:
        detail = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise CubinError(f"{name}: malformed cubin ({detail})") from None
    if sm is not None:
        cubins = [c for c in cubins if c.sm == sm]
    if not cubins:
        raise CubinError(f"{name}: no cubin" + (f" for sm_{sm}" if sm is not None else ""))
    return cubins
