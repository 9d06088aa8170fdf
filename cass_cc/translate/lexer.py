"""A lossless C/C++ tokenizer for CUDA sources.

`tokenize(text)` returns every character of the input in some token: joining the
token texts gives back the input exactly. Preprocessor directives are split into a
`directive` token (the line's indentation, `#` and the directive's name: `#define`,
`  #  if`) followed by ordinary tokens for the rest of the line, each carrying the directive's name in `Token.directive`, so identifiers in
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
            # a directive starts a line that is not continued from the one before; the
            # token holds the indentation, `#`, and the directive's name
            r"(?P<directive>(?:\A|(?<=[\n\r])(?<!\\\n)(?<!\\\r)(?<!\\\r\n))[ \t]*#[ \t]*(?:[A-Za-z_]\w*)?)",
            # identifiers come early (the commonest token); one directly followed by a quote is
            # a string or char prefix (u8"", L'', R"()"), matched further down
            r"(?P<ident>[^\W\d]\w*+(?![\"']))",
            r"(?P<newline>\r\n|\n|\r)",
            r"(?P<continuation>\\[ \t]*(?:\r\n|\n|\r))",
            r"(?P<space>[ \t\f\v]+)",
            r"(?P<comment>//(?:[^\n\r\\]|\\[ \t]*(?:\r\n|\n|\r)|\\)*|/\*.*?(?:\*/|\Z))",
            rf"(?P<raw_string>{_PREFIX}R\"(?P<delim>[^ ()\\\t\v\f\n\r\"]{{0,16}})\(.*?(?:\)(?P=delim)\"|\Z))",
            rf"(?P<string>{_PREFIX}\"(?:[^\"\\\n\r]|\\.|\\\r?\n)*\"?)",
            rf"(?P<char>{_PREFIX}'(?:[^'\\\n\r]|\\.|\\\r?\n)*'?)",
            r"(?P<number>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*)",
            "(?P<punct>" + "|".join(re.escape(p) for p in _PUNCT) + r"|[!-/:-@\[-`{-~])",
            r"(?P<other>.)",
        ]
    ),
    re.DOTALL,
)
_DIRECTIVE_NAME = re.compile(r"[ \t]*#[ \t]*([A-Za-z_]\w*)?")
_HEADER = re.compile(r"[ \t]*(<[^>\n\r]*>|\"[^\"\n\r]*\")")
_MULTILINE = frozenset({"comment", "raw_string", "string", "char", "continuation"})
_INCLUDES = frozenset({"include", "include_next", "import"})
_ONE_LINE = frozenset({"ident", "space", "punct", "number", "other"})
_new = tuple.__new__


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    append = tokens.append
    line = 1
    line_start = 0
    directive: str | None = None
    pos = 0
    n = len(text)
    while pos < n:
        restart = -1
        for m in _MAIN.finditer(text, pos):
            kind = m.lastgroup
            start, end = m.span()
            if kind in _ONE_LINE:  # the common case, kept short
                append(_new(Token, (kind, text[start:end], line, start - line_start + 1, directive)))
                continue
            tok_text = text[start:end]
            if kind == "newline":
                append(_new(Token, (kind, tok_text, line, start - line_start + 1, directive)))
                directive = None
                line += 1
                line_start = end
                continue
            if kind == "directive":
                name_match = _DIRECTIVE_NAME.match(tok_text)
                directive = (name_match.group(1) if name_match else None) or ""
                append(_new(Token, (kind, tok_text, line, start - line_start + 1, directive)))
                if directive in _INCLUDES:
                    header = _HEADER.match(text, end)
                    if header is not None:
                        if header.start(1) > header.start():
                            append(_new(Token, ("space", header.group()[: header.start(1) - header.start()],
                                                line, end - line_start + 1, directive)))
                        append(_new(Token, ("header", header.group(1), line, header.start(1) - line_start + 1, directive)))
                        restart = header.end()
                        break
                continue
            append(_new(Token, (kind, tok_text, line, start - line_start + 1, directive)))
            if kind in _MULTILINE and ("\n" in tok_text or "\r" in tok_text):
                line, line_start = _advance(text, start, end, line, line_start)
        if restart < 0:
            break
        pos = restart
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
