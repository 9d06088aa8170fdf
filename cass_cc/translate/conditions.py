"""Which lines of a source the preprocessor certainly drops, as far as the file itself tells.

The rules translate every branch of every `#if` (a translation must serve whichever branch the
build takes), but a warning about a name in a branch that is never compiled (`#if 0`,
`#ifdef _WIN32`, `#if CUDART_VERSION < 5000`) is noise. `dead_lines(source)` evaluates each
condition in three values: true, false, or unknown. What is known: integer literals, the
file's own `#define`/`#undef` above the condition (where they certainly run), CUDA's version
macros as cass-cc defines them (CUDART_VERSION, CUDA_VERSION, __CUDACC_VER_MAJOR__/_MINOR__)
and the platform (Linux: `__linux__` defined; `_WIN32`, `_MSC_VER`, `__APPLE__`... not).
Anything else (a macro a header or a -D flag may define) is unknown, and a branch that
depends on it counts as live: warnings go only where a branch is not certainly dropped.

Only called for a file with something to say (diagnostics), so it costs nothing on the rest.
"""
from __future__ import annotations

import re

from .. import CUDA_COMPAT_VERSION

_MAJOR, _MINOR = (int(x) for x in CUDA_COMPAT_VERSION.split(".")[:2])
_CUDA_NUMBER = str(_MAJOR * 1000 + _MINOR * 10)
# Macros whose value (or absence: None) the build is known to have on this platform.
KNOWN: dict[str, str | None] = {
    "CUDART_VERSION": _CUDA_NUMBER, "CUDA_VERSION": _CUDA_NUMBER,
    "__CUDACC_VER_MAJOR__": str(_MAJOR), "__CUDACC_VER_MINOR__": str(_MINOR),
    "__linux__": "1", "__unix__": "1",
    **dict.fromkeys(("_WIN32", "_WIN64", "WIN32", "_MSC_VER", "__APPLE__", "__MACH__", "__CYGWIN__",
                     "__MINGW32__", "__MINGW64__", "__ANDROID__", "__FreeBSD__"), None),
}

_DIRECTIVE = re.compile(
    r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif|define|undef)\b((?:[^\n\\]|\\\n?)*)", re.M)
_COMMENT = re.compile(r"/\*.*?\*/|//.*", re.S)
_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|([A-Za-z_]\w*)|(&&|\|\||<<|>>|<=|>=|==|!=|[-+*/%<>!~&|^?:()]))")

def dead_lines(source: str) -> list[tuple[int, int]]:
    """(first, last) line ranges (1-based, inclusive) inside branches certainly not compiled."""
    known = dict(KNOWN)
    stack: list[list[object]] = []  # per open #if: [live of the enclosing region, taken so far, this branch live]
    dead: list[tuple[int, int]] = []
    start: int | None = None  # first line of the dead region open now
    line, pos = 1, 0
    for m in _DIRECTIVE.finditer(source):
        line += source.count("\n", pos, m.start())
        pos = m.start()
        name, rest = m.group(1), _COMMENT.sub(" ", m.group(2).replace("\\\n", " "))
        outer: bool | None = stack[-1][2] if stack else True  # type: ignore[assignment]
        if name in ("if", "ifdef", "ifndef"):
            cond = _condition(name, rest, known)
            live = _and(outer, cond)
            stack.append([outer, cond, live])
        elif name in ("elif", "elifdef", "elifndef") and stack:
            enclosing, taken = stack[-1][0], stack[-1][1]
            cond = _condition({"elif": "if", "elifdef": "ifdef", "elifndef": "ifndef"}[name], rest, known)
            live = _and(enclosing, _and(_not(taken), cond))  # type: ignore[arg-type]
            stack[-1][1:] = [_or(taken, cond), live]  # type: ignore[arg-type]
        elif name == "else" and stack:
            enclosing, taken = stack[-1][0], stack[-1][1]
            stack[-1][1:] = [True, _and(enclosing, _not(taken))]  # type: ignore[arg-type]
        elif name == "endif" and stack:
            stack.pop()
        elif name in ("define", "undef") and outer is not False:
            _record(name, rest, known, certain=outer is True)
        now: bool | None = stack[-1][2] if stack else True  # type: ignore[assignment]
        line_end = line + m.group(0).count("\n")
        if now is False and start is None:
            start = line_end + 1
        elif now is not False and start is not None:
            if line - 1 >= start:
                dead.append((start, line - 1))
            start = None
    if start is not None:
        dead.append((start, line + source.count("\n", pos)))
    return dead


