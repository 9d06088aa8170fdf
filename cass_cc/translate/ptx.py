"""Inline PTX (`asm("..." : outputs : inputs)`) rewritten as HIP/C++ with the same effect.

`rewrite_asm(tokens, i, target)` is called by the rules translator on an `asm`/`__asm__`/
`__asm` token. It parses the whole GNU asm statement (template strings, operand lists,
clobbers), parses the PTX in the template and, when every instruction is one it knows,
returns C++ text doing the same thing with the operand expressions:

* one instruction with one result and each input read once: `(x) = <expr>`;
* anything else: `do { <inputs copied to locals>; <one statement per instruction>;
  <outputs written back>; } while (0)`, which is GNU asm's own order (inputs are read
  before any output is written) and is still one statement before the user's `;`.

Values are modelled as PTX registers: the constraint gives each operand a register class
(`h` u16, `r` u32, `l` u64, `f` f32, `d` f64, `n` immediate), each instruction reads and
writes its operands as its own type, converting (same width, other kind: a bit cast) as
the PTX register file does. Operations whose PTX semantics differ from C's (prmt, bfe,
bfi, generic lop3, saturating float->int conversions, non-contracted `.rn` arithmetic)
use helpers (`PTX_HELPERS`, emitted by prelude.py when `AsmRewrite.helpers` names them);
tests/translate/test_ptx.py checks them against the PTX ISA's definitions.

Anything not recognised leaves the text as it is, with a warning naming the instruction:
only a model translator can handle it.
"""
from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass, field

from ..util import split_top_level
from .base import Diagnostic, Target
from .lexer import SIGNIFICANT_SKIP, Token

ASM_KEYWORDS = frozenset({"asm", "__asm__", "__asm"})
_QUALIFIERS = frozenset({"volatile", "__volatile__", "__volatile", "inline", "__inline__", "goto"})


@dataclass(frozen=True)
class AsmRewrite:
    end: int  # index one past the asm statement's closing `)` (the `;` is not consumed)
    text: str  # replacement, with exactly as many line breaks as tokens[i:end] had
    diagnostics: list[Diagnostic]
    supported: bool
    helpers: frozenset[str] = field(default=frozenset())  # PTX_HELPERS names the text uses


class _Unsupported(Exception):
    pass


# -- register classes and PTX types ---------------------------------------------------------
_CLASS = {"h": "u16", "r": "u32", "l": "u64", "f": "f32", "d": "f64", "n": "imm", "c": "u8"}
_CTYPE = {
    "b8": "unsigned char", "u8": "unsigned char", "s8": "signed char",
    "b16": "unsigned short", "u16": "unsigned short", "s16": "short",
    "b32": "unsigned int", "u32": "unsigned int", "s32": "int",
    "b64": "unsigned long long", "u64": "unsigned long long", "s64": "long long",
    "f32": "float", "f64": "double", "pred": "bool",
}
_BITS = {t: (1 if t == "pred" else int(t[1:])) for t in _CTYPE}


def _kind(t: str) -> str:
    return "f" if t[0] == "f" else ("p" if t == "pred" else "i")


def _utype(t: str) -> str:
    """The unsigned type of a PTX integer type's width (arithmetic without signed overflow)."""
    return _CTYPE[f"u{_BITS[t]}"]


def _convert(expr: str, src: str, dst: str) -> str:
    """An expression of C type _CTYPE[src] as _CTYPE[dst], as PTX registers convert."""
    if src == dst or _CTYPE[src] == _CTYPE[dst]:
        return expr
    if _kind(src) != _kind(dst) and "p" not in (_kind(src), _kind(dst)):
        if _BITS[src] != _BITS[dst]:
            raise _Unsupported(f"{src} register read as {dst}")
        return f"__builtin_bit_cast({_CTYPE[dst]}, {expr})"
    return f"(({_CTYPE[dst]}){expr})"


# -- helpers emitted through prelude.py -------------------------------------------------------
_HD = "static __host__ __device__ inline"


def _bfe(bits: int, signed: bool) -> str:
    u = "unsigned int" if bits == 32 else "unsigned long long"
    one = "1u" if bits == 32 else "1ull"
    name = f"__cass_bfe_{'s' if signed else 'u'}{bits}"
    body = (
        f" unsigned int pos = b & 0xFFu, len = c & 0xFFu;"
        f" unsigned int n = pos > {bits - 1} ? 0 : (len < {bits}u - pos ? len : {bits}u - pos);"
        f" {u} field = n == 0 ? 0 : (a >> pos) & (n == {bits} ? ~({u})0 : ({one} << n) - {one});"
    )
    if signed:
        body += (
            f" if (len == 0) return 0;"
            f" unsigned int top = pos + len - 1 > {bits - 1} ? {bits - 1} : pos + len - 1;"
            f" if (n < {bits} && ((a >> top) & {one})) field |= ~({u})0 << n;"
        )
    return f"{_HD} {u} {name}({u} a, unsigned int b, unsigned int c) {{{body} return field; }}\n"


def _bfi(bits: int) -> str:
    u = "unsigned int" if bits == 32 else "unsigned long long"
    one = "1u" if bits == 32 else "1ull"
    return (
        f"{_HD} {u} __cass_bfi_b{bits}({u} a, {u} b, unsigned int c, unsigned int d) {{"
        f" unsigned int pos = c & 0xFFu, len = d & 0xFFu; if (pos > {bits - 1} || len == 0) return b;"
        f" unsigned int n = len < {bits}u - pos ? len : {bits}u - pos;"
        f" {u} m = (n == {bits} ? ~({u})0 : ({one} << n) - {one}) << pos; return (b & ~m) | ((a << pos) & m); }}\n"
    )


def _f2i(t: str) -> str:
    """Float -> integer as PTX cvt does it: NaN gives 0, out of range saturates."""
    bits, signed = _BITS[t], t[0] == "s"
    lo, hi = (-(1 << (bits - 1)), 1 << (bits - 1)) if signed else (0, 1 << bits)
    c = _CTYPE[t]
    lo_v = f"({c})({lo + 1}ll - 1)" if signed else f"({c})0"
    hi_v = f"({c})({hi - 1}ll)" if signed else f"({c})~({c})0"
    return (
        f"{_HD} {c} __cass_f2i_{t}(double r) {{ if (r != r) return 0; if (r <= {float(lo)!r}) return {lo_v};"
        f" if (r >= {float(hi)!r}) return {hi_v}; return ({c})r; }}\n"
    )


