"""Read CUDA's include folder and write, for every header, the guard macros that including
it defines (its own and those of the CUDA headers it includes, transitively).

    python3 scripts/extract_header_guards.py /usr/local/cuda/include > cass_cc/translate/header_guards.tsv

Rows: `header<TAB>guard guard ...`. Guards are facts about CUDA's headers (programs such as
cuda-samples' helper_cuda.h test `__CUDA_RUNTIME_H__`, `__DRIVER_TYPES_H__`, ...); the
translation defines them where a program includes the header (prelude.py). Includes are
followed whatever #if they sit under: a guard set is the most a header can define.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

GUARD = re.compile(r"^\s*#\s*(?:ifndef\s+(\w+)|if\s+!\s*defined\s*\(?\s*(\w+)\s*\)?)\s*$")
DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s*$")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
# Folders that are libraries of their own (CCCL, CUPTI extensions, NVTX) or other languages.
SKIP = ("cccl/", "nvtx3/", "Openacc/", "Openmp/", "nv/", "cuda/", "cub/", "thrust/")


def own_guard(lines: list[str]) -> str | None:
    """The include guard: the first #ifndef X / #if !defined(X) directly followed by #define X."""
    code = [l for l in lines if l.strip() and not l.strip().startswith(("//", "/*", "*"))]
    for i, line in enumerate(code[:-1]):
        m = GUARD.match(line)
        if m:
            name = m.group(1) or m.group(2)
            d = DEFINE.match(code[i + 1])
            return name if d and d.group(1) == name else None
        if line.lstrip().startswith("#") and not line.lstrip().startswith(("#pragma", "#if", "#define")):
            return None
    return None


def main(root: str) -> int:
    top = Path(root)
    headers = {str(p.relative_to(top)): p for p in sorted(top.rglob("*")) if p.suffix in (".h", ".hpp")
               and not str(p.relative_to(top)).startswith(SKIP)}
    guard: dict[str, str | None] = {}
    edges: dict[str, list[str]] = {}
    for name, path in headers.items():
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        guard[name] = own_guard(lines)
        found = []
        for line in lines:
            m = INCLUDE.match(line)
            if m:
                inc = m.group(1)
                for cand in (str((Path(name).parent / inc)).lstrip("./"), inc):
                    if cand in headers:
                        found.append(cand)
                        break
        edges[name] = found
    print("# Guard macros each CUDA header defines, own and included (scripts/extract_header_guards.py)")
    for name in headers:
        seen, todo = {name}, [name]
        while todo:
            for nxt in edges[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        guards = sorted({guard[h] for h in seen if guard[h]})
        if guards:
            print(f"{name}\t{' '.join(guards)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
