"""Translate AMD's per-instruction pseudocode (tinygrad's str_pcode tables) into Python.

Each opcode's text is parsed once and turned into the source of one Python function that works on
NumPy arrays, all lanes (and all waves of a group) at once. Conditions that differ per lane become
predicated assignments (`R.sel(p, new, old)`), loops with `break` keep a per-lane "done" mask.
Values carry their NumPy dtype; the helpers in rt.py apply C-like promotion.

The function takes the operands as raw bits (S0, S1, S2, D0, SCC, VCC, EXEC, M0, laneId, SIMM16,
SIMM32) and returns a dict of what the pseudocode assigned: register containers by name, and
`lane:NAME` for per-lane bits written with `NAME.u64[laneId] = ...`.
Text this translator cannot handle raises Unsupported; the caller then needs a hand-written override.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

REGS = ("S0", "S1", "S2", "D0", "D1", "SCC", "VCC", "EXEC", "M0", "SIMM16", "SIMM32", "laneId")
OUTPUTS = ("D0", "D1", "SCC", "VCC", "EXEC", "M0", "S0")  # S0: V_SWAP_B32 writes its source too
CONSTS = {"WAVE64": "False", "WAVE32": "True", "PI": "R.PI", "INF": "R.INF", "NAN": "R.NAN",
          "laneID": "laneId", "ROUND_MODE": "0", "ROUND_TOWARD_ZERO": "0", "ROUND_NEAREST_EVEN": "0"}
TYPES = re.compile(r"^(u|i|b|f)(1|8|16|24|32|64)$|^bf16$")
KEYWORDS = {"if", "then", "elsif", "else", "endif", "for", "in", "do", "endfor", "declare", "break"}


class Unsupported(Exception):
    pass


TOKEN = re.compile(r"""
 (?P<ws>[ \t\r]+) | (?P<comment>//[^\n]*) | (?P<nl>\n) |
 (?P<sized>\d+'(?:[IUFB](?![0-9a-fx])|-?0x[0-9a-fA-F]+[A-Z]*|-?\d+\.\d+[A-Z]*|-?\d+[A-Z]*)) |
 (?P<num>0x[0-9a-fA-F]+[A-Z]*|\d+\.\d+(?:[eE][-+]?\d+)?F?|\d+[A-Z]*) |
 (?P<name>[A-Za-z_][A-Za-z_0-9]*) |
 (?P<op>\*\*|<<|>>|<=|>=|==|!=|<>|&&|\|\||\+=|-=|\|=|&=|\^=|\*=|[-+*/%&|^~!<>=?:;,.()\[\]{}])
""", re.X)


def tokenize(text: str) -> list[str]:
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise Unsupported(f"cannot read {text[pos:pos + 20]!r}")
        pos = m.end()
        kind = m.lastgroup
        if kind in ("ws", "comment"):
            continue
        out.append("\n" if kind == "nl" else m.group())
    return out


def _literal(tok: str) -> str:
    """A plain number token as Python source (typed where its suffix says)."""
    body = tok.rstrip("ULF") if not tok.startswith("0x") else re.sub(r"[ULG]+$", "", tok)
    suffix = tok[len(body):]
    if "." in body or (suffix == "F" and not tok.startswith("0x")):
        return f"R.f32({body})" if suffix == "F" else body
    value = int(body, 0)
    if suffix in ("ULL",):
        return f"R.u64({value})"
    if suffix in ("LL",):
        return f"R.i64({value})"
    if suffix == "U":
        return f"R.u32({value})"
    return str(value)


def _sized(tok: str) -> str:
    width, rest = tok.split("'", 1)
    bits = int(width)
    rest = rest.rstrip("UI") if not rest.startswith(("0x", "-0x")) else rest.rstrip("UI")
    if "." in rest:
        return f"R.cvt({rest.rstrip('F')}, 'f{bits}')"
    value = int(rest, 0)
    if bits in (8, 16, 32, 64):
        return f"R.cvt({value}, 'u{bits}')"
    return f"R.u32({value})" if bits < 32 else f"R.sized({value}, {bits})"


@dataclass
class Gen:
    toks: list[str]
    pos: int = 0
    lines: list[str] = field(default_factory=list)
    indent: int = 1
    defined: set[str] = field(default_factory=set)
    assigned: set[str] = field(default_factory=set)
    lanes: set[str] = field(default_factory=set)
    tmp: int = 0
    pred: str = "True"
    brk: list[str] = field(default_factory=list)

    # ---- token helpers -------------------------------------------------------------------------
    def peek(self, k: int = 0) -> str:
        i = self.pos + k
        return self.toks[i] if i < len(self.toks) else ""

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if want is not None and tok != want:
            raise Unsupported(f"expected {want!r}, found {tok!r}")
        self.pos += 1
        return tok

    def new(self, stem: str = "t") -> str:
        self.tmp += 1
        return f"_{stem}{self.tmp}"

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    # ---- expressions ---------------------------------------------------------------------------
    BINARY = [
        ("||", "R.lor"), ("&&", "R.land"), ("|", "R.bor"), ("^", "R.bxor"), ("&", "R.band"),
        (("==", "!=", "<>"), None), (("<", "<=", ">", ">="), None), (("<<", ">>"), None), (("+", "-"), None),
        (("*", "/", "%"), None), (("**",), None),
    ]
    OPS = {"==": "R.eq", "!=": "R.ne", "<>": "R.lg", "<": "R.lt", "<=": "R.le", ">": "R.gt", ">=": "R.ge",
           "<<": "R.shl", ">>": "R.shr", "+": "R.add", "-": "R.sub", "*": "R.mul", "/": "R.div", "%": "R.mod",
           "**": "R.pow", "||": "R.lor", "&&": "R.land", "|": "R.bor", "^": "R.bxor", "&": "R.band"}

    def expr(self) -> str:
        cond = self.binary(0)
        if self.peek() == "?":
            self.take()
            a = self.expr()
            self.take(":")
            b = self.expr()
            return f"R.where({cond}, {a}, {b})"
        return cond

    def binary(self, level: int) -> str:
        if level == len(self.BINARY):
            return self.unary()
        ops = self.BINARY[level][0]
        ops = (ops,) if isinstance(ops, str) else ops
        left = self.binary(level + 1)
        while self.peek() in ops:
            op = self.take()
            right = self.binary(level + 1)
            left = f"{self.OPS[op]}({left}, {right})"
        return left

    def unary(self) -> str:
        tok = self.peek()
        if tok == "-":
            self.take()
            return f"R.neg({self.unary()})"
        if tok == "+":
            self.take()
            return self.unary()
        if tok == "!":
            self.take()
            return f"R.lnot({self.unary()})"
        if tok == "~":
            self.take()
            return f"R.bnot({self.unary()})"
        return self.postfix(self.primary())

    def postfix(self, base: str) -> str:
        while True:
            tok = self.peek()
            if tok == "." and TYPES.match(self.peek(1)):
                self.take()
                base = f"R.view({base}, '{self.take()}')"
            elif tok == "." and self.peek(1) in ("base", "IEEE"):
                raise Unsupported(f"field .{self.peek(1)}")
            elif tok == "[":
                self.take()
                hi = self.expr()
                if self.peek() == ":":
                    self.take()
                    lo = self.expr()
                    self.take("]")
                    base = f"R.bits({base}, {hi}, {lo})"
                else:
                    self.take("]")
                    base = f"R.bit({base}, {hi})"
            else:
                return base

    def primary(self) -> str:
        tok = self.take()
        if tok == "(":
            inner = self.expr()
            self.take(")")
            return inner
        if tok == "{":
            parts = [self.expr()]
            while self.peek() == ",":
                self.take()
                parts.append(self.expr())
            self.take("}")
            return f"R.cat({', '.join(parts)})"
        if "'" in tok:
            width, kind = tok.split("'", 1)
            if kind in ("I", "U", "F", "B"):
                if self.peek() != "(":
                    raise Unsupported(f"type {tok} as a value")
                self.take("(")
                inner = self.expr()
                self.take(")")
                t = {"I": "i", "U": "u", "F": "f", "B": "u"}[kind] + width
                if int(width) not in (8, 16, 32, 64) and kind != "F":
                    if int(width) > 64:
                        raise Unsupported(f"{width}-bit value")
                    return f"R.cvt_n({inner}, {width}, {kind == 'I'})"
                return f"R.cvt({inner}, '{t}')"
            return _sized(tok)
        if tok[0].isdigit():
            return _literal(tok)
        if tok[0].isalpha() or tok[0] == "_":
            if tok in KEYWORDS:
                raise Unsupported(f"keyword {tok} in an expression")
            if self.peek() == "(":
                self.take()
                args: list[str] = []
                while self.peek() != ")":
                    args.append(self.expr())
                    if self.peek() == ",":
                        self.take()
                self.take(")")
                if tok == "lambda":
                    raise Unsupported("lambda")
                return f"R.fn_{tok}({', '.join(args)})"
            if tok in CONSTS:
                return CONSTS[tok]
            if tok in ("VGPR", "MEM", "LDS", "SGPR", "PC", "MODE", "TRAPSTS", "WAVE_MODE", "HW_REGISTERS"):
                raise Unsupported(f"{tok} access")
            if tok not in REGS and tok not in self.defined:
                if tok.isupper():
                    raise Unsupported(f"name {tok}")
                self.defined.add(tok)  # a local first read (loop counters set by `for`)
            return tok
        raise Unsupported(f"unexpected {tok!r}")

    # ---- statements ----------------------------------------------------------------------------
    def skip_separators(self) -> None:
        while self.peek() in (";", "\n"):
            self.take()

    def block(self, ends: tuple[str, ...]) -> str:
        while True:
            self.skip_separators()
            tok = self.peek()
            if tok in ends or tok == "":
                return tok
            self.statement()

    def statement(self) -> None:
        tok = self.peek()
        if tok == "declare":
            while self.peek() not in (";", "\n", ""):
                self.take()
            return
        if tok == "if":
            return self.if_stmt()
        if tok == "for":
            return self.for_stmt()
        if tok == "break":
            self.take()
            if not self.brk:
                raise Unsupported("break outside a loop")
            self.emit(f"{self.brk[-1]} = R.lor({self.brk[-1]}, {self.pred})")
            return
        if tok in ("return", "elsif", "else", "endif", "endfor"):
            raise Unsupported(f"stray {tok}")
        self.assignment()

    def skip_branch(self, stop: tuple[str, ...]) -> str:
        """Skip tokens up to the next of `stop` at this if-nesting depth; return it."""
        depth = 0
        while self.peek() != "":
            tok = self.peek()
            if depth == 0 and tok in stop:
                return tok
            depth += tok == "if"
            depth -= tok == "endif"
            self.take()
        raise Unsupported("if without endif")

    def if_stmt(self) -> None:
        outer = self.pred
        rest = outer  # lanes not taken by an earlier branch
        while True:
            kw = self.take()  # if / elsif / else
            cond = None
            if kw != "else":
                cond = self.expr()
                if self.peek() != "then":
                    raise Unsupported("if without then")
                self.take()
            if cond == "False":
                if self.skip_branch(("elsif", "else", "endif")) == "endif":
                    self.take()
                    return
                continue
            if cond is None or cond == "True":
                p = rest
            else:
                c = self.new("c")
                self.emit(f"{c} = R.cond({cond})")
                p = self.new("p")
                self.emit(f"{p} = R.land({rest}, {c})")
                nrest = self.new("r")
                self.emit(f"{nrest} = R.land({rest}, R.lnot({c}))")
                rest = nrest
            self.pred = p
            end = self.block(("elsif", "else", "endif"))
            self.pred = outer
            if end == "":
                raise Unsupported("if without endif")
            if end != "endif" and (cond is None or cond == "True"):
                self.skip_branch(("endif",))
            if self.peek() == "endif":
                self.take()
                return

    def for_stmt(self) -> None:
        self.take("for")
        var = self.take()
        self.take("in")
        lo = self.expr()
        self.take(":")
        hi = self.expr()
        if self.peek() == "do":
            self.take()
        self.defined.add(var)
        brk = self.new("brk")
        self.emit(f"{brk} = False")
        self.emit(f"for {var} in range(int({lo}), int({hi}) + 1):")
        self.indent += 1
        outer = self.pred
        self.brk.append(brk)
        p = self.new("p")
        self.emit(f"{p} = R.land({outer}, R.lnot({brk}))")
        self.pred = p
        while True:
            self.skip_separators()
            if self.peek() == "endfor":
                self.take()
                break
            if self.peek() == "":
                raise Unsupported("for without endfor")
            self.statement()
            self.emit(f"{p} = R.land({outer}, R.lnot({brk}))")
        self.emit(f"if R.none({p}): break")
        self.brk.pop()
        self.pred = outer
        self.indent -= 1

    def lvalue(self) -> tuple[str, str | None, tuple[str, str] | None, str | None]:
        """NAME, .type, [hi:lo], [lane] of an assignment target."""
        name = self.take()
        if not (name[0].isalpha() or name[0] == "_") or name in KEYWORDS:
            raise Unsupported(f"target {name!r}")
        if name in ("VGPR", "MEM", "LDS", "SGPR", "PC", "WAVE_MODE", "MODE"):
            raise Unsupported(f"{name} write")
        ty = sl = lane = None
        while self.peek() in (".", "["):
            if self.take() == ".":
                t = self.take()
                if not TYPES.match(t):
                    raise Unsupported(f"field .{t}")
                ty = t
            else:
                hi = self.expr()
                if self.peek() == ":":
                    self.take()
                    lo = self.expr()
                    sl = (hi, lo)
                else:
                    lane = hi
                self.take("]")
        return name, ty, sl, lane

    def assignment(self) -> None:
        if self.peek() == "{":
            raise Unsupported("assignment to a concatenation")
        name, ty, sl, lane = self.lvalue()
        op = self.take()
        if op not in ("=", "+=", "-=", "|=", "&=", "^=", "*="):
            raise Unsupported(f"statement starting {name} {op}")
        value = self.expr()
        if self.peek() not in (";", "\n", "", "endif", "endfor", "else", "elsif"):
            raise Unsupported(f"trailing {self.peek()!r} after an assignment")
        if op != "=":
            cur = name if name in self.defined or name in REGS else "0"
            if sl:
                cur = f"R.bits({cur}, {sl[0]}, {sl[1]})"
            if ty:
                cur = f"R.view({cur}, '{ty}')"
            value = f"{self.OPS[op[0]]}({cur}, {value})"
        if lane is not None and lane != "laneId":  # `D0.u32[S0.u32[4 : 0]] = 1'1U`: one bit (S_BITSET1)
            sl, lane = (lane, lane), None
        if lane is not None:
            key = f"_lane_{name}"
            old = key if key in self.lanes else f"R.lane_old({name}, laneId)"
            self.emit(f"{key} = R.sel({self.pred}, R.cond({value}), {old})")
            self.lanes.add(key)
            return
        exists = name in self.defined or name in REGS
        if sl is not None:
            v = f"R.cvt({value}, '{ty}')" if ty else value
            new = f"R.setbits({name if exists else 'None'}, {sl[0]}, {sl[1]}, {v})"
        elif ty is not None:
            new = f"R.put({name}, R.cvt({value}, '{ty}'))" if exists else f"R.cvt({value}, '{ty}')"
        else:
            new = value
        if self.pred != "True" and exists:
            new = f"R.sel({self.pred}, {new}, {name})"
        elif self.pred != "True":
            new = f"R.sel({self.pred}, {new}, 0)"
        self.emit(f"{name} = {new}")
        self.defined.add(name)
        self.assigned.add(name)


_LAMBDA = re.compile(r"(\w+)\s*=\s*lambda\s*\(([^)]*)\)\s*\(")


def _closing(text: str, i: int) -> int:
    """Index of the `)` that closes the `(` before position i."""
    depth = 1
    while i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
        i += 1
    raise Unsupported("unbalanced parentheses")


def expand_lambdas(text: str) -> str:
    """`ABSDIFF = lambda(x, y) (x > y ? x - y : y - x);` and its calls, written out: each call
    becomes the body with the parameters replaced by the (parenthesised) arguments."""
    while (m := _LAMBDA.search(text)) is not None:
        params = [p.strip() for p in m.group(2).split(",") if p.strip()]
        end = _closing(text, m.end())
        body = " ".join(text[m.end():end].split())  # one line: a newline ends a statement
        stop = end + 1
        while stop < len(text) and text[stop] in " \t;":
            stop += 1
        text = text[:m.start()] + text[stop:]
        call = re.compile(rf"\b{re.escape(m.group(1))}\s*\(")
        while (c := call.search(text)) is not None:
            close = _closing(text, c.end())
            args, depth, start = [], 0, c.end()
            for k in range(c.end(), close + 1):
                ch = text[k]
                depth += {"(": 1, ")": -1, "[": 1, "]": -1}.get(ch, 0) if k < close else 0
                if (ch == "," and depth == 0) or k == close:
                    args.append(text[start:k].strip())
                    start = k + 1
            if len(args) != len(params):
                raise Unsupported(f"{m.group(1)} called with {len(args)} arguments")
            out = body
            for p, a in zip(params, args):
                out = re.sub(rf"\b{re.escape(p)}\b", lambda _m, a=a: f"({a})", out)
            text = text[:c.start()] + f"({out})" + text[close + 1:]
    return text


def translate(text: str, name: str = "op") -> str:
    """Python source of `def <name>(...)` for one opcode's pseudocode."""
    text = expand_lambdas(text)
    if "lambda" in text:
        raise Unsupported("lambda")
    g = Gen(tokenize(text))
    g.block(())
    if g.pos < len(g.toks):
        raise Unsupported(f"stopped at {g.peek()!r}")
    outs = [n for n in OUTPUTS if n in g.assigned]
    ret = ", ".join(f"'{n}': {n}" for n in outs)
    lanes = ", ".join(f"'lane:{k[6:]}': {k}" for k in sorted(g.lanes))
    args = ", ".join(f"{r}=None" for r in REGS)
    body = "\n".join(g.lines) or "    pass"
    return f"def {name}({args}):\n{body}\n    return {{{', '.join(x for x in (ret, lanes) if x)}}}\n"