# HIP 5.2 declares wall_clock64() for the device compilation only; a host pass must parse it too.
_GLOBALTIMER = (
    "static __device__ inline unsigned long long __cass_globaltimer() {\n"
    "#ifdef __HIP_DEVICE_COMPILE__\n return (unsigned long long)wall_clock64();\n#else\n return 0;\n#endif\n}\n"
)
_RN = "{ _Pragma(\"clang fp contract(off)\") return a OP b; }"
PTX_HELPERS: dict[str, str] = {
    "__cass_prmt":
        f"{_HD} unsigned int __cass_prmt(unsigned int a, unsigned int b, unsigned int c) {{"
        " unsigned long long x = ((unsigned long long)b << 32) | a; unsigned int r = 0;"
        " for (int i = 0; i < 4; ++i) { unsigned int s = (c >> (4 * i)) & 15u;"
        " unsigned int v = (unsigned int)(x >> (8 * (s & 7u))) & 0xFFu;"
        " if (s & 8u) v = (v & 0x80u) ? 0xFFu : 0u; r |= v << (8 * i); } return r; }\n",
    "__cass_globaltimer": _GLOBALTIMER,
    "__cass_lop3":
        f"{_HD} unsigned int __cass_lop3(unsigned int a, unsigned int b, unsigned int c, unsigned int lut) {{"
        " unsigned int r = 0; for (int i = 0; i < 8; ++i) if ((lut >> i) & 1u)"
        " r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c); return r; }\n",
    # vabsdiff4 with .add: c plus the sum of the four byte lanes' |a - b| (PTX ISA, SIMD video
    # instructions), lanes unsigned or signed as the operand types say
    **{f"__cass_vabsdiff4_add_{t}":
       f"{_HD} unsigned int __cass_vabsdiff4_add_{t}(unsigned int a, unsigned int b, unsigned int c) {{"
       f" for (int i = 0; i < 32; i += 8) {{ int x = ({'signed' if t == 's' else 'unsigned'} char)(a >> i),"
       f" y = ({'signed' if t == 's' else 'unsigned'} char)(b >> i); c += (unsigned int)(x > y ? x - y : y - x); }}"
       " return c; }\n" for t in "us"},
    **{f"__cass_bfe_{s}{n}": _bfe(n, s == "s") for s in "us" for n in (32, 64)},
    **{f"__cass_bfi_b{n}": _bfi(n) for n in (32, 64)},
    **{f"__cass_f2i_{t}": _f2i(t) for t in ("s32", "u32", "s64", "u64")},
    **{f"__cass_{op}_rn":
       f"{_HD} float __cass_{op}_rn(float a, float b) {_RN.replace('OP', sym)}\n"
       f"{_HD} double __cass_{op}_rn(double a, double b) {_RN.replace('OP', sym)}\n"
       for op, sym in (("add", "+"), ("sub", "-"), ("mul", "*"))},
}

# -- lop3 with a literal LUT: a small C expression of a, b, c ----------------------------------
_TWO = {  # 2-input truth table over (x = 0b1100, y = 0b1010) -> expression
    0x0: "0", 0xF: "~0", 0xC: "x", 0xA: "y", 0x3: "~x", 0x5: "~y", 0x8: "x & y", 0xE: "x | y",
    0x6: "x ^ y", 0x9: "~(x ^ y)", 0x7: "~(x & y)", 0x1: "~(x | y)", 0x4: "x & ~y", 0x2: "~x & y",
    0xD: "x | ~y", 0xB: "~x | y",
}


def _two(tt: int, x: str, y: str) -> str:
    return re.sub(r"\b[xy]\b", lambda m: x if m.group() == "x" else y, _TWO[tt])


def lop3_expr(lut: int) -> str:
    """`a`, `b`, `c` combined as PTX lop3 does with this LUT (ta=0xF0, tb=0xCC, tc=0xAA):
    split on each variable in turn (Shannon), keep the shortest."""
    lut &= 0xFF
    best: str | None = None
    for pos, var in ((2, "a"), (1, "b"), (0, "c")):
        others = [v for v in "abc" if v != var]
        hi = lo = 0
        for k in range(4):  # k = (x, y) of the other two variables, x the high bit
            x, y = (k >> 1) & 1, k & 1
            rest = [p for p in (2, 1, 0) if p != pos]
            idx = (x << rest[0]) | (y << rest[1])
            hi |= ((lut >> (idx | 1 << pos)) & 1) << k
            lo |= ((lut >> idx) & 1) << k
        f1, f0 = _two(hi, *others), _two(lo, *others)
        if hi == lo:
            expr = f1
        elif lo == 0:
            expr = var if hi == 0xF else f"{var} & {_wrap(f1)}"
        elif hi == 0:
            expr = f"~{var}" if lo == 0xF else f"~{var} & {_wrap(f0)}"
        elif hi == 0xF:
            expr = f"{var} | {_wrap(f0)}"
        elif lo == 0xF:
            expr = f"~{var} | {_wrap(f1)}"
        elif hi == lo ^ 0xF:
            expr = f"{var} ^ {_wrap(f0)}"
        else:
            expr = f"({var} & {_wrap(f1)}) | (~{var} & {_wrap(f0)})"
        if best is None or len(expr) < len(best):
            best = expr
    assert best is not None
    return best


def _wrap(expr: str) -> str:
    return expr if re.fullmatch(r"~?\w+|~?\(.*\)", expr) and expr.count("(") <= 1 else f"({expr})"


# -- the asm statement -----------------------------------------------------------------------
@dataclass
class _Operand:
    constraint: str
    cls: str  # register class (u16, u32, u64, f32, f64, imm)
    expr: str  # the C expression, on one line
    output: bool
    input: bool


def rewrite_asm(tokens: list[Token], i: int, target: Target) -> AsmRewrite | None:
    """Rewrite the asm statement whose keyword is tokens[i]; None if it is not one."""
    tok = tokens[i]
    if tok.kind != "ident" or tok.text not in ASM_KEYWORDS:
        return None
    j = _next(tokens, i + 1)
    goto = False
    while j < len(tokens) and tokens[j].kind == "ident" and tokens[j].text in _QUALIFIERS:
        goto = goto or tokens[j].text == "goto"
        j = _next(tokens, j + 1)
    if j >= len(tokens) or tokens[j].text != "(":
        return None
    close = _matching(tokens, j)
    if close is None:
        return None
    end = close + 1
    original = "".join(t.text for t in tokens[i:end])

    def unsupported(what: str) -> AsmRewrite:
        msg = f"inline PTX '{what}' has no HIP rewrite; needs the model translator (--model ID_OR_PATH)"
        return AsmRewrite(end, original, [Diagnostic(tok.line, tok.col, "warning", msg)], False)

    sections = _sections(tokens, j + 1, close)
    strings = [t for t in sections[0] if t.kind not in SIGNIFICANT_SKIP]
    if not strings or any(t.kind != "string" or not t.text.startswith('"') for t in strings):
        return unsupported(" ".join(t.text for t in strings)[:60] or "asm")
    ptx = "".join(_unescape(t.text[1:-1]) for t in strings)
    extended = len(sections) > 1
    try:
        operands = _operands(sections[1:3]) if extended else []
    except _Unsupported:
        return unsupported(_first_instruction(ptx))
    if goto:
        return unsupported(_first_instruction(ptx))
    try:
        program = _parse(ptx, extended)
    except _Unsupported as e:
        return unsupported(str(e))
    diags: list[Diagnostic] = []
    emitter = _Emitter(operands, program.temps, target, tok, diags)
    try:
        text = emitter.emit(program)
    except _Unsupported as e:
        return unsupported(str(e) or _first_instruction(ptx))
    return AsmRewrite(end, text + _line_breaks(tokens[i:end], tok.directive is not None), diags, True,
                      frozenset(emitter.helpers))


