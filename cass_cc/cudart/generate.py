"""C++ source of the forwarding libraries: one `extern "C"` function per CUDA symbol, calling
its HIP counterpart with arguments, enums, structs and error codes converted.

Inputs: CUDA's side from cuda_abi.json (extract_cuda.py), HIP's from the installed headers
(decls.Decls), the CUDA -> HIP names from the mapping tables, and the functions the installed
libamdhip64 exports. For each parameter pair the plan is one of:
    same ABI (sizes and classes agree; enums whose mapped enumerators have equal values;
    records whose fields agree in order)         -> passed through, typed as HIP types it
    enum whose values differ                    -> converted by a table (unknown: invalid value)
    pointer to such an enum                     -> HIP value in a local, converted back after
    pointer to a record whose layout differs    -> converted field by field (by name) in a local
anything else (a different parameter count, a record by value that differs, an array of
records) leaves the function out, with the reason in the report (`Library.skipped` in __init__.py).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .decls import Decls, Type

ERROR_STRINGS = Path(__file__).with_name("error_strings.tsv")
HIP_ERROR = "hipError_t"
# The CUDA error enums: the runtime's cudaError_t and the driver's CUresult.
ERROR_ENUMS = {"cudaError": "cudaErrorUnknown", "cudaError_enum": "CUDA_ERROR_UNKNOWN"}
INVALID_VALUE = {"cudaError": "cudaErrorInvalidValue", "cudaError_enum": "CUDA_ERROR_INVALID_VALUE"}
# Record fields HIP names differently from CUDA ((CUDA record, CUDA field) -> HIP field).
FIELD_RENAMES = {
    ("cudaPointerAttributes", "type"): "memoryType",
    ("cudaDeviceProp", "sharedMemPerMultiprocessor"): "maxSharedMemoryPerMultiProcessor",
}
# CUDA records whose fields HIP's record lacks but HIP reports as device attributes, when
# CUDA's attribute is named after the field (asyncEngineCount <- cudaDevAttrAsyncEngineCount):
# record -> (CUDA attribute enum, its enumerators' prefix).
ATTRIBUTE_FILL = {"cudaDeviceProp": ("cudaDeviceAttr", "cudaDevAttr")}
# Implemented here rather than forwarded: they take CUDA's error codes and answer CUDA's names.
ERROR_FUNCTIONS = ("cudaGetErrorName", "cudaGetErrorString", "cuGetErrorName", "cuGetErrorString")


_INT_SPELLING = {1: "signed char", 2: "short", 4: "int", 8: "long long", 16: "__int128"}


def _unversioned(record: str) -> str:
    """CUDA 12's cudaDeviceProp is "cudaDeviceProp@12090" in cuda_abi.json (extract_cuda.merge)."""
    return record.partition("@")[0]


def _c_ident(name: str) -> str:
    return re.sub(r"\W", "_", name)


