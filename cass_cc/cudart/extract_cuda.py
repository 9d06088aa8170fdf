"""Extract the facts of CUDA's C ABI that the forwarding libraries need, from a CUDA toolkit's
headers, into cuda_abi.json (committed; no header text is copied, only names, signatures,
enum values and struct layouts):

    python -m cass_cc.cudart.extract_cuda /usr/local/cuda/include > cass_cc/cudart/cuda_abi.json

Functions: every `cuda*` declared by cuda_runtime_api.h and `cu*` by cuda.h, with their
parameter and return types as decls.py descriptors. Aliases: the `#define cuX cuX_v2`
macros (a C caller's own prototype names cuX; CUDA's headers call cuX_v2). Records and
enums: those the functions reach, records with sizeof/offsetof measured by the host C
compiler on the same headers.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .decls import Decls, Type, dump_ast

SOURCE = "#include <cuda_runtime_api.h>\n#include <cuda.h>\n"
ERROR_ENUMS = ("cudaError", "cudaError_enum")


def _is_api(name: str) -> bool:
    """cuda*/cu* API functions; per-thread-stream variants (_ptds, _ptsz) have no mapping rows."""
    return name.startswith("cu") and not name.endswith(("_ptds", "_ptsz"))


def _reach(t: Type, decls: Decls, records: set[str], enums: set[str]) -> None:
    k = t["k"]
    if k in ("ptr",):
        _reach(t["to"], decls, records, enums)
    elif k == "array":
        _reach(t["of"], decls, records, enums)
    elif k == "enum":
        enums.add(t["name"])
    elif k == "record" and t["name"] in decls.records and t["name"] not in records:
        records.add(t["name"])
        for _, ft in decls.records[t["name"]]["fields"]:
            _reach(decls.resolve(ft), decls, records, enums)


def _layouts(include: str, names: list[str], decls: Decls) -> dict[str, dict[str, Any]]:
    """sizeof and offsetof of named records, from a C program built against the headers."""
    lines = [SOURCE, "#include <stdio.h>\n#include <stddef.h>\nint main(void) {"]
    for name in names:
        if "." in name or "<" in name:
            continue
        tag = "union" if decls.records[name]["union"] else "struct"
        lines.append(f'printf("S {name} %zu\\n", sizeof({tag} {name}));')
        for fname, ftype in decls.records[name]["fields"]:
            if fname and not ftype.startswith("<bitfield>"):
                lines.append(f'printf("F {name} {fname} %zu\\n", offsetof({tag} {name}, {fname}));')
    lines.append("return 0; }")
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp) / "layout.c", Path(tmp) / "layout"
        src.write_text("\n".join(lines))
        subprocess.run(["gcc", f"-I{include}", str(src), "-o", str(exe)], check=True)
        out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    result: dict[str, dict[str, Any]] = {}
    for line in out.splitlines():
        parts = line.split()
        if parts[0] == "S":
            result.setdefault(parts[1], {"offsets": {}})["size"] = int(parts[2])
        else:
            result.setdefault(parts[1], {"offsets": {}})["offsets"][parts[2]] = int(parts[3])
    return result


def extract(include: str, clang: str = "clang-15") -> dict[str, Any]:
    decls = Decls()
    decls.read(dump_ast(clang, SOURCE, [f"-I{include}"], "c"))
    macros = subprocess.run([clang, "-x", "c", f"-I{include}", "-E", "-dM", "-"], input=SOURCE,
                            capture_output=True, text=True, check=True).stdout
    functions: dict[str, Any] = {}
    records: set[str] = set()
    enums: set[str] = set(ERROR_ENUMS)
    for name in sorted(decls.functions):
        if not _is_api(name):
            continue
        ret, params = decls.signature(name)
        functions[name] = {"ret": ret, "params": [[p, t] for p, t in params]}
        for t in [ret] + [t for _, t in params]:
            _reach(t, decls, records, enums)
    aliases = {}
    for m in re.finditer(r"^#define (cu\w+) (cu\w+)$", macros, re.M):
        if m[2] in functions and m[1] not in functions:
            aliases[m[1]] = m[2]
    version = re.search(r"^#define CUDART_VERSION (\d+)$", macros, re.M)
    layouts = _layouts(include, sorted(records), decls)
    out_records = {}
    for name in sorted(records):
        rec = decls.records[name]
        lay = layouts.get(name, {"offsets": {}})
        out_records[name] = {
            "union": rec["union"], "size": lay.get("size"),
            "fields": [[f, decls.resolve(t), lay["offsets"].get(f)] for f, t in rec["fields"]],
        }
    return {
        "source": "CUDA toolkit headers cuda_runtime_api.h and cuda.h (facts only: names, types, values, layouts)",
        "cudart_version": int(version[1]) if version else None,
        "functions": functions,
        "aliases": dict(sorted(aliases.items())),
        "enums": {n: decls.enums[n] for n in sorted(enums) if n in decls.enums},
        "records": out_records,
    }


def main(argv: list[str]) -> int:
    include = argv[0] if argv else "/usr/local/cuda/include"
    json.dump(extract(include), sys.stdout, indent=None, separators=(",", ":"), sort_keys=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