def _next(tokens: list[Token], j: int) -> int:
    while j < len(tokens) and tokens[j].kind in SIGNIFICANT_SKIP:
        j += 1
    return j


def _matching(tokens: list[Token], j: int) -> int | None:
    depth = 0
    for k in range(j, len(tokens)):
        text = tokens[k].text
        if tokens[k].kind != "punct":
            continue
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return k if text == ")" else None
        elif text == ";" and depth <= 1:
            return None
    return None


def _sections(tokens: list[Token], start: int, close: int) -> list[list[Token]]:
    """The tokens between the parens, split at top-level `:` (a `::` token is two)."""
    sections: list[list[Token]] = [[]]
    depth = 0
    for k in range(start, close):
        t = tokens[k]
        if t.kind == "punct" and t.text in ("(", "[", "{"):
            depth += 1
        elif t.kind == "punct" and t.text in (")", "]", "}"):
            depth -= 1
        elif t.kind == "punct" and t.text in (":", "::") and depth == 0:
            sections.extend([] for _ in t.text)
            continue
        sections[-1].append(t)
    return sections


def _line_breaks(tokens: list[Token], in_directive: bool) -> str:
    """The line breaks of the replaced tokens, so every later line keeps its number (in a
    macro body they must stay backslash continuations)."""
    parts = []
    for t in tokens:
        if t.kind in ("newline", "continuation"):
            parts.append(t.text)
        elif t.kind in ("comment", "string", "raw_string", "char"):
            n = t.text.count("\n") + t.text.count("\r") - t.text.count("\r\n")
            parts.append(("\\\n" if in_directive else "\n") * n)
    return "".join(parts)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "\n": "", "0": "\0", "a": "\a",
            "v": "\v", "f": "\f"}