class Generator:
    def __init__(self, cuda: dict[str, Any], hip: Decls, names: dict[str, str], hip_exports: set[str]):
        self.cuda = cuda
        self.hip = hip
        self.names = names  # CUDA name -> HIP name (functions, enumerators, types)
        self.hip_exports = hip_exports
        self.helpers: dict[str, str] = {}  # helper name -> definition, in the order first needed
        self._equiv_memo: dict[tuple[str, str], bool] = {}

    # ---- equivalence ------------------------------------------------------------------------
    def hip_fields(self, name: str) -> list[tuple[str, Type]] | None:
        rec = self.hip.records.get(name)
        return None if rec is None else [(f, self.hip.resolve(t)) for f, t in rec["fields"]]

    def enum_pairs(self, cuda_enum: str, hip_enum: str | None) -> list[tuple[str, int, int]]:
        """(CUDA enumerator, CUDA value, HIP value) for the enumerators the tables map."""
        hip_values = self.hip.enums.get(hip_enum, {}) if hip_enum else {}
        pairs = []
        for cname, cval in self.cuda["enums"].get(cuda_enum, {}).items():
            hname = self.names.get(cname)
            if hname and hname in hip_values:
                pairs.append((cname, cval, hip_values[hname]))
        return pairs

    def enum_same(self, cuda_enum: str, hip_enum: str) -> bool:
        return all(c == h for _, c, h in self.enum_pairs(cuda_enum, hip_enum))

    def same(self, c: Type, h: Type) -> bool:
        """True when a value of CUDA type c can be handed over as HIP type h unchanged."""
        ck, hk = c["k"], h["k"]
        scalar = ("int", "enum", "ptr")
        if ck == "enum" and hk == "enum":
            return c["name"] not in ERROR_ENUMS and self.enum_same(c["name"], h["name"])
        if ck == "enum" and hk == "int":
            return h["size"] == 4
        if ck == "int" and hk == "enum":
            return c["size"] == 4
        if ck == "ptr" and hk == "ptr":
            return self.pointee_same(c["to"], h["to"])
        if ck in scalar and hk in scalar and "enum" not in (ck, hk):
            return c.get("size", 8) == h.get("size", 8)
        if ck == hk and ck in ("int", "float"):
            return c["size"] == h["size"]
        if ck == hk == "void":
            return True
        if ck == hk == "array":
            return c["n"] == h["n"] and self.same(c["of"], h["of"])
        if ck == hk == "record":
            return self.record_same(c["name"], h["name"])
        return False

    def pointee_same(self, c: Type, h: Type) -> bool:
        if self.opaque(c, h) or (c["k"] == "ptr" and h["k"] == "ptr"):
            return True
        return self.same(c, h)

    def opaque(self, c: Type, h: Type) -> bool:
        """Pointers to these are handles: nothing behind them is read here."""
        def incomplete(t: Type, side: str) -> bool:
            if t["k"] in ("void", "fn", "unknown"):
                return True
            table = self.cuda["records"] if side == "cuda" else self.hip.records
            return t["k"] == "record" and t["name"] not in table
        return incomplete(c, "cuda") or incomplete(h, "hip")

    def record_same(self, cname: str, hname: str) -> bool:
        key = (cname, hname)
        if key not in self._equiv_memo:
            self._equiv_memo[key] = False  # recursion guard
            crec = self.cuda["records"].get(cname)
            hfields = self.hip_fields(hname)
            ok = crec is not None and hfields is not None and len(crec["fields"]) == len(hfields) \
                and crec["union"] == self.hip.records[hname]["union"] \
                and all(self.same(ct, ht) for (_, ct, _), (_, ht) in zip(crec["fields"], hfields))
            self._equiv_memo[key] = ok
        return self._equiv_memo[key]

    def union_overlap(self, cname: str, hname: str) -> bool:
        """Two unions whose every HIP member has a CUDA member of that name and the same ABI
        (CUDA may have more, e.g. `reserved`)."""
        crec, hfields = self.cuda["records"].get(cname), self.hip_fields(hname)
        if crec is None or hfields is None or not crec["union"] or not self.hip.records[hname]["union"]:
            return False
        cuda_members = {f: t for f, t, _ in crec["fields"]}
        return all(f in cuda_members and self.same(cuda_members[f], t) for f, t in hfields)

    # ---- helpers: enum tables, error tables, CUDA struct definitions, struct converters ------
    def enum_helpers(self, cuda_enum: str, hip_enum: str) -> tuple[str, str]:
        """Names of `bool to_hip(int, int*)` and `int from_hip(int)` for this pair of enums."""
        base = f"cass_{_c_ident(cuda_enum)}_{_c_ident(hip_enum)}"
        if base + "_to_hip" not in self.helpers:
            pairs = self.enum_pairs(cuda_enum, hip_enum)
            seen: set[int] = set()  # aliases (two CUDA names of one value): the first one's mapping
            to_hip = "".join(f"  case {c}: *out = {h}; return true; /* {n} */\n"
                             for n, c, h in pairs if not (c in seen or seen.add(c)))
            back: dict[int, int] = {}
            for _, c, h in pairs:
                back.setdefault(h, c)
            for _, c, h in pairs:  # prefer the CUDA enumerator of the same value
                if c == h:
                    back[h] = c
            from_hip = "".join(f"  case {h}: return {c};\n" for h, c in sorted(back.items()))
            self.helpers[base + "_to_hip"] = (
                f"static bool {base}_to_hip(int v, int* out) {{\n  switch (v) {{\n{to_hip}"
                "  default: return false;\n  }\n}\n")
            self.helpers[base + "_from_hip"] = (
                f"static int {base}_from_hip(int v) {{\n  switch (v) {{\n{from_hip}"
                "  default: return v;\n  }\n}\n")
        return base + "_to_hip", base + "_from_hip"

    def error_helper(self, cuda_enum: str) -> str:
        """`int cass_err_<enum>(int hip)`: HIP's error code as this CUDA enum's."""
        name = f"cass_err_{_c_ident(cuda_enum)}"
        if name not in self.helpers:
            _, from_hip = self.enum_helpers(cuda_enum, HIP_ERROR)
            unknown = self.cuda["enums"][cuda_enum][ERROR_ENUMS[cuda_enum]]
            known = sorted({h for _, _, h in self.enum_pairs(cuda_enum, HIP_ERROR)})
            cases = "".join(f"  case {h}:\n" for h in known)
            self.helpers[name] = (
                f"static int {name}(int hip) {{\n  switch (hip) {{\n{cases}    return {from_hip}(hip);\n"
                f"  default: return {unknown};\n  }}\n}}\n")
        return name

    def struct_def(self, cname: str) -> str | None:
        """`struct cass_cuda_<name>` laid out as CUDA's record, or None when it holds a bitfield."""
        ident = f"cass_cuda_{_c_ident(cname)}"
        if ident in self.helpers:
            return ident
        rec = self.cuda["records"][cname]
        lines, checks = [], []
        for i, (fname, ftype, offset) in enumerate(rec["fields"]):
            decl = self._c_decl(ftype, _c_ident(fname) or f"anon{i}")
            if decl is None:
                return None
            lines.append(f"  {decl};")
            if offset is not None and fname:
                checks.append(f"static_assert(__builtin_offsetof({ident}, {_c_ident(fname)}) == {offset}, \"{cname}.{fname}\");")
        tag = "union" if rec["union"] else "struct"
        body = f"{tag} {ident} {{\n" + "\n".join(lines) + "\n};\n"
        if rec.get("size"):
            checks.append(f"static_assert(sizeof({ident}) == {rec['size']}, \"sizeof {cname}\");")
        self.helpers[ident] = body + "\n".join(checks) + "\n"
        return ident

    def _c_decl(self, t: Type, name: str) -> str | None:
        k = t["k"]
        if k == "int":
            return f"{_INT_SPELLING[t['size']]} {name}"
        if k == "float":
            return f"{ {2: '_Float16', 4: 'float', 8: 'double', 16: 'long double'}[t['size']] } {name}"
        if k == "enum":
            return f"int {name}"
        if k == "ptr":
            return f"void* {name}"
        if k == "array":
            inner = self._c_decl(t["of"], name)
            return None if inner is None else f"{inner}[{t['n']}]"
        if k == "record" and t["name"] in self.cuda["records"]:
            ident = self.struct_def(t["name"])
            return None if ident is None else f"{ident} {name}"
        return None

    def converter(self, cname: str, hname: str) -> tuple[str, str] | None:
        """Names of `void to_hip(H*, const C*)` and `void to_cuda(C*, const H*)`, or None when
        a field both records have cannot be converted (CUDA's fields HIP lacks are left 0)."""
        base = f"cass_conv_{_c_ident(cname)}"
        if base + "_to_cuda" in self.helpers:
            return base + "_to_hip", base + "_to_cuda"
        ident = self.struct_def(cname)
        hfields = self.hip_fields(hname)
        crec = self.cuda["records"][cname]
        if ident is None or hfields is None or crec["union"] or self.hip.records[hname]["union"]:
            return None
        htypes = dict(hfields)
        to_hip, to_cuda, mapped = [], [], 0
        for fname, ctype, _ in crec["fields"]:
            hf = FIELD_RENAMES.get((_unversioned(cname), fname), fname)
            if not fname or hf not in htypes:
                if fname and not fname.startswith("reserved"):
                    to_cuda.append(f"  memset(&d->{_c_ident(fname)}, 0, sizeof d->{_c_ident(fname)}); /* HIP has no {fname} */")
                continue
            pair = self._field(f"{_c_ident(fname)}", hf, ctype, htypes[hf])
            if pair is None:  # HIP would read a wrong or missing value: no converter at all
                return None
            mapped += 1
            to_hip.append(pair[0])
            to_cuda.append(pair[1])
        if not mapped:
            return None
        hip_spelling = self._hip_type_name(hname)
        self.helpers[base + "_to_hip"] = (
            f"static void {base}_to_hip({hip_spelling}* d, const {ident}* s) {{\n  memset(d, 0, sizeof *d);\n"
            + "\n".join(to_hip) + "\n}\n")
        self.helpers[base + "_to_cuda"] = (
            f"static void {base}_to_cuda({ident}* d, const {hip_spelling}* s) {{\n"
            + "\n".join(to_cuda) + "\n}\n")
        return base + "_to_hip", base + "_to_cuda"

    def _hip_type_name(self, hname: str) -> str:
        if "." in hname and hname not in self.hip.typedefs:
            # a record declared inside another (HIP 5.7's hipMemAllocationProp.allocFlags) has no
            # name of its own: the type of the member that holds it
            outer, member = hname.split(".", 1)
            return f"decltype((({self._hip_type_name(outer)}*)0)->{member})"
        tag = "union" if self.hip.records[hname]["union"] else "struct"
        return hname if hname in self.hip.typedefs or "<" not in hname else f"{tag} {hname}"

    def _field(self, cf: str, hf: str, c: Type, h: Type) -> tuple[str, str] | None:
        """(to_hip line, to_cuda line) for one field, or None."""
        if c["k"] == "array" and h["k"] == "array":
            inner = self._field(f"{cf}[i]", f"{hf}[i]", c["of"], h["of"])
            if inner is None:
                return None
            n = min(c["n"], h["n"])
            return (f"  for (int i = 0; i < {n}; i++) {{ {inner[0].strip()} }}",
                    f"  for (int i = 0; i < {n}; i++) {{ {inner[1].strip()} }}")
        if c["k"] == "enum" and h["k"] == "enum" and not self.enum_same(c["name"], h["name"]):
            to_hip, from_hip = self.enum_helpers(c["name"], h["name"])
            return (f"  {{ int v; if ({to_hip}(s->{cf}, &v)) d->{hf} = (decltype(d->{hf}))v; }}",
                    f"  d->{cf} = {from_hip}((int)s->{hf});")
        if c["k"] == "record" and h["k"] == "record":
            if self.union_overlap(c["name"], h["name"]):  # the members both have start at 0: copy them
                return (f"  memcpy(&d->{hf}, &s->{cf}, sizeof d->{hf} < sizeof s->{cf} ? sizeof d->{hf} : sizeof s->{cf});",
                        f"  memcpy(&d->{cf}, &s->{hf}, sizeof d->{hf} < sizeof s->{cf} ? sizeof d->{hf} : sizeof s->{cf});")
            if self.record_same(c["name"], h["name"]):
                return (f"  memcpy(&d->{hf}, &s->{cf}, sizeof d->{hf});", f"  memcpy(&d->{cf}, &s->{hf}, sizeof d->{cf});")
            conv = self.converter(c["name"], h["name"])
            if conv is None:
                return None
            return f"  {conv[0]}(&d->{hf}, &s->{cf});", f"  {conv[1]}(&d->{cf}, &s->{hf});"
        if self.same(c, h) and c["k"] in ("int", "enum", "ptr", "float") and h["k"] in ("int", "enum", "ptr", "float"):
            return f"  d->{hf} = (decltype(d->{hf}))s->{cf};", f"  d->{cf} = (decltype(d->{cf}))s->{hf};"
        if c["k"] == h["k"] and c["k"] in ("int", "float"):  # widths differ: the value converts
            return f"  d->{hf} = (decltype(d->{hf}))s->{cf};", f"  d->{cf} = (decltype(d->{cf}))s->{hf};"
        return None

    # ---- one wrapper ------------------------------------------------------------------------
    def wrapper(self, symbol: str, cuda_fn: dict[str, Any], hip_name: str) -> str:
        """The definition of `symbol` forwarding to `hip_name`; raises ValueError(reason)."""
        if hip_name not in self.hip.functions:
            raise ValueError(f"{hip_name} is not declared by the installed HIP headers")
        if self.hip.symbols[hip_name] not in self.hip_exports:
            raise ValueError(f"{hip_name} is not exported by the installed libamdhip64")
        hret_spelling, hparams = self.hip.functions[hip_name]
        hret, hps = self.hip.signature(hip_name)
        cret = cuda_fn["ret"]
        cps = [(n, t) for n, t in cuda_fn["params"]]
        if any(t["k"] == "varargs" for _, t in cps) or any(t["k"] == "varargs" for _, t in hps):
            raise ValueError("variadic")
        hp_spellings = [t for _, t in hparams if t != "void"]
        extra = []
        if len(hps) == len(cps) + 1 and hps[-1][0].lower() == "flags" and hps[-1][1]["k"] in ("int", "enum"):
            extra = ["0"]  # cudaMallocHost(p, size) -> hipHostMalloc(p, size, 0): HIP's added flags, default 0
        elif len(cps) != len(hps):
            raise ValueError(f"CUDA has {len(cps)} parameters, {hip_name} {len(hps)}")
        decls, pre, args, post = [], [], [], []
        for i, ((cname, c), (_, h), hspell) in enumerate(zip(cps, hps, hp_spellings)):
            p = f"p{i}"
            following = cps[i + 1][0].lower() if i + 1 < len(cps) else ""
            if self.same(c, h):
                decls.append(_declare(hspell, p))
                args.append(p)
                continue
            if c["k"] == "enum" and h["k"] == "enum":
                to_hip, _ = self.enum_helpers(c["name"], h["name"])
                decls.append(f"int {p}")
                pre.append(f"  int h{i}; if (!{to_hip}({p}, &h{i})) return {self._invalid(cret)};")
                args.append(f"({hspell})h{i}")
                continue
            if c["k"] == "ptr" and h["k"] == "ptr" and c["to"]["k"] == "enum" and h["to"]["k"] == "enum":
                to_hip, from_hip = self.enum_helpers(c["to"]["name"], h["to"]["name"])
                pointee = _pointee(hspell)
                decls.append(f"{'const ' if c['const'] else ''}int* {p}")
                pre.append(f"  {pointee} h{i}{{}}; if ({p}) {{ int v; if ({to_hip}(*{p}, &v)) h{i} = ({pointee})v; }}")
                args.append(f"{p} ? &h{i} : nullptr")
                if not c["const"]:
                    post.append(f"  if ({p}) *{p} = {from_hip}((int)h{i});")
                continue
            if c["k"] == "ptr" and h["k"] == "ptr" and c["to"]["k"] == "record" and h["to"]["k"] == "record":
                if following.startswith("num") or following.endswith("count"):
                    raise ValueError(f"parameter {cname}: an array of {c['to']['name']}, whose layout differs from HIP's")
                conv = self.converter(c["to"]["name"], h["to"]["name"])
                if conv is None:
                    raise ValueError(f"parameter {cname}: {c['to']['name']} cannot be converted to {h['to']['name']}")
                ident = self.struct_def(c["to"]["name"])
                pointee = _pointee(hspell)
                decls.append(f"{'const ' if c['const'] else ''}{ident}* {p}")
                pre.append(f"  {pointee} h{i}; memset(&h{i}, 0, sizeof h{i}); if ({p}) {conv[0]}(&h{i}, {p});")
                args.append(f"{p} ? &h{i} : nullptr")
                if not c["const"]:
                    post.append(f"  if ({p} && r == 0) {conv[1]}({p}, &h{i});")
                    device = next((f"p{j}" for j, (n, t) in enumerate(cps) if n in ("device", "dev") and t["k"] == "int"), None)
                    if _unversioned(c["to"]["name"]) in ATTRIBUTE_FILL and device:
                        post += self.attribute_fill(c["to"]["name"], h["to"]["name"], p, device)
                continue
            if c["k"] == "int" and h["k"] == "int":  # widths differ (size_t vs unsigned int): the value converts
                decls.append(f"{_INT_SPELLING[c['size']]} {p}")
                args.append(f"({hspell}){p}")
                continue
            raise ValueError(f"parameter {cname}: CUDA {_show(c)} vs HIP {_show(h)}")
        call = f"CASS_HIP({hip_name}, {_string(self.hip.symbols[hip_name])}, cass_t_{hip_name})({', '.join(args + extra)})"
        typedef = f"typedef {_function_type(hret_spelling, hp_spellings)};\n".replace("(*)", f"cass_t_{hip_name}", 1)
        if cret["k"] == "enum" and cret["name"] in ERROR_ENUMS and hret["k"] == "enum" and hret["name"] == HIP_ERROR:
            conv = self.error_helper(cret["name"])
            body = pre + [f"  int r = (int){call};"] + post + [f"  return {conv}(r);"]
            ret_spelling = "int"
        elif self.same(cret, hret) and not pre and not post:
            body = [f"  return {call};"] if hret["k"] != "void" else [f"  {call};"]
            ret_spelling = hret_spelling
        else:
            raise ValueError(f"returns CUDA {_show(cret)}, HIP {_show(hret)}")
        return (typedef + f'extern "C" CASS_EXPORT {ret_spelling} {symbol}({", ".join(decls) or "void"}) {{\n'
                + "\n".join(body) + "\n}\n")

    def attribute_fill(self, cname: str, hname: str, var: str, device: str) -> list[str]:
        """Lines setting the int fields of CUDA record `cname` that HIP's record lacks from
        hipDeviceGetAttribute (ATTRIBUTE_FILL)."""
        enum, prefix = ATTRIBUTE_FILL[_unversioned(cname)]
        hip_fields = {f for f, _ in self.hip_fields(hname) or []}
        hip_attrs = self.hip.enums.get("hipDeviceAttribute_t", {})
        getter = "hipDeviceGetAttribute"
        if getter not in self.hip.functions or self.hip.symbols[getter] not in self.hip_exports:
            return []
        ret, params = self.hip.functions[getter]
        self.helpers["cass_t_" + getter] = f"typedef {ret} cass_t_{getter}({', '.join(t for _, t in params)});\n"
        lines = []
        for fname, ftype, _ in self.cuda["records"][cname]["fields"]:
            if not fname or FIELD_RENAMES.get((_unversioned(cname), fname), fname) in hip_fields or ftype != {"k": "int", "size": 4}:
                continue
            attr = prefix + fname[0].upper() + fname[1:]
            hattr = self.names.get(attr)
            if attr in self.cuda["enums"].get(enum, {}) and hattr in hip_attrs:
                lines.append(f"  if ({var} && r == 0) {{ int v; if (CASS_HIP({getter}, \"{self.hip.symbols[getter]}\", cass_t_{getter})"
                             f"(&v, (hipDeviceAttribute_t){hip_attrs[hattr]}, {device}) == hipSuccess) {var}->{fname} = v; }}"
                             f" /* {attr} */")
        return lines

    def _invalid(self, cret: Type) -> str:
        if cret["k"] == "enum" and cret["name"] in INVALID_VALUE:
            return str(self.cuda["enums"][cret["name"]][INVALID_VALUE[cret["name"]]])
        raise ValueError("an enum argument to convert, and no error code to report a value HIP lacks")

    # ---- the error-name functions ------------------------------------------------------------
    def error_functions(self, prefix: str) -> dict[str, str]:
        """cudaGetErrorName/String (prefix "cuda") or cuGetErrorName/String (prefix "cu")."""
        enum = "cudaError" if prefix == "cuda" else "cudaError_enum"
        strings = _error_strings()
        names: dict[int, str] = {}
        for name, value in self.cuda["enums"][enum].items():
            names.setdefault(value, name)
        name_cases = "".join(f'  case {v}: return "{n}";\n' for v, n in sorted(names.items()))
        text_cases = "".join(f'  case {v}: return "{_escape(strings.get(n, n))}";\n' for v, n in sorted(names.items()))
        helper = (f"static const char* cass_name_{enum}(int e) {{\n  switch (e) {{\n{name_cases}  default: return 0;\n  }}\n}}\n"
                  f"static const char* cass_text_{enum}(int e) {{\n  switch (e) {{\n{text_cases}  default: return 0;\n  }}\n}}\n")
        self.helpers[f"cass_names_{enum}"] = helper
        if prefix == "cuda":
            return {
                "cudaGetErrorName": 'extern "C" CASS_EXPORT const char* cudaGetErrorName(int e) {\n'
                                    f'  const char* s = cass_name_{enum}(e);\n  return s ? s : "unrecognized error code";\n}}\n',
                "cudaGetErrorString": 'extern "C" CASS_EXPORT const char* cudaGetErrorString(int e) {\n'
                                      f'  const char* s = cass_text_{enum}(e);\n  return s ? s : "unrecognized error code";\n}}\n',
            }
        invalid = self.cuda["enums"][enum]["CUDA_ERROR_INVALID_VALUE"]
        out = {}
        for fn, table in (("cuGetErrorName", "name"), ("cuGetErrorString", "text")):
            out[fn] = (f'extern "C" CASS_EXPORT int {fn}(int e, const char** s) {{\n'
                       f"  if (!s) return {invalid};\n  *s = cass_{table}_{enum}(e);\n  return *s ? 0 : {invalid};\n}}\n")
        return out


