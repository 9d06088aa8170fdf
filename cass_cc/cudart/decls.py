"""C declarations read from clang's JSON AST: functions, typedefs, enums, records, and
their types resolved into small descriptors (dicts that JSON can hold).

Both sides of the ABI library are read with this module: CUDA's headers once, by
`extract_cuda.py` (its output is committed data), and the installed HIP's headers each
time the toolkit is generated (`hip_decls`).

A type descriptor is one of
    {"k": "void"}                          {"k": "fn"}            (a function type)
    {"k": "int", "size": 4}                {"k": "float", "size": 8}
    {"k": "ptr", "to": T, "const": bool}   {"k": "array", "of": T, "n": 256}
    {"k": "enum", "name": "cudaMemcpyKind"}
    {"k": "record", "name": "cudaDeviceProp"}   (struct or union; anonymous ones get "Outer.field")
"""
from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterable, Sequence
from typing import Any

Type = dict[str, Any]

# x86-64 System V sizes of the builtin type spellings clang prints.
_INTS = {
    "char": 1, "signed char": 1, "unsigned char": 1, "_Bool": 1, "bool": 1,
    "short": 2, "unsigned short": 2, "int": 4, "unsigned int": 4,
    "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8,
    "__int128": 16, "unsigned __int128": 16, "wchar_t": 4, "char16_t": 2, "char32_t": 4,
}
_FLOATS = {"float": 4, "double": 8, "long double": 16, "_Float16": 2, "__fp16": 2}
_ANON = re.compile(r"^(struct|union|enum) \((unnamed|anonymous)( struct| union| enum)? at [^)]*\)$")