def _unescape(body: str) -> str:
    return re.sub(r"\\(\r?\n|.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)) if m.group(1) != "\r\n" else "", body)


def _one_line(tokens: list[Token]) -> str:
    parts = []
    for t in tokens:
        if t.kind in ("newline", "continuation", "comment"):
            parts.append(" ")
        else:
            parts.append(t.text)
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def _operands(sections: list[list[Token]]) -> list[_Operand]:
    operands: list[_Operand] = []
    for n, section in enumerate(sections):
        for item in _split_commas(section):
            sig = [t for t in item if t.kind not in SIGNIFICANT_SKIP]
            if not sig:
                continue
            if sig[0].kind != "string" or len(sig) < 3 or sig[1].text != "(" or sig[-1].text != ")":
                raise _Unsupported("operand")
            constraint = _unescape(sig[0].text[1:-1])
            letters = constraint.lstrip("=+&")
            if letters not in _CLASS:
                raise _Unsupported("constraint")
            first = item.index(sig[1])
            last = len(item) - 1 - item[::-1].index(sig[-1])
            expr = _one_line(item[first + 1:last])
            output = n == 0
            operands.append(_Operand(constraint, _CLASS[letters], expr, output, not output or "+" in constraint))
    return operands


def _split_commas(tokens: list[Token]) -> list[list[Token]]:
    items: list[list[Token]] = [[]]
    depth = 0
    for t in tokens:
        if t.kind == "punct" and t.text in ("(", "[", "{"):
            depth += 1
        elif t.kind == "punct" and t.text in (")", "]", "}"):
            depth -= 1
        elif t.kind == "punct" and t.text == "," and depth == 0:
            items.append([])
            continue
        items[-1].append(t)
    return items


# -- PTX text --------------------------------------------------------------------------------
@dataclass
class _Instruction:
    text: str  # as written, for diagnostics
    guard: str | None  # "p" or "!p"
    opcode: str
    args: list[str]


@dataclass
class _Program:
    instructions: list[_Instruction]
    temps: dict[str, str]  # PTX name -> type


def _first_instruction(ptx: str) -> str:
    for stmt in re.split(r"[;\n]", ptx):
        stmt = stmt.strip().strip("{}").strip()
        if stmt and not stmt.startswith(".reg"):
            return re.sub(r"\s+", " ", stmt)
    return ptx.strip()[:60]


def _parse(ptx: str, extended: bool) -> _Program:
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", ptx, flags=re.DOTALL)
    if extended:  # %N is operand N, %% a literal %
        text = re.sub(r"%(%|\d+)", lambda m: "%" if m.group(1) == "%" else f"${m.group(1)}", text)
    instructions: list[_Instruction] = []
    temps: dict[str, str] = {}
    for raw in text.split(";"):
        stmt = re.sub(r"\s+", " ", raw).strip()
        stmt = re.sub(r"^[{}\s]+", "", stmt)  # scope braces before the statement
        while stmt.endswith("}") and stmt.count("}") > stmt.count("{"):  # ... and after it
            stmt = stmt[:-1].rstrip()
        if not stmt:
            continue
        shown = stmt.replace("$", "%")
        if stmt.startswith(".reg"):
            m = re.fullmatch(r"\.reg\s*\.(\w+)\s+(.*)", stmt)
            if m is None or m.group(1) not in _CTYPE:
                raise _Unsupported(shown)
            for name in m.group(2).split(","):
                name = name.strip()
                many = re.fullmatch(r"(.*)<(\d+)>", name)
                for one in ([f"{many.group(1)}{k}" for k in range(int(many.group(2)))] if many else [name]):
                    temps[one] = m.group(1)
            continue
        m = re.fullmatch(r"(?:@(!?[%\w$]+)\s*)?([a-z][\w.:]*)(?:\s+(.*))?", stmt)
        if m is None:
            raise _Unsupported(shown)
        instructions.append(_Instruction(shown, m.group(1), m.group(2), _split_args(m.group(3) or "")))
    if not instructions:
        raise _Unsupported(ptx.strip()[:60] or "(empty)")
    return _Program(instructions, temps)


def _split_args(text: str) -> list[str]:
    return split_top_level(text, "{[", "}]")


_CONST_EXPR = re.compile(r"[0-9a-fA-FxXuUlL()+\-*<>|&^~ \t]+")
_CONST_EXPR_MAX = 256  # characters: bounds the parser's nesting and _evaluate's recursion
_SHIFT_MAX = 1 << 16  # bits: no PTX value is that wide; a larger left shift (of all but 0) would only build a huge number
_OPERATORS = {ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Invert: operator.invert,
              ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
              ast.LShift: operator.lshift, ast.RShift: operator.rshift,
              ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
              ast.Lt: operator.lt, ast.Gt: operator.gt}


def _literal(expr: str) -> int | None:
    """The value of an integer constant expression made of literals, else None."""
    if not _CONST_EXPR.fullmatch(expr) or "**" in expr or len(expr) > _CONST_EXPR_MAX:
        return None
    py = re.sub(r"\b(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*", lambda m: str(int(m.group(1), 0) if not re.fullmatch(r"0[0-7]+", m.group(1)) else int(m.group(1), 8)), expr)
    if re.search(r"[a-zA-Z]", py):
        return None
    try:
        return _evaluate(ast.parse(py.lstrip(" \t"), mode="eval").body)
    except (SyntaxError, ValueError):  # not an expression, or not one of integers and these operators
        return None


def _evaluate(node: ast.expr) -> int:
    """Python's value of an expression of integer literals and _OPERATORS (a comparison is a
    bool, a chain of them stops at the first false one, as in Python); ValueError for any other
    node, a negative shift count or a left shift of a non-zero value past _SHIFT_MAX."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.LShift) and right > _SHIFT_MAX and left:
            raise ValueError(f"shift count {right}")
        return _OPERATORS[type(node.op)](left, right)
    if isinstance(node, ast.Compare) and all(type(op) in _OPERATORS for op in node.ops):
        left = _evaluate(node.left)
        for op, comparator in zip(node.ops, node.comparators):
            right = _evaluate(comparator)
            if not _OPERATORS[type(op)](left, right):
                return False
            left = right
        return True
    raise ValueError(f"not an integer constant expression: {ast.dump(node)}")


# -- code generation -------------------------------------------------------------------------
_SPECIAL_DIM = {"tid": "threadIdx", "ntid": "blockDim", "ctaid": "blockIdx", "nctaid": "gridDim"}
_CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
        "lo": "<", "ls": "<=", "hi": ">", "hs": ">="}


class _Emitter:
    def __init__(self, operands: list[_Operand], temps: dict[str, str], target: Target, tok: Token,
                 diags: list[Diagnostic]) -> None:
        self.operands = operands
        self.temps = {name: _reg_class(t) for name, t in temps.items()}
        self.target = target
        self.tok = tok
        self.diags = diags
        self.helpers: set[str] = set()
        self.block = False
        self.reads: dict[int, int] = {}
        self.writes: list[int] = []
        self.current = ""

    # operands --------------------------------------------------------------------------------
    def _local(self, n: int) -> str:
        return f"__cass_p{n}"

    def _temp(self, name: str) -> str:
        return "__cass_t_" + re.sub(r"\W", "_", name.lstrip("%"))

    def read(self, arg: str, t: str) -> str:
        arg = arg.strip()
        neg = arg.startswith("!")
        if neg:
            if t != "pred":
                raise _Unsupported(self.current)
            return f"!{self.read(arg[1:], t)}"
        m = re.fullmatch(r"\$(\d+)", arg)
        if m:
            n = int(m.group(1))
            if n >= len(self.operands):
                raise _Unsupported(self.current)
            op = self.operands[n]
            if op.cls == "imm":
                return self._immediate(op.expr, t, c_expr=True)
            self.reads[n] = self.reads.get(n, 0) + 1
            if self.block:
                return _convert(self._local(n), op.cls, t)
            if not op.input:
                raise _Unsupported(self.current)  # reads an output before it is written
            return _convert(f"(({_CTYPE[op.cls]})({op.expr}))", op.cls, t)
        if arg in self.temps:
            if not self.block:
                raise _Unsupported(self.current)
            return _convert(self._temp(arg), self.temps[arg], t)
        special = self._special(arg)
        if special is not None:
            return _convert(special[0], special[1], t)
        return self._immediate(arg, t)

    def _immediate(self, text: str, t: str, c_expr: bool = False) -> str:
        m = re.fullmatch(r"0([fd])([0-9a-fA-F]{8}|[0-9a-fA-F]{16})", text)
        if m:  # PTX float literal: the bits in hex
            src = "f32" if m.group(1) == "f" else "f64"
            if len(m.group(2)) != (8 if src == "f32" else 16):
                raise _Unsupported(self.current)
            bits = f"0x{m.group(2)}{'u' if src == 'f32' else 'ull'}"
            return _convert(f"__builtin_bit_cast({_CTYPE[src]}, {bits})", src, t)
        value = _literal(text)
        if value is None:
            if re.fullmatch(r"[0-9]*\.[0-9]+(?:[eE][+-]?[0-9]+)?", text) and _kind(t) == "f":
                return text + ("f" if t == "f32" else "")
            if c_expr and _kind(t) == "i":
                return f"(({_CTYPE[t]})({text}))"  # an "n" operand given as a C constant expression
            raise _Unsupported(self.current)
        if _kind(t) == "f":
            return f"{value}.0" + ("f" if t == "f32" else "")
        if t == "pred":
            return "true" if value else "false"
        mask = (1 << _BITS[t]) - 1
        suffix = "ull" if _BITS[t] == 64 else "u"
        return f"(({_CTYPE[t]}){value & mask:#x}{suffix})"

    def _special(self, arg: str) -> tuple[str, str] | None:
        lane = "__lane_id()" if self.target.wave_size == 32 else "(__lane_id() & 31u)"
        name = arg.lstrip("%")
        if not arg.startswith("%") and name != "WARP_SZ":
            return None
        if name == "laneid":
            return lane, "u32"
        if name == "WARP_SZ":
            return "32u", "u32"
        if name == "clock":
            return "((unsigned int)clock64())", "u32"
        if name == "clock64":
            return "((unsigned long long)clock64())", "u64"
        if name == "globaltimer":
            self.diags.append(Diagnostic(self.tok.line, self.tok.col, "warning",
                                         "%globaltimer counts nanoseconds; its rewrite wall_clock64() counts ticks of "
                                         "hipDeviceAttributeWallClockRate (kHz)"))
            return f"{self._helper('__cass_globaltimer')}()", "u64"
        masks = {"lanemask_eq": "(1u << {l})", "lanemask_lt": "((1u << {l}) - 1u)", "lanemask_le": "((2u << {l}) - 1u)",
                 "lanemask_gt": "(~((2u << {l}) - 1u))", "lanemask_ge": "(~((1u << {l}) - 1u))"}
        if name in masks:
            return masks[name].format(l=lane), "u32"
        m = re.fullmatch(r"(n?tid|n?ctaid)\.([xyz])", name)
        if m:
            return f"{_SPECIAL_DIM[m.group(1)]}.{m.group(2)}", "u32"
        raise _Unsupported(self.current)  # %warpid, %smid, ...: nothing HIP has means the same

    def write(self, arg: str, t: str, value: str) -> str:
        arg = arg.strip()
        if arg == "_":
            return f"(void)({value})"
        m = re.fullmatch(r"\$(\d+)", arg)
        if m:
            n = int(m.group(1))
            if n >= len(self.operands) or not self.operands[n].output:
                raise _Unsupported(self.current)
            op = self.operands[n]
            target = self._local(n) if self.block else f"({op.expr})"
            self.writes.append(n)
            return f"{target} = {_convert(value, t, op.cls)}"
        if arg in self.temps and self.block:
            return f"{self._temp(arg)} = {_convert(value, t, self.temps[arg])}"
        raise _Unsupported(self.current)

    # whole statement -------------------------------------------------------------------------
    def emit(self, program: _Program) -> str:
        if len(program.instructions) == 1 and not program.temps and not program.instructions[0].guard:
            self.block = False
            self.reads, self.writes = {}, []
            try:
                stmts = self.instruction(program.instructions[0])
                if len(stmts) == 1 and len(self.writes) <= 1 and all(v <= 1 for v in self.reads.values()):
                    return stmts[0]
            except _Unsupported:
                pass
            self.helpers.clear()
            self.diags.clear()
        self.block = True
        self.reads, self.writes = {}, []
        body: list[str] = []
        for ins in program.instructions:
            stmts = self.instruction(ins)
            if ins.guard:
                cond = self.read(ins.guard, "pred")
                body.append(f"if ({cond}) {{ {'; '.join(stmts)}; }}")
            else:
                body.extend(s + ";" for s in stmts)
        decls = []
        for n, op in enumerate(self.operands):
            if op.cls == "imm" or (n not in self.reads and n not in self.writes):
                continue
            init = f"({_CTYPE[op.cls]})({op.expr})" if op.input else "0"
            decls.append(f"{_CTYPE[op.cls]} {self._local(n)} = {init};")
        decls.extend(f"{_CTYPE[cls]} {self._temp(name)} = 0;" for name, cls in self.temps.items())
        back = [f"({op.expr}) = {self._local(n)};" for n, op in enumerate(self.operands)
                if op.output and n in set(self.writes)]
        return "do { " + " ".join(decls + body + back) + " } while (0)"

    def instruction(self, ins: _Instruction) -> list[str]:
        self.current = ins.text
        parts = ins.opcode.split(".")
        op, mods = parts[0], parts[1:]
        handler = getattr(self, f"_i_{op}", None)
        if handler is None:
            raise _Unsupported(ins.text)
        result = handler(mods, ins.args)
        if result is None:
            raise _Unsupported(ins.text)
        return result

    def _helper(self, name: str) -> str:
        self.helpers.add(name)
        return name

    def _args(self, args: list[str], n: int) -> None:
        if len(args) != n:
            raise _Unsupported(self.current)

    @staticmethod
    def _type(mods: list[str]) -> str:
        if not mods or mods[-1] not in _CTYPE:
            raise _Unsupported()
        return mods[-1]

    def _ballot32(self, pred: str) -> str:
        if self.target.wave_size == 32:
            return f"((unsigned int)__ballot({pred}))"
        return f"((unsigned int)(__ballot({pred}) >> (__lane_id() & 32u)))"

    # instructions ---------------------------------------------------------------------------
    def _i_mov(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 2)
        t = self._type(mods)
        if len(mods) != 1:
            return None
        dst, src = args
        vec = re.fullmatch(r"\{(.*)\}", src)
        if vec:  # pack: {lo, hi}
            halves = [a.strip() for a in vec.group(1).split(",")]
            if len(halves) != 2 or t not in ("b64", "b32"):
                return None
            h = "u32" if t == "b64" else "u16"
            u = _CTYPE["u64" if t == "b64" else "u32"]
            value = f"((({u}){self.read(halves[1], h)} << {_BITS[h]}) | ({u}){self.read(halves[0], h)})"
            return [self.write(dst, "u64" if t == "b64" else "u32", value)]
        vec = re.fullmatch(r"\{(.*)\}", dst)
        if vec:  # split
            halves = [a.strip() for a in vec.group(1).split(",")]
            if len(halves) != 2 or t not in ("b64", "b32"):
                return None
            w = "u64" if t == "b64" else "u32"
            h = "u32" if t == "b64" else "u16"
            if not self.block:
                return self._again()
            whole = hi = self.read(src, w)
            return [self.write(halves[0], h, f"(({_CTYPE[h]}){whole})"),
                    self.write(halves[1], h, f"(({_CTYPE[h]})({hi} >> {_BITS[h]}))")]
        return [self.write(dst, t, self.read(src, t))]

    def _i_shfl(self, mods: list[str], args: list[str]) -> list[str] | None:
        if mods and mods[0] == "sync":
            mods = mods[1:]
            self._args(args, 5)
        else:
            self._args(args, 4)
        if mods[1:] != ["b32"] or mods[0] not in ("idx", "up", "down", "bfly") or "|" in args[0]:
            return None
        mode = mods[0]
        value = self.read(args[1], "u32")
        c = self._constant(args[3])
        clamp = 0 if mode == "up" else 0x1F
        if c is None:
            if not self.block:
                return self._again()
            width = f"(32 - (int)(({self.read(args[3], 'u32')} >> 8) & 31u))"
            self.diags.append(Diagnostic(self.tok.line, self.tok.col, "note",
                                         f"'{self.current}': shuffle width taken from the clamp operand's segment "
                                         f"mask, its clamp field assumed to be {clamp:#x}"))
            lane_mask = f"({width} - 1)"
        else:
            seg = (c >> 8) & 0x1F
            width_n = 32 - seg
            if c & ~0x1F1F or (c & 0x1F) != clamp or width_n & (width_n - 1) or seg & ~(0x1F ^ (width_n - 1)):
                return None
            width, lane_mask = str(width_n), str(width_n - 1)
        b_const = self._constant(args[2])
        if mode == "idx":
            lane = (str(b_const & int(lane_mask)) if b_const is not None and c is not None
                    else f"(int)({self.read(args[2], 'u32')} & {lane_mask})")
            call = f"__shfl({value}, {lane}, {width})"
        else:
            delta = f"{b_const & 31}u" if b_const is not None else f"({self.read(args[2], 'u32')} & 31u)"
            name = {"up": "__shfl_up", "down": "__shfl_down", "bfly": "__shfl_xor"}[mode]
            if mode == "bfly":
                delta = f"(int){delta}"
            call = f"{name}({value}, {delta}, {width})"
        return [self.write(args[0], "u32", call)]

    def _constant(self, arg: str) -> int | None:
        m = re.fullmatch(r"\$(\d+)", arg.strip())
        if m:
            n = int(m.group(1))
            return _literal(self.operands[n].expr) if n < len(self.operands) and self.operands[n].input else None
        return _literal(arg) if not arg.startswith("%") else None

    def _i_prmt(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 4)
        if mods != ["b32"]:
            return None
        a, b, c = (self.read(x, "u32") for x in args[1:])
        return [self.write(args[0], "u32", f"{self._helper('__cass_prmt')}({a}, {b}, {c})")]

    def _i_vabsdiff4(self, mods: list[str], args: list[str]) -> list[str] | None:
        """`vabsdiff4.u32.u32.u32.add d, a, b, c` (or .s32 lanes): sum of absolute differences."""
        self._args(args, 4)
        if mods not in (["u32", "u32", "u32", "add"], ["u32", "s32", "s32", "add"], ["s32", "s32", "s32", "add"]):
            return None  # saturation, lane selectors and the merge forms are not rewritten
        if any("." in arg for arg in args):
            return None
        a, b, c = (self.read(x, "u32") for x in args[1:])
        t = mods[1][0]
        return [self.write(args[0], "u32", f"{self._helper(f'__cass_vabsdiff4_add_{t}')}({a}, {b}, {c})")]

    def _i_bfe(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 4)
        t = self._type(mods)
        if len(mods) != 1 or t not in ("u32", "s32", "u64", "s64"):
            return None
        a = self.read(args[1], f"u{_BITS[t]}")
        b, c = self.read(args[2], "u32"), self.read(args[3], "u32")
        return [self.write(args[0], f"u{_BITS[t]}", f"{self._helper(f'__cass_bfe_{t}')}({a}, {b}, {c})")]

    def _i_bfi(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 5)
        if mods not in (["b32"], ["b64"]):
            return None
        w = f"u{mods[0][1:]}"
        a, b = self.read(args[1], w), self.read(args[2], w)
        c, d = self.read(args[3], "u32"), self.read(args[4], "u32")
        return [self.write(args[0], w, f"{self._helper('__cass_bfi_' + mods[0])}({a}, {b}, {c}, {d})")]

    def _i_lop3(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 5)
        if mods != ["b32"]:
            return None
        lut = self._constant(args[4])
        if lut is None:
            a, b, c, d = (self.read(x, "u32") for x in args[1:5])
            value = f"{self._helper('__cass_lop3')}({a}, {b}, {c}, {d})"
        else:
            expr = lop3_expr(lut)
            if expr in ("0", "~0"):
                value = "0u" if expr == "0" else "0xffffffffu"
            else:
                used = {v: len(re.findall(rf"\b{v}\b", expr)) for v in "abc"}
                if max(used.values()) > 1 and not self.block:
                    return self._again()
                names = {v: self.read(args[1 + k], "u32") for k, v in enumerate("abc") if used[v]}
                value = "(" + re.sub(r"\b[abc]\b", lambda m: names[m.group()], expr) + ")"
        return [self.write(args[0], "u32", value)]

    def _address(self, arg: str, t: str, space: str) -> str:
        m = re.fullmatch(r"\[\s*([^\]+\-]+?)\s*(?:([+-])\s*(\w+))?\s*\]", arg)
        if m is None:
            raise _Unsupported(self.current)
        base = m.group(1)
        reg = re.fullmatch(r"\$(\d+)", base)
        cls = self.operands[int(reg.group(1))].cls if reg and int(reg.group(1)) < len(self.operands) else \
            self.temps.get(base)
        if cls != "u64":
            raise _Unsupported(self.current)  # a 32-bit or symbolic address: not a plain pointer
        addr = self.read(base, "u64")
        if m.group(2):
            off = _literal(m.group(3))
            if off is None:
                raise _Unsupported(self.current)
            addr = f"({addr} {m.group(2)} {off})"
        return f"(({space}{_CTYPE[t]}*){addr})"

    _LOAD_HINTS = frozenset({"global", "weak", "ca", "cg", "cs", "lu", "nc"})
    _STORE_HINTS = frozenset({"global", "weak", "wb", "cg", "cs", "wt"})

    def _memory(self, mods: list[str], load: bool) -> tuple[str, int, str] | None:
        """(type, vector length, pointer qualifiers) of a plain global or generic access."""
        t = self._type(mods)
        volatile = ""
        vec = 1
        for m in mods[:-1]:
            if m in (self._LOAD_HINTS if load else self._STORE_HINTS):
                continue  # cache policies: the same values either way
            if m.startswith(("L1::", "L2::")) and m != "L2::cache_hint":
                continue
            if m in ("volatile", "cv"):
                volatile = "volatile "
            elif m in ("v2", "v4"):
                vec = int(m[1])
            else:
                return None  # shared/local/const/param windows, acquire/release scopes, ...
        if "nc" in mods and "global" not in mods or t == "pred":
            return None
        return t, vec, ("const " if load else "") + volatile

    def _i_ld(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 2)
        info = self._memory(mods, True)
        if info is None:
            return None
        t, vec, space = info
        ptr = self._address(args[1], t, space)
        dsts = [a.strip() for a in args[0].strip("{}").split(",")] if vec > 1 else [args[0]]
        if len(dsts) != vec or (vec > 1 and not args[0].startswith("{")):
            return None
        if vec > 1 and not self.block:
            raise _Unsupported(self.current)
        return [self.write(d, t, f"{ptr}[{k}]") for k, d in enumerate(dsts)]

    def _i_st(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 2)
        info = self._memory(mods, False)
        if info is None:
            return None
        t, vec, space = info
        srcs = [a.strip() for a in args[1].strip("{}").split(",")] if vec > 1 else [args[1]]
        if len(srcs) != vec:
            return None
        if vec > 1 and not self.block:
            raise _Unsupported(self.current)
        ptr = self._address(args[0], t, space)
        return [f"{ptr}[{k}] = {self.read(s, t)}" for k, s in enumerate(srcs)]

    def _i_cvt(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 2)
        if len(mods) < 2 or "ftz" in mods or "sat" in mods:
            return None
        dt, at = mods[-2], mods[-1]
        rnd = mods[:-2]
        if len(rnd) > 1:
            return None
        rnd_s = rnd[0] if rnd else ""
        if dt == "f16" and at == "f32" and rnd_s == "rn":
            value = f"__builtin_bit_cast(unsigned short, (_Float16){self.read(args[1], 'f32')})"
            return [self.write(args[0], "u16", value)]
        if dt == "f32" and at == "f16" and not rnd_s:
            value = f"((float)__builtin_bit_cast(_Float16, {self.read(args[1], 'u16')}))"
            return [self.write(args[0], "f32", value)]
        if dt not in _CTYPE or at not in _CTYPE or "pred" in (dt, at):
            return None
        src = self.read(args[1], at)
        kinds = _kind(dt) + _kind(at)
        if kinds == "if":
            fn = {"rni": "rint", "rzi": "trunc", "rmi": "floor", "rpi": "ceil"}.get(rnd_s)
            if fn is None or _BITS[dt] < 32:
                return None
            fn = f"__builtin_{fn}{'f' if at == 'f32' else ''}"
            return [self.write(args[0], dt, f"{self._helper('__cass_f2i_' + dt)}({fn}({src}))")]
        if kinds == "fi":
            return [self.write(args[0], dt, f"(({_CTYPE[dt]}){src})")] if rnd_s == "rn" or (
                not rnd_s and _BITS[at] < 24 and dt == "f32") else None
        if kinds == "ff":
            if dt == at:
                fn = {"rni": "rint", "rzi": "trunc", "rmi": "floor", "rpi": "ceil"}.get(rnd_s)
                return [self.write(args[0], dt, f"__builtin_{fn}{'f' if at == 'f32' else ''}({src})")] if fn else None
            if (dt, at) == ("f64", "f32") and not rnd_s or (dt, at) == ("f32", "f64") and rnd_s == "rn":
                return [self.write(args[0], dt, f"(({_CTYPE[dt]}){src})")]
            return None
        if kinds == "ii" and not rnd_s:
            return [self.write(args[0], dt, f"(({_CTYPE[dt]}){src})")]
        return None

    def _float_args(self, mods: list[str], args: list[str], n: int, bits_only: bool = False
                    ) -> tuple[str, list[str], list[str]]:
        """(type, other modifiers, operands read as the type; as its unsigned type for
        `bits_only` integer operations, whose result bits do not depend on signedness)."""
        self._args(args, n + 1)
        t = self._type(mods)
        rt = f"u{_BITS[t]}" if bits_only and _kind(t) == "i" else t
        return t, mods[:-1], [self.read(a, rt) for a in args[1:]]

    def _i_fma(self, mods: list[str], args: list[str]) -> list[str] | None:
        t, rest, (a, b, c) = self._float_args(mods, args, 3)
        if rest != ["rn"] or t not in ("f32", "f64"):
            return None
        return [self.write(args[0], t, f"__builtin_fma{'f' if t == 'f32' else ''}({a}, {b}, {c})")]

    def _arith(self, op: str, sym: str, mods: list[str], args: list[str]) -> list[str] | None:
        t, rest, (a, b) = self._float_args(mods, args, 2, bits_only=mods[-2:-1] not in (["hi"], ["wide"]))
        if _kind(t) == "f":
            if t not in ("f32", "f64") or rest not in ([], ["rn"]):
                return None
            if rest == ["rn"]:  # .rn: must not be fused with a neighbouring multiply or add
                return [self.write(args[0], t, f"{self._helper(f'__cass_{op}_rn')}({a}, {b})")]
            return [self.write(args[0], t, f"({a} {sym} {b})")]
        if _kind(t) != "i" or rest != ([] if op != "mul" else ["lo"]) and not (op == "mul" and rest in (["hi"], ["wide"])):
            return None
        u = _utype(t) if _BITS[t] >= 32 else "unsigned int"  # no promotion to (overflowing) int
        if op == "mul" and rest == ["hi"]:
            fn = {"u32": "__umulhi", "s32": "__mulhi", "u64": "__umul64hi", "s64": "__mul64hi"}.get(t)
            return [self.write(args[0], t, f"{fn}({a}, {b})")] if fn else None
        if op == "mul" and rest == ["wide"]:
            if _BITS[t] not in (16, 32):
                return None
            wide = f"{t[0]}{_BITS[t] * 2}"
            return [self.write(args[0], wide, f"(({_CTYPE[wide]}){a} * ({_CTYPE[wide]}){b})")]
        a, b = (v if _BITS[t] >= 32 else f"({u}){v}" for v in (a, b))
        return [self.write(args[0], f"u{_BITS[t]}", f"({a} {sym} {b})")]

    def _i_add(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._arith("add", "+", mods, args)

    def _i_sub(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._arith("sub", "-", mods, args)

    def _i_mul(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._arith("mul", "*", mods, args)

    def _i_mad(self, mods: list[str], args: list[str]) -> list[str] | None:
        t, rest, (a, b, c) = self._float_args(mods, args, 3, bits_only=mods[-2:-1] == ["lo"])
        if _kind(t) == "f":
            return self._i_fma(mods, args) if rest == ["rn"] else None
        if _kind(t) != "i":
            return None
        if rest == ["lo"]:
            u = _utype(t) if _BITS[t] >= 32 else "unsigned int"
            a, b, c = (v if _BITS[t] >= 32 else f"({u}){v}" for v in (a, b, c))
            return [self.write(args[0], f"u{_BITS[t]}", f"({a} * {b} + {c})")]
        if rest == ["wide"] and _BITS[t] in (16, 32):
            wide = f"{t[0]}{_BITS[t] * 2}"
            c = self.read(args[3], wide)
            self._unread(args[3])
            w = _CTYPE[wide]
            return [self.write(args[0], wide, f"(({_utype(wide)})(({w}){a} * ({w}){b}) + ({_utype(wide)}){c})")]
        return None

    def _unread(self, arg: str) -> None:
        m = re.fullmatch(r"\$(\d+)", arg.strip())
        if m and int(m.group(1)) in self.reads:
            self.reads[int(m.group(1))] -= 1

    def _minmax(self, sym: str, fn: str, mods: list[str], args: list[str]) -> list[str] | None:
        t, rest, (a, b) = self._float_args(mods, args, 2)
        if rest:
            return None
        if _kind(t) != "i":
            return None  # float min/max: NaN and signed-zero rules not checked against fminf
        if not self.block:
            return self._again()
        return [self.write(args[0], t, f"({a} {sym} {b} ? {a} : {b})")]

    def _again(self) -> list[str]:
        raise _Unsupported(self.current)  # needs its operands twice: block form only

    def _i_min(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._minmax("<", "fmin", mods, args)

    def _i_max(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._minmax(">", "fmax", mods, args)

    def _logic(self, sym: str, mods: list[str], args: list[str]) -> list[str] | None:
        t, rest, vals = self._float_args(mods, args, 2)
        if rest or t not in ("pred", "b16", "b32", "b64"):
            return None
        op = {"&": "&&", "|": "||", "^": "!="}[sym] if t == "pred" else sym
        return [self.write(args[0], t, f"({vals[0]} {op} {vals[1]})")]

    def _i_and(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._logic("&", mods, args)

    def _i_or(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._logic("|", mods, args)

    def _i_xor(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._logic("^", mods, args)

    def _i_not(self, mods: list[str], args: list[str]) -> list[str] | None:
        t, rest, (a,) = self._float_args(mods, args, 1)
        if rest or t not in ("pred", "b16", "b32", "b64"):
            return None
        return [self.write(args[0], t, f"(!{a})" if t == "pred" else f"(({_CTYPE[t]})~{a})")]

    def _i_shl(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 3)
        t = self._type(mods)
        if len(mods) != 1 or t not in ("b16", "b32", "b64"):
            return None
        if not self.block:
            return self._again()
        a, b = self.read(args[1], t), self.read(args[2], "u32")
        return [self.write(args[0], t, f"({b} >= {_BITS[t]}u ? ({_CTYPE[t]})0 : ({_CTYPE[t]})({a} << {b}))")]

    def _i_shr(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 3)
        t = self._type(mods)
        if len(mods) != 1 or _kind(t) != "i":
            return None
        if not self.block:
            return self._again()
        a, b = self.read(args[1], t), self.read(args[2], "u32")
        top = _BITS[t] - 1
        if t[0] == "s":  # arithmetic: shifts past the width fill with the sign
            return [self.write(args[0], t, f"({_CTYPE[t]})({a} >> ({b} > {top}u ? {top}u : {b}))")]
        return [self.write(args[0], t, f"({b} > {top}u ? ({_CTYPE[t]})0 : ({_CTYPE[t]})({a} >> {b}))")]

    def _i_neg(self, mods: list[str], args: list[str]) -> list[str] | None:
        t, rest, (a,) = self._float_args(mods, args, 1)
        if rest or t not in ("s16", "s32", "s64", "f32", "f64"):
            return None
        return [self.write(args[0], t, f"(-{a})" if _kind(t) == "f" else f"({_CTYPE[t]})(({_utype(t)})0 - ({_utype(t)}){a})")]

    def _i_bar(self, mods: list[str], args: list[str]) -> list[str] | None:
        if mods in (["sync"], ["sync", "aligned"]) and len(args) == 1 and self._constant(args[0]) == 0:
            return ["__syncthreads()"]
        if mods == ["warp", "sync"] and len(args) == 1:
            return [self._helper("__cass_syncwarp") + "()"]  # prelude.py's WARP_HELPERS
        return None

    def _i_barrier(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._i_bar(mods, args)

    def _i_membar(self, mods: list[str], args: list[str]) -> list[str] | None:
        fence = {"gl": "__threadfence()", "cta": "__threadfence_block()", "sys": "__threadfence_system()"}
        return [fence[mods[0]]] if len(mods) == 1 and mods[0] in fence and not args else None

    def _i_fence(self, mods: list[str], args: list[str]) -> list[str] | None:
        fence = {"gpu": "__threadfence()", "cta": "__threadfence_block()", "sys": "__threadfence_system()"}
        if len(mods) == 2 and mods[0] in ("sc", "acq_rel") and mods[1] in fence and not args:
            return [fence[mods[1]]]
        return None

    def _i_vote(self, mods: list[str], args: list[str]) -> list[str] | None:
        if mods and mods[0] == "sync":
            mods = mods[1:]
            self._args(args, 3)
        else:
            self._args(args, 2)
        if mods == ["ballot", "b32"]:
            return [self.write(args[0], "u32", self._ballot32(self.read(args[1], "pred")))]
        if mods in (["any", "pred"], ["all", "pred"]):
            ballot = self._ballot32(self.read(args[1], "pred"))
            value = f"({ballot} != 0u)" if mods[0] == "any" else f"({ballot} == {self._ballot32('1')})"
            return [self.write(args[0], "pred", value)]
        return None

    def _i_activemask(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 1)
        return [self.write(args[0], "u32", self._ballot32("1"))] if mods == ["b32"] else None

    def _i_setp(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 3)
        t = self._type(mods)
        if len(mods) != 2 or mods[0] not in _CMP or "|" in args[0] or t == "pred":
            return None
        cmp = mods[0]
        if _kind(t) == "f" and cmp in ("lo", "ls", "hi", "hs") or _kind(t) == "i" and t[0] == "s" and cmp in ("lo", "ls", "hi", "hs"):
            return None
        a, b = self.read(args[1], t), self.read(args[2], t)
        if _kind(t) == "f" and cmp == "ne":  # ordered: false when either is NaN
            return [self.write(args[0], "pred", f"__builtin_islessgreater({a}, {b})")]
        if t[0] == "b" and cmp not in ("eq", "ne"):
            return None
        return [self.write(args[0], "pred", f"({a} {_CMP[cmp]} {b})")]

    def _i_selp(self, mods: list[str], args: list[str]) -> list[str] | None:
        self._args(args, 4)
        t = self._type(mods)
        if len(mods) != 1:
            return None
        a, b, c = self.read(args[1], t), self.read(args[2], t), self.read(args[3], "pred")
        return [self.write(args[0], t, f"({c} ? {a} : {b})")]

    def _bits(self, mods: list[str], args: list[str], fn32: str, fn64: str, result: str | None) -> list[str] | None:
        self._args(args, 2)
        if mods not in (["b32"], ["b64"]):
            return None
        t = mods[0]
        a = self.read(args[1], t)
        value = f"{fn32 if t == 'b32' else fn64}({a})"
        return [self.write(args[0], result or t, f"((unsigned int){value})" if result else value)]

    def _i_popc(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._bits(mods, args, "__popc", "__popcll", "u32")

    def _i_clz(self, mods: list[str], args: list[str]) -> list[str] | None:
        if mods == ["b32"]:
            return [self.write(args[0], "u32", f"((unsigned int)__clz((int){self.read(args[1], 'b32')}))")] if len(args) == 2 else None
        if mods == ["b64"]:
            return [self.write(args[0], "u32", f"((unsigned int)__clzll((long long){self.read(args[1], 'b64')}))")] if len(args) == 2 else None
        return None

    def _i_brev(self, mods: list[str], args: list[str]) -> list[str] | None:
        return self._bits(mods, args, "__brev", "__brevll", None)


def _reg_class(t: str) -> str:
    """The register class a `.reg .<t>` declaration gives (signed ones hold their bits)."""
    return "pred" if t == "pred" else t if t[0] == "f" else f"u{_BITS[t]}"

