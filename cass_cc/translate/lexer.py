"""A lossless C/C++ tokenizer for CUDA sources.

`tokenize(text)` returns every character of the input in some token: joining the
token texts gives back the input exactly. Preprocessor directives are split into a
`directive` token (`#define`, `#  if`, ...) followed by ordinary tokens for the rest of
the line, each carrying the directive's name in `Token.directive`, so identifiers in
macro bodies and `#if` conditions can be translated like any other code. A backslash
line continuation is its own `continuation` token and keeps the directive going.

Kinds: ident, number, string, char, raw_string, comment, directive, header (the
`<...>` or `"..."` after #include), punct, space, newline, continuation, other.
"""
from __future__ import annotations

import re
from typing import NamedTuple


class Token(NamedTuple):
    kind: str
    text: str
    line: int  # 1-based line of the token's first character
    col: int  # 1-based column
    directive: str | None  # name of the enclosing directive ("define", "if", ...) or None


_PUNCT = [
    "<<=", ">>=", "...", "->*", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
    "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", ".*",
]

_PREFIX = r"(?:u8|u|U|L)?"
_MAIN = re.compile(
    "|".join(
        [
            r"(?P<newline>\r\n|\n|\r)",
            r"(?P<continuation>\\[ \t]*(?:\r\n|\n|\r))",
            r"(?P<space>[ \t\f\v]+)",
            r"(?P<comment>//(?:[^\n\r\\]|\\[ \t]*(?:\r\n|\n|\r)|\\)*|/\*.*?(?:\*/|\Z))",
            rf"(?P<raw_string_start>{_PREFIX}R\"(?P<delim>[^ ()\\\t\v\f\n\r\"]{{0,16}})\()",
            rf"(?P<string>{_PREFIX}\"(?:[^\"\\\n\r]|\\.|\\\r?\n)*\"?)",
            rf"(?P<char>{_PREFIX}'(?:[^'\\\n\r]|\\.|\\\r?\n)*'?)",
            r"(?P<number>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*)",
            r"(?P<ident>[^\W\d]\w*)",
            "(?P<punct>" + "|".join(re.escape(p) for p in _PUNCT) + r"|[!-/:-@\[-`{-~])",
            r"(?P<other>.)",
        ]
    ),
    re.DOTALL,
)
_DIRECTIVE = re.compile(r"#[ \t]*(?:/\*.*?\*/[ \t]*)*([A-Za-z_]\w*)?", re.DOTALL)
_MULTILINE = frozenset({"comment", "raw_string", "string", "char", "continuation"})
_HEADER = re.compile(r"<[^>\n\r]*>|\"[^\"\n\r]*\"")


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    append = tokens.append
    pos = 0
    n = len(text)
    line = 1
    line_start = 0
    at_bol = True  # only whitespace (or nothing) since the last newline
    directive: str | None = None
    want_header = False
    match = _MAIN.match
    while pos < n:
        col = pos - line_start + 1
        ch = text[pos]
        if ch == "#" and at_bol:
            m = _DIRECTIVE.match(text, pos)
            assert m is not None
            directive = m.group(1) or ""
            want_header = directive in ("include", "include_next", "import")
            end = m.end()
            append(Token("directive", text[pos:end], line, col, directive))
            at_bol = False
            if "\n" in text[pos:end] or "\r" in text[pos:end]:
                line, line_start = _advance(text, pos, end, line, line_start)
            pos = end
            continue
        if want_header and ch in "<\"":
            m = _HEADER.match(text, pos)
            want_header = False
            if m is not None:
                append(Token("header", m.group(), line, col, directive))
                pos = m.end()
                continue
        m = match(text, pos)
        assert m is not None  # the `other` alternative matches any character
        kind = m.lastgroup or "other"
        end = m.end()
        if kind == "raw_string_start":
            kind = "raw_string"
            close = text.find(")" + m.group("delim") + '"', end)
            end = n if close < 0 else close + len(m.group("delim")) + 2
        tok_text = text[pos:end]
        if kind == "newline":
            append(Token(kind, tok_text, line, col, directive))
            directive = None
            want_header = False
            at_bol = True
            line += 1
            line_start = end
            pos = end
            continue
        append(Token(kind, tok_text, line, col, directive))
        if kind != "space":
            if kind in _MULTILINE:
                if "\n" in tok_text or "\r" in tok_text:
                    line, line_start = _advance(text, pos, end, line, line_start)
                if kind == "continuation":
                    pos = end
                    continue
            at_bol = False
            if kind != "comment":
                want_header = False
        pos = end
    return tokens


def _advance(text: str, start: int, end: int, line: int, line_start: int) -> tuple[int, int]:
    """Line number and line-start offset after the text[start:end] a token spans."""
    i = start
    while True:
        j = _next_newline(text, i, end)
        if j < 0:
            return line, line_start
        if text[j] == "\r" and j + 1 < end and text[j + 1] == "\n":
            j += 1
        line += 1
        line_start = j + 1
        i = j + 1


def _next_newline(text: str, start: int, end: int) -> int:
    a = text.find("\n", start, end)
    b = text.find("\r", start, end)
    if a < 0:
        return b
    if b < 0:
        return a
    return min(a, b)


SIGNIFICANT_SKIP = frozenset({"space", "newline", "continuation", "comment"})
