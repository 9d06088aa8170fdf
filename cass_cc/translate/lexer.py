"""A lossless C/C++ tokenizer for CUDA sources.

`tokenize(text)` returns every character of the input in some token: joining the
token texts gives back the input exactly. Preprocessor directives are split into a
`directive` token (the line's indentation, `#` and the directive's name: `#define`,
`  #  if`) followed by ordinary tokens for the rest of the line, each carrying the directive's name in `Token.directive`, so identifiers in
macro bodies and `#if` conditions can be translated like any other code. A backslash
line continuation is its own `continuation` token and keeps the directive going.

Kinds: ident, number, string, char, raw_string, comment, directive, header (the
`<...>` or `"..."` after #include), punct, space, newline, continuation, other.

`line_ends(text)` says where the logical lines end (after each newline token) without
making tokens, and `tokenize_range` lexes from one such position to another: windows.py
uses them to lex only the lines a translation needs.
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
    return tokenize_range(text, 0, len(text), 1)


def tokenize_range(text: str, begin: int, end: int, line: int) -> list[Token]:
    """The tokens of text[begin:end], as `tokenize(text)` has them, where `begin` and `end`
    are 0, len(text) or positions `line_ends(text)` returns; `line` is begin's line
    number. (At such a position no token is open and no directive is going on, so the
    tokens after it do not depend on what comes before.)"""
    tokens: list[Token] = []
    append = tokens.append
    line_start = begin
    directive: str | None = None
    pos = begin
    while pos < end:
        restart = -1
        for m in _MAIN.finditer(text, pos, end):
            kind = m.lastgroup
            start, stop = m.span()
            if kind in _ONE_LINE:  # the common case, kept short
                append(_new(Token, (kind, text[start:stop], line, start - line_start + 1, directive)))
                continue
            tok_text = text[start:stop]
            if kind == "newline":
                append(_new(Token, (kind, tok_text, line, start - line_start + 1, directive)))
                directive = None
                line += 1
                line_start = stop
                continue
            if kind == "directive":
                directive = _directive_name(tok_text)
                append(_new(Token, (kind, tok_text, line, start - line_start + 1, directive)))
                if directive in _INCLUDES:
                    header = _HEADER.match(text, stop, end)
                    if header is not None:
                        if header.start(1) > header.start():
                            append(_new(Token, ("space", header.group()[: header.start(1) - header.start()],
                                                line, stop - line_start + 1, directive)))
                        append(_new(Token, ("header", header.group(1), line, header.start(1) - line_start + 1, directive)))
                        restart = header.end()
                        break
                continue
            append(_new(Token, (kind, tok_text, line, start - line_start + 1, directive)))
            if kind in _MULTILINE and ("\n" in tok_text or "\r" in tok_text):
                line, line_start = _advance(text, start, stop, line, line_start)
        if restart < 0:
            break
        pos = restart
    return tokens


def _directive_name(tok_text: str) -> str:
    name_match = _DIRECTIVE_NAME.match(tok_text)
    return (name_match.group(1) if name_match else None) or ""


# -- logical lines, found without making tokens ------------------------------------------------
# One match per logical line, up to and including the newline token that ends it. Comments,
# strings, char literals and continuations are matched as _MAIN matches them (they decide
# where a line ends); everything else is skipped a run at a time, so a line costs one match,
# not one per token. A quote right after a word character (or `.`, `e+`, for `'`) may belong
# to a token that began before it (u8"", R"(...)", 1'000); the match stops there (group
# `hard`, which swallows the rest) and `line_ends` asks the lexer about that token.
_AT_DIRECTIVE = (
    r"(?:\A|(?<=[\n\r])(?<!\\\n)(?<!\\\r)(?<!\\\r\n))[ \t]*#[ \t]*"
    r"(?:(?:include_next|include|import)(?!\w)(?:[ \t]*(?:<[^>\n\r]*>|\"[^\"\n\r]*\"))?|[A-Za-z_]\w*)?"
)
_NL = r"(?:\r\n|\n|\r)"
_LINE = re.compile(
    rf"(?=.)(?:{_AT_DIRECTIVE})?(?:"
    r"[^/\"'\\\n\r]++"
    rf"|\\[ \t]*{_NL}(?:{_AT_DIRECTIVE})?"  # a directive can follow a continuation with spaces
    rf"|//(?:[^\n\r\\]|\\[ \t]*{_NL}|\\)*+(?:{_AT_DIRECTIVE})?"
    r"|/\*.*?(?:\*/|\Z)"
    r"|(?<!\w)\"(?:[^\"\\\n\r]|\\.|\\\r?\n)*+\"?"
    r"|(?<![\w.])(?<![eEpP][+-])'(?:[^'\\\n\r]|\\.|\\\r?\n)*+'?"
    r"|[/\\]"
    rf")*+(?:{_NL}|\Z|(?P<hard>(?=[\"']).*))",
    re.DOTALL,
)
_END = re.Match.end


def line_ends(text: str) -> list[int]:
    """Where each logical line of `text` ends: just after each newline token `tokenize`
    makes (newlines inside comments, literals and continuations do not end a line), and
    len(text) after a last line without one. Every position returned is one
    `tokenize_range` can start or stop at."""
    ends: list[int] = []
    pos = 0
    while True:
        found = list(map(_END, _LINE.finditer(text, pos)))
        if not found:  # at the end, after a token `_token_end` found
            if pos and (not ends or ends[-1] != pos):
                ends.append(pos)
            return ends
        last = found[-2] if len(found) > 1 else pos
        hard = _LINE.match(text, last)
        if hard is None or hard.lastgroup != "hard":
            ends.extend(found)
            return ends
        ends.extend(found[:-1])
        pos = _token_end(text, last, hard.start("hard"))


def _token_end(text: str, pos: int, inside: int) -> int:
    """End of the token of `tokenize(text)` that holds position `inside`, lexing from `pos`
    (where a token starts and no #include is pending)."""
    while True:
        restart = -1
        for m in _MAIN.finditer(text, pos):
            if m.end() > inside:
                return m.end()
            if m.lastgroup == "directive" and _directive_name(m.group()) in _INCLUDES:
                header = _HEADER.match(text, m.end())
                if header is not None:
                    if header.end() > inside:
                        return header.end()
                    restart = header.end()
                    break
        if restart < 0:
            return len(text)
        pos = restart


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
