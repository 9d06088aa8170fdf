"""Read CUDA's math_constants.h and write the value of every CUDART_* constant as a fact.

    python3 scripts/extract_math_constants.py /usr/local/cuda/include/math_constants.h \
        > cass_cc/translate/math_constants.tsv

Each row is `name<TAB>type<TAB>value`: type f32, f64 or u32; value is the exact bit pattern
in hex (floats are rounded to their type here, as the compiler rounds CUDA's literals).
The served header (cass_cc/translate/served.py) spells each value as a C literal; no header
text is kept.
"""
from __future__ import annotations

import re
import struct
import sys

DEFINE = re.compile(r"^\s*#\s*define\s+(CUDART_\w+)\s+(.+?)\s*$")
BITS = re.compile(r"__(int_as_float|longlong_as_double)\((0x[0-9a-fA-F]+)U?L*\)$")


def value(text: str, known: dict[str, tuple[str, int]]) -> tuple[str, int] | None:
    text = text.strip()
    while text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1].strip()
    if text in known:
        return known[text]
    m = BITS.fullmatch(text)
    if m:
        return ("f32" if m.group(1) == "int_as_float" else "f64"), int(m.group(2), 16)
    m = re.fullmatch(r"(\d+)[uU]", text)
    if m:
        return "u32", int(m.group(1))
    if text == "(~((~0U)<<CUDART_REMQUO_BITS_F))" or text.startswith("~((~0U)<<"):
        bits = known["CUDART_REMQUO_BITS_F"][1]
        return "u32", ~((~0 & 0xFFFFFFFF) << bits) & 0xFFFFFFFF
    m = re.fullmatch(r"([-+]?[0-9.]+(?:[eE][-+]?\d+)?)([fF]?)", text)
    if m:
        number = float(m.group(1))
        if m.group(2):
            return "f32", struct.unpack("<I", struct.pack("<f", number))[0]
        return "f64", struct.unpack("<Q", struct.pack("<d", number))[0]
    return None


def main(path: str) -> int:
    known: dict[str, tuple[str, int]] = {}
    for line in open(path, encoding="utf-8"):
        m = DEFINE.match(line)
        if not m:
            continue
        parsed = value(m.group(2), known)
        if parsed is None:
            print(f"{path}: cannot evaluate {m.group(1)}", file=sys.stderr)
            return 1
        known[m.group(1)] = parsed
    print("# CUDART_* constants of CUDA's math_constants.h: name, type, exact bits (scripts/extract_math_constants.py)")
    for name, (kind, bits) in known.items():
        print(f"{name}\t{kind}\t{bits:#x}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
