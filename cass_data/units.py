"""Units: what the pipeline translates, builds and pairs. A unit is a whole program (one .cu with
`main` and the headers it includes), a single kernel with its device helpers (a file without
`main`, cut once per `__global__` function), or a tree with its own Makefile (HeCBench).

A unit is a JSON-able dict:
    id        unique name (origin, path, kernel), for rows and reports
    content   sha256 of what is compiled (kind, files, main, run): the store's input key
    origin    repository or program family (the split groups by it)
    domain, licence, path, kind ("program" | "kernel" | "tree"), kernel (for kind "kernel")
    files     {relative path: text}, main (the .cu compiled), run (args or a command)
"""
from __future__ import annotations

import re
from typing import Any

from .store import digest

SOURCE_SUFFIXES = (".cu",)
HEADER_SUFFIXES = (".h", ".cuh", ".hpp", ".hh", ".inc", ".inl")
MAX_FILE_BYTES = 512 * 1024
_MAIN = re.compile(r"\b(int|void)\s+main\s*\(")
_ANY_INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"\n]+)"|<([^>\n]+)>)', re.M)


def make_unit(*, origin: str, path: str, kind: str, files: dict[str, str], main: str, domain: str = "",
              licence: str | None = None, kernel: str | None = None, run: dict[str, Any] | None = None,
              build: str | None = None) -> dict[str, Any]:
    content = digest({"kind": kind, "files": files, "main": main, "run": run, "build": build})
    uid = f"{origin}:{path}" + (f"#{kernel}" if kernel else "")
    return {"id": uid, "content": content, "origin": origin, "domain": domain or "unknown", "licence": licence,
            "path": path, "kind": kind, "kernel": kernel, "files": files, "main": main, "run": run, "build": build}


def has_main(text: str) -> bool:
    return bool(_MAIN.search(strip_comments(text)))


def strip_comments(text: str) -> str:
    from cass_cc.translate.lexer import tokenize

    return "".join(t.text for t in tokenize(text) if t.kind != "comment")


def any_includes(text: str) -> list[tuple[str, str]]:
    """('"', name) for each `#include "name"`, ('<', name) for each `#include <name>`, in order."""
    return [('"', q) if q else ("<", a) for q, a in _ANY_INCLUDE.findall(text)]


def kernel_spans(text: str) -> list[tuple[str, int, int]]:
    """(kernel name, start, end) of every `__global__` function definition at file scope: from the
    start of its declaration's first line (a `template<...>` line before it included) to its `}`."""
    from cass_cc.translate.lexer import tokenize

    tokens = tokenize(text)
    starts, pos = [], 0
    for t in tokens:
        starts.append(pos)
        pos += len(t.text)
    spans: list[tuple[str, int, int]] = []
    depth = 0
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.kind == "punct" and t.text == "{":
            depth += 1
        elif t.kind == "punct" and t.text == "}":
            depth -= 1
        elif t.kind == "ident" and t.text == "__global__" and depth == 0 and not t.directive:
            j, name, paren = i + 1, None, 0
            while j < len(tokens):  # the name is the identifier before the first '('
                u = tokens[j]
                if u.kind == "punct" and u.text in ";{":
                    break
                if u.kind == "punct" and u.text == "(" and name is None:
                    k = j - 1
                    while k > i and tokens[k].kind in ("space", "newline", "comment"):
                        k -= 1
                    name = tokens[k].text if tokens[k].kind == "ident" else None
                j += 1
            if j < len(tokens) and tokens[j].text == "{" and name:
                d, k = 0, j
                while k < len(tokens):
                    if tokens[k].kind == "punct" and tokens[k].text == "{":
                        d += 1
                    elif tokens[k].kind == "punct" and tokens[k].text == "}":
                        d -= 1
                        if d == 0:
                            break
                    k += 1
                start = text.rfind("\n", 0, starts[i]) + 1
                before = text.rfind("\n", 0, max(start - 1, 0)) + 1
                if start > 0 and text[before:start].lstrip().startswith("template"):
                    start = before
                end = starts[k] + 1 if k < len(tokens) else len(text)
                spans.append((name, start, end))
                i = k + 1
                continue
        i += 1
    return spans


def split_kernels(text: str) -> list[tuple[str, str]]:
    """(kernel name, the file without the other kernels' definitions) per kernel; one kernel
    (or none found): the file as it is. Device helpers, types and macros stay in every unit."""
    spans = kernel_spans(text)
    if len(spans) <= 1:
        return [(spans[0][0] if spans else "", text)]
    out = []
    for name, _, _ in spans:
        keep, at = [], 0
        for other, s, e in spans:
            if other == name:
                continue
            keep.append(text[at:s])
            at = e
        keep.append(text[at:])
        body = "".join(keep)
        for other, _, _ in spans:  # explicit instantiations of the kernels taken out go too
            if other != name:
                body = re.sub(r"(?m)^[ \t]*(?:extern\s+)?template\b[^;{]*\b" + re.escape(other) + r"\s*<[^;{]*;[ \t]*\n?", "", body)
        out.append((name, body))
    seen: dict[str, int] = {}
    named = []
    for name, body in out:  # overloads share a name: number them
        seen[name] = seen.get(name, 0) + 1
        named.append((name if seen[name] == 1 else f"{name}.{seen[name]}", body))
    return named
