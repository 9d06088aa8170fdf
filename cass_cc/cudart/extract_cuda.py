"""Extract the facts of CUDA's C ABI that the forwarding libraries need, from a CUDA toolkit's
headers, into cuda_abi.json (committed; no header text is copied, only names, signatures,
enum values and struct layouts):

    python -m cass_cc.cudart.extract_cuda /usr/local/cuda/include CUDA12/include > cass_cc/cudart/cuda_abi.json

(CUDA 13's headers first; then CUDA 12.x's, from PyPI's nvidia-cuda-runtime-cu12 wheel, for the
functions 13 removed: `removed` names them with the version that still declares them.)

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

SOURCE = """#include <cuda_runtime_api.h>
#include <cuda.h>
#if __has_include(<cuda_profiler_api.h>)
#include <cuda_profiler_api.h>
#endif
#if __has_include(<cudaProfiler.h>)
#include <cudaProfiler.h>
#endif
"""
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


def _reach_facts(t: Type, records: dict[str, Any], seen: set[str]) -> None:
    """The records a descriptor reaches, through the extracted facts."""
    if t["k"] == "ptr":
        _reach_facts(t["to"], records, seen)
    elif t["k"] == "array":
        _reach_facts(t["of"], records, seen)
    elif t["k"] == "record" and t["name"] in records and t["name"] not in seen:
        seen.add(t["name"])
        for _, ft, _ in records[t["name"]]["fields"]:
            _reach_facts(ft, records, seen)


def _layouts(includes: list[str], names: list[str], decls: Decls) -> dict[str, dict[str, Any]]:
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
        subprocess.run(["gcc", *(f"-I{d}" for d in includes), str(src), "-o", str(exe)], check=True)
        out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    result: dict[str, dict[str, Any]] = {}
    for line in out.splitlines():
        parts = line.split()
        if parts[0] == "S":
            result.setdefault(parts[1], {"offsets": {}})["size"] = int(parts[2])
        else:
            result.setdefault(parts[1], {"offsets": {}})["offsets"][parts[2]] = int(parts[3])
    return result


def extract(includes: list[str], clang: str = "clang-15") -> dict[str, Any]:
    """The facts of the headers in includes[0] (later folders only fill in what it lacks:
    the runtime wheels of CUDA 12 have no crt/ folder)."""
    flags = [f"-I{d}" for d in includes]
    decls = Decls()
    decls.read(dump_ast(clang, SOURCE, flags, "c"))
    macros = subprocess.run([clang, "-x", "c", *flags, "-E", "-dM", "-"], input=SOURCE,
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
    # `#define cuMemcpyHtoD __CUDA_API_PTDS(cuMemcpyHtoD_v2)`: the per-thread-stream wrapper
    # macro picks a _ptds name only under CUDA_API_PER_THREAD_DEFAULT_STREAM.
    for m in re.finditer(r"^#define (cu\w+) (?:__CUDA_API_PT(?:DS|SZ)\()?(cu\w+)\)?$", macros, re.M):
        if m[2] in functions and m[1] not in functions:
            aliases[m[1]] = m[2]
    version = re.search(r"^#define CUDART_VERSION (\d+)$", macros, re.M)
    layouts = _layouts(includes, sorted(records), decls)
    out_records = {}
    for name in sorted(records):
        rec = decls.records[name]
        lay = layouts.get(name, {"offsets": {}})
        out_records[name] = {
            "union": rec["union"], "size": lay.get("size"),
            "fields": [[f, decls.resolve(t), lay["offsets"].get(f)] for f, t in rec["fields"]],
        }
    return {
        "source": "CUDA toolkit headers cuda_runtime_api.h, cuda.h, the profiler headers (facts only: names, types, values, layouts)",
        "cudart_version": int(version[1]) if version else None,
        "removed": {},
        "versioned": {},
        "functions": functions,
        "aliases": dict(sorted(aliases.items())),
        "enums": {n: decls.enums[n] for n in sorted(enums) if n in decls.enums},
        "records": out_records,
    }


def merge(newest: dict[str, Any], older: dict[str, Any]) -> dict[str, Any]:
    """The newest toolkit's facts, plus the functions only an older one declares: CUDA 12's
    cudaThreadSynchronize, and its versioned symbols such as cudaGetDeviceProperties_v2, which
    CUDA 12's headers call for cudaGetDeviceProperties (`versioned`). Records whose layout
    changed since (CUDA 12's cudaDeviceProp) enter as "name@<older version>". Where both have
    a name, the newest wins: the unversioned symbols are CUDA <newest>'s ABI."""
    out = {**newest, **{t: dict(newest.get(t, {})) for t in ("functions", "aliases", "enums", "records", "removed", "versioned")}}
    tag = f"@{older['cudart_version']}"
    changed = {r for r in older["records"] if r in newest["records"] and newest["records"][r] != older["records"][r]}
    for name, rec in older["records"].items():
        key = name + tag if name in changed else name
        if key not in out["records"]:
            out["records"][key] = {**rec, "fields": [[f, _retag(t, changed, tag), o] for f, t, o in rec["fields"]]}
    for name, fn in older["functions"].items():
        if name not in out["functions"]:
            out["functions"][name] = {"ret": _retag(fn["ret"], changed, tag),
                                      "params": [[p, _retag(t, changed, tag)] for p, t in fn["params"]]}
            out["removed"][name] = older["cudart_version"]
    for name, target in older["aliases"].items():
        if target not in out["removed"]:
            continue
        if name in newest["functions"] or name in newest["aliases"]:
            out["versioned"].setdefault(name, [])
            if target not in out["versioned"][name]:
                out["versioned"][name].append(target)
        else:
            out["aliases"].setdefault(name, target)
    for name, value in older["enums"].items():
        out["enums"].setdefault(name, value)
    for table in ("functions", "aliases", "enums", "records", "removed", "versioned"):
        out[table] = dict(sorted(out[table].items()))
    return out


def _retag(t: Type, changed: set[str], tag: str) -> Type:
    """The descriptor with the records of `changed` renamed name+tag."""
    if t["k"] == "record" and t["name"] in changed:
        return {**t, "name": t["name"] + tag}
    if t["k"] == "ptr":
        return {**t, "to": _retag(t["to"], changed, tag)}
    if t["k"] == "array":
        return {**t, "of": _retag(t["of"], changed, tag)}
    return t


def main(argv: list[str]) -> int:
    """extract_cuda NEWEST_INCLUDE [OLDER_INCLUDE ...]: e.g. CUDA 13's, then CUDA 12's (from
    `pip download --no-deps nvidia-cuda-runtime-cu12`, nvidia/cuda_runtime/include)."""
    includes = argv or ["/usr/local/cuda/include"]
    facts = extract(includes[:1])
    for older in includes[1:]:
        facts = merge(facts, extract([older, includes[0]]))
    json.dump(facts, sys.stdout, indent=None, separators=(",", ":"), sort_keys=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