def _declare(spelling: str, name: str) -> str:
    if "(*)" in spelling:
        return spelling.replace("(*)", f"(*{name})", 1)
    if spelling.endswith("]"):
        base, _, dims = spelling.partition("[")
        return f"{base.strip()} {name}[{dims}"
    return f"{spelling} {name}"


def _pointee(spelling: str) -> str:
    s = spelling.strip()
    assert s.endswith("*"), s
    s = s[:-1].strip()
    return s[len("const "):] if s.startswith("const ") else s


def _function_type(ret: str, params: list[str]) -> str:
    return f"{ret} (*)({', '.join(params) or 'void'})"


def _show(t: Type) -> str:
    if t["k"] == "ptr":
        return _show(t["to"]) + "*"
    return t.get("name") or (f"{t['k']}{t.get('size', '')}" if t["k"] in ("int", "float") else t["k"])


def _string(s: str) -> str:
    return '"' + s + '"'


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _error_strings() -> dict[str, str]:
    out = {}
    for line in ERROR_STRINGS.read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, text = line.partition("\t")
            out[name] = text
    return out


PRELUDE = r"""/* Generated by cass-cc (cass_cc/cudart): CUDA's C ABI forwarding to HIP. Do not edit. */
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#include <string.h>
#define CASS_EXPORT __attribute__((visibility("default")))
#ifdef CASS_DLSYM
/* The static archive reaches HIP through dlopen, so `-lcudart_static` alone links. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
static void* cass_hip_symbol(const char* name) {
  static void* lib;
  if (!lib) lib = dlopen(CASS_HIP_LIBRARY, RTLD_NOW | RTLD_GLOBAL);
  if (!lib) lib = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_GLOBAL);
  void* f = lib ? dlsym(lib, name) : 0;
  if (!f) { fprintf(stderr, "cass-cc cudart_static: cannot find %s in %s\n", name, CASS_HIP_LIBRARY); abort(); }
  return f;
}
#define CASS_HIP(fn, sym, type) ((type*)({ static void* cass_p; if (!cass_p) cass_p = cass_hip_symbol(sym); cass_p; }))
#else
#define CASS_HIP(fn, sym, type) fn
#endif
"""