def _record(name: str, rest: str, known: dict[str, str | None], certain: bool) -> None:
    m = re.match(r"\s*([A-Za-z_]\w*)(\()?\s*(.*)", rest, re.S)
    if m is None:
        return
    macro = m.group(1)
    if not certain or m.group(2):
        known.pop(macro, None)  # maybe defined, or function-like: unknown from here on
    elif name == "define":
        known[macro] = m.group(3).strip()
    else:
        known[macro] = None


def _condition(kind: str, rest: str, known: dict[str, str | None]) -> bool | None:
    if kind in ("ifdef", "ifndef"):
        m = re.match(r"\s*([A-Za-z_]\w*)", rest)
        if m is None or m.group(1) not in known:
            return None
        defined = known[m.group(1)] is not None
        return defined if kind == "ifdef" else not defined
    value = _Expr(rest, known).value()
    return None if value is None else value != 0


def _not(a: bool | None) -> bool | None:
    return None if a is None else not a


def _and(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    return True if a is True and b is True else None


def _or(a: bool | None, b: bool | None) -> bool | None:
    if a is True or b is True:
        return True
    return False if a is False and b is False else None


class _Expr:
    """A `#if` expression's value: an int, or None where it depends on something unknown
    (or is not understood). Precedence climbing over C's preprocessor operators."""

    _BINARY = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
               "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

    def __init__(self, text: str, known: dict[str, str | None], depth: int = 0) -> None:
        self.tokens: list[str] = []
        self.known = known
        self.depth = depth
        pos = 0
        text = text.rstrip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                self.tokens = ["?bad"]
                break
            self.tokens.append(m.group(1) or m.group(2) or m.group(3))
            pos = m.end()
        self.i = 0

    def value(self) -> int | None:
        try:
            v = self._ternary()
        except (IndexError, ValueError, ZeroDivisionError):
            return None
        return v if self.i == len(self.tokens) else None

    def _peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _take(self) -> str:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def _ternary(self) -> int | None:
        cond = self._binary(1)
        if self._peek() != "?":
            return cond
        self._take()
        a = self._ternary()
        if self._take() != ":":
            raise ValueError
        b = self._ternary()
        return None if cond is None else (a if cond else b)

    def _binary(self, level: int) -> int | None:
        left = self._unary()
        while (op := self._peek()) in self._BINARY and self._BINARY[op] >= level:  # type: ignore[operator]
            self._take()
            right = self._binary(self._BINARY[op] + 1)  # type: ignore[index]
            left = _apply(op, left, right)  # type: ignore[arg-type]
        return left

    def _unary(self) -> int | None:
        tok = self._take()
        if tok in ("!", "~", "-", "+"):
            v = self._unary()
            if v is None:
                return None
            return {"!": int(not v), "~": ~v, "-": -v, "+": v}[tok]
        if tok == "(":
            v = self._ternary()
            if self._take() != ")":
                raise ValueError
            return v
        if tok == "defined":
            paren = self._peek() == "("
            if paren:
                self._take()
            name = self._take()
            if paren and self._take() != ")":
                raise ValueError
            return None if name not in self.known else int(self.known[name] is not None)
        if tok[0].isdigit():
            return int(tok, 0) if not (tok.startswith("0") and tok[1:2].isdigit()) else int(tok, 8)
        if tok[0].isalpha() or tok[0] == "_":
            if tok not in self.known or self.depth > 8:
                return None
            body = self.known[tok]
            if body is None or body == "":
                return 0 if body is None else None  # an undefined name is 0; `#define X` alone is no number
            return _Expr(body, self.known, self.depth + 1).value()
        raise ValueError


def _apply(op: str, a: int | None, b: int | None) -> int | None:
    if op == "&&":
        return 0 if a == 0 or b == 0 else (None if a is None or b is None else 1)
    if op == "||":
        return 1 if (a is not None and a != 0) or (b is not None and b != 0) else (None if a is None or b is None else 0)
    if a is None or b is None:
        return None
    if op in ("/", "%") and b == 0:
        return None
    return {
        "|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b, "==": lambda: int(a == b), "!=": lambda: int(a != b),
        "<": lambda: int(a < b), ">": lambda: int(a > b), "<=": lambda: int(a <= b), ">=": lambda: int(a >= b),
        "<<": lambda: a << b if 0 <= b < 64 else None, ">>": lambda: a >> b if 0 <= b < 64 else None,
        "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
        "/": lambda: int(a / b), "%": lambda: a - b * int(a / b),
    }[op]()