class Decls:
    """The declarations of one translation unit."""

    def __init__(self) -> None:
        self.functions: dict[str, tuple[str, list[tuple[str, str]]]] = {}  # name -> (return, [(param, type)])
        self.typedefs: dict[str, str] = {}
        self.enums: dict[str, dict[str, int]] = {}
        self.records: dict[str, dict[str, Any]] = {}  # name -> {"union": bool, "fields": [(name, type)]}
        self.files: dict[str, str] = {}  # function name -> header it was declared in
        self.symbols: dict[str, str] = {}  # function name -> its linker symbol (C++ ones are mangled)

    # ---- reading the AST -------------------------------------------------------------------
    def read(self, nodes: Iterable[dict[str, Any]]) -> None:
        anon: str | None = None  # the last anonymous record/enum seen, named by the typedef after it
        current_file = ""
        for node in nodes:
            current_file = _file_of(node) or current_file
            kind, name = node["kind"], node.get("name", "")
            if kind == "LinkageSpecDecl":
                self.read(node.get("inner", []))
            elif kind == "FunctionDecl" and name and not node.get("isImplicit"):
                self._function(node, current_file)
            elif kind == "TypedefDecl" or kind == "TypeAliasDecl":
                qual = node["type"]["qualType"]
                if anon and _ANON.match(qual):
                    self._rename(anon, name)
                    qual = f"{'enum' if anon in self.enums else 'struct'} {name}"
                self.typedefs.setdefault(name, qual)
                anon = None
                continue
            elif kind == "EnumDecl":
                key = name or f"<anon enum {node['id']}>"
                self._enum(key, node)
                anon = key if not name else None
                continue
            elif kind in ("RecordDecl", "CXXRecordDecl") and node.get("completeDefinition"):
                key = name or f"<anon record {node['id']}>"
                self._record(key, node)
                anon = key if not name else None
                continue
            anon = None

    def _function(self, node: dict[str, Any], file: str) -> None:
        qual = node["type"]["qualType"]
        paren = qual.find("(")
        ret = qual[:paren].strip() if paren >= 0 else qual
        params = [(p.get("name", f"p{i}"), p["type"]["qualType"])
                  for i, p in enumerate(x for x in node.get("inner", []) if x["kind"] == "ParmVarDecl")]
        if paren >= 0 and "..." in qual[paren:]:
            params.append(("...", "..."))
        self.functions.setdefault(node["name"], (ret, params))
        self.files.setdefault(node["name"], file)
        self.symbols.setdefault(node["name"], node.get("mangledName", node["name"]))

    def _enum(self, key: str, node: dict[str, Any]) -> None:
        values: dict[str, int] = {}
        nxt = 0
        for c in node.get("inner", []):
            if c["kind"] != "EnumConstantDecl":
                continue
            explicit = _constant(c)
            nxt = explicit if explicit is not None else nxt
            values[c["name"]] = nxt
            nxt += 1
        self.enums[key] = values

    def _record(self, key: str, node: dict[str, Any]) -> None:
        fields: list[tuple[str, str]] = []
        last_anon: str | None = None
        for c in node.get("inner", []):
            if c["kind"] in ("RecordDecl", "CXXRecordDecl") and c.get("completeDefinition") and not c.get("name"):
                last_anon = f"{key}.<anon {c['id']}>"
                self._record(last_anon, c)
            elif c["kind"] == "FieldDecl":
                qual = c["type"]["qualType"]
                fname = c.get("name", "")
                if last_anon and _ANON.sub("", qual.split("[")[0].strip()) == "":
                    inner_name = f"{key}.{fname or 'anon'}"
                    self._rename(last_anon, inner_name)
                    tag = "union" if self.records[inner_name]["union"] else "struct"
                    qual = f"{tag} {inner_name}" + (qual[qual.index("["):] if "[" in qual else "")
                    last_anon = None
                if c.get("isBitfield"):
                    qual = f"<bitfield> {qual}"
                fields.append((fname, qual))
        self.records[key] = {"union": node.get("tagUsed") == "union", "fields": fields}

    def _rename(self, old: str, new: str) -> None:
        """An anonymous record or enum takes the name of what declares it; so do the records
        nested in it ("Outer.<anon 0x..>.field" -> "Outer.res.field"), and the field types
        that name them."""
        if old in self.enums:
            self.enums[new] = self.enums.pop(old)
        for table in (self.records, self.enums):
            for key in [k for k in table if k == old or k.startswith(old + ".")]:
                table[new + key[len(old):]] = table.pop(key)
        for rec in self.records.values():
            rec["fields"] = [(f, _retag(t, old, new)) for f, t in rec["fields"]]

    # ---- types -----------------------------------------------------------------------------
    def resolve(self, spelling: str, depth: int = 0) -> Type:
        """The descriptor of a type as clang spells it."""
        s = spelling.strip()
        if depth > 40:
            raise ValueError(f"typedef loop at {spelling!r}")
        if s.startswith("<bitfield>"):
            return {"k": "bitfield"}
        if s == "...":
            return {"k": "varargs"}
        if "(*)" in s or "(^)" in s:
            return {"k": "ptr", "to": {"k": "fn"}, "const": False}
        if s.endswith(")") and "(" in s and not _ANON.match(s):
            return {"k": "fn"}
        m = re.match(r"^(.*?)\s*((?:\[\d*\])+)$", s)
        if m:  # "int[2][3]": the outer dimension is the first one written
            t = self.resolve(m[1], depth + 1)
            for n in reversed([int(d or 0) for d in re.findall(r"\[(\d*)\]", m[2])]):
                t = {"k": "array", "of": t, "n": n}
            return t
        if s.endswith("&"):
            return {"k": "ptr", "to": self.resolve(s[:-1].rstrip("&"), depth + 1), "const": False}
        if s.endswith("*"):
            pointee = s[:-1].strip()
            const = pointee.startswith("const ") or pointee.endswith(" const")
            return {"k": "ptr", "to": self.resolve(pointee, depth + 1), "const": const}
        for q in ("const", "volatile", "restrict", "__restrict"):
            if s.endswith((" " + q, "*" + q)):
                return self.resolve(s[: -len(q)], depth + 1)
            if s.startswith(q + " "):
                return self.resolve(s[len(q) + 1:], depth + 1)
        if s == "void":
            return {"k": "void"}
        if s in _INTS:
            return {"k": "int", "size": _INTS[s]}
        if s in _FLOATS:
            return {"k": "float", "size": _FLOATS[s]}
        tag, _, rest = s.partition(" ")
        if tag in ("struct", "union", "class") and rest:
            return {"k": "record", "name": rest}
        if tag == "enum" and rest:
            return {"k": "enum", "name": rest}
        if s in self.typedefs and self.typedefs[s] != s:  # also C++'s `typedef struct X {...} X;`
            return self.resolve(self.typedefs[s], depth + 1)
        if s in self.enums:
            return {"k": "enum", "name": s}
        if s in self.records:
            return {"k": "record", "name": s}
        return {"k": "unknown", "name": s}

    def signature(self, name: str) -> tuple[Type, list[tuple[str, Type]]]:
        ret, params = self.functions[name]
        return self.resolve(ret), [(p, self.resolve(t)) for p, t in params if t != "void"]


def _retag(spelling: str, old: str, new: str) -> str:
    for tag in ("struct ", "union ", "enum "):
        if spelling.startswith(tag + old + ".") or spelling.split("[")[0].strip() == tag + old:
            return tag + new + spelling[len(tag) + len(old):]
    return spelling


def _file_of(node: dict[str, Any]) -> str:
    loc = node.get("loc", {})
    loc = loc.get("expansionLoc", loc)
    return loc.get("file", "")


def _constant(node: dict[str, Any]) -> int | None:
    """The value clang computed for an enumerator written with `= expr`."""
    for c in node.get("inner", []):
        if "value" in c:
            return int(c["value"])
        found = _constant(c)
        if found is not None:
            return found
    return None


def dump_ast(clang: str, source: str, args: Sequence[str], language: str) -> list[dict[str, Any]]:
    """The top-level declarations of `source` (text) compiled by clang as `language`."""
    cmd = [clang, "-x", language, *args, "-Xclang", "-ast-dump=json", "-fsyntax-only", "-"]
    proc = subprocess.run(cmd, input=source, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout)["inner"]