def source(gen: Generator, wrappers: Iterable[str]) -> str:
    body = "".join(wrappers)
    return PRELUDE + "\n" + "\n".join(gen.helpers.values()) + "\n" + body


def stubs_source(symbols: Iterable[str]) -> str:
    """Definitions of HIP's own symbols, so that `-lcudart` alone resolves the hip* calls of
    translated code. The library names libamdhip64 its auxiliary filter (DT_AUXILIARY): the
    dynamic linker takes each of these from libamdhip64, and a stub runs only if it lacks one."""
    lines = ["/* Generated by cass-cc: HIP's symbols, served by libamdhip64 (the auxiliary filter). */",
             "void cass_missing_hip_symbol(const char* name);"]
    for i, sym in enumerate(sorted(symbols)):
        lines.append(f'void cass_stub_{i}(void) __asm__("{sym}");\n'
                     f'void cass_stub_{i}(void) {{ cass_missing_hip_symbol("{sym}"); }}')
    lines.append("#include <stdio.h>\n#include <stdlib.h>\n"
                 "void cass_missing_hip_symbol(const char* name) {\n"
                 '  fprintf(stderr, "cass-cc: %s is not in the HIP runtime loaded\\n", name);\n  abort();\n}')
    return "\n".join(lines) + "\n"
