"""Porting one source file: decode, translate (through the cache), drop the `#line`, count renames."""
from __future__ import annotations

from collections import Counter
from typing import Any

from .. import log
from ..translate.base import Target, Translation, TranslationError
from .report import FAILED, TRANSLATED, FileResult


def line_directive(filename: str) -> str:
    """The directive the translator puts between its prelude and the body (rules.py)."""
    escaped = filename.replace("\\", "\\\\").replace('"', '\\"')
    return f'#line 1 "{escaped}"\n'


def strip_line_directive(text: str, filename: str) -> str:
    """A translation without its `#line 1 "<file>"` line: prelude + body. A ported tree is the
    user's new source, and a #line naming the CUDA file would point diagnostics at it.
    Text without the directive (another translator) is returned as it is."""
    directive = line_directive(filename)
    at = text.find(directive)
    if at < 0 or (at > 0 and text[at - 1] != "\n"):
        return text
    return text[:at] + text[at + len(directive) :]


def split_translation(text: str, filename: str) -> tuple[str, str]:
    """(prelude, body) of a translation; ("", text) without the directive."""
    directive = line_directive(filename)
    at = text.find(directive)
    if at < 0:
        return "", text
    return text[:at], text[at + len(directive) :]


def _names(text: str) -> Counter[str]:
    """CUDA-table names as written: identifiers, and the headers of #include lines ("<cuda.h>")."""
    from ..translate.lexer import tokenize

    counts: Counter[str] = Counter()
    for tok in tokenize(text):
        if tok.kind == "ident":
            counts[tok.text] += 1
        elif tok.kind == "header":
            counts["#include " + tok.text.strip()] += 1
    return counts


def _row(name: str) -> Any:
    from ..translate import mappings

    if name.startswith("#include "):
        return mappings.lookup_header(name[len("#include ") :][1:-1])
    return mappings.lookup(name)


def count_renames(source: str, body: str, unsupported: tuple[str, ...]) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """Family -> CUDA name -> occurrences rewritten (in `source`, gone from `body`), and the
    occurrences of each unsupported name. Rewrites move tokens around (a dropped shuffle mask,
    HIP_SYMBOL(...)), so names are counted, not matched by position."""
    before, after = _names(source), _names(body)
    renamed: dict[str, dict[str, int]] = {}
    for name, n in before.items():
        gone = n - after.get(name, 0)
        if gone <= 0:
            continue
        row = _row(name)
        if row is None:
            continue
        renamed.setdefault(row.family, {})[name] = gone
    return {f: dict(sorted(v.items())) for f, v in sorted(renamed.items())}, {n: before.get(n, 0) for n in unsupported}


def family_of(name: str) -> str:
    row = _row(name)
    return row.family if row is not None else "unknown"


def decode(rel: str, data: bytes, result: FileResult) -> str | None:
    """Text of a source, or None with result marked failed. A non-UTF-8 byte in a comment is
    kept (a warning in the report); one in code fails the file."""
    from ..driver.errors import DriverError
    from ..driver.sources import decode_source

    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        where = data[: e.start].count(b"\n") + 1
        byte = data[e.start]
    saved, log.verbosity = log.verbosity, -1  # the report says it, not a line under the progress bar
    try:
        text = decode_source(rel, data)
    except DriverError as e:
        result.status, result.error = FAILED, str(e)
        return None
    finally:
        log.verbosity = saved
    result.diagnostics.append(f"{rel}:{where}:1: warning: not UTF-8 (byte 0x{byte:02x} in a comment or literal); kept byte for byte")
    return text


def translate(rel: str, data: bytes, source: str, chain: Any, target: Target, cache: Any) -> Translation:
    """chain.translate through the translation cache (when there is one). Raises TranslationError."""
    k = None
    if cache is not None:
        from ..cache import key

        k = key(data, rel, chain.identity(), target.key())
        try:
            hit = cache.get(k)
        except Exception:  # the cache only saves time: a broken one must not fail the port
            hit = None
        if hit:
            return hit[0]
    translation: Translation = chain.translate(source, rel, target)
    if k is not None and translation.cacheable:
        try:
            cache.put(k, translation)
        except Exception:
            pass
    return translation


def port_source(rel: str, data: bytes, chain: Any, target: Target, cache: Any) -> tuple[FileResult, str | None]:
    """The report entry and the ported text (None when it failed or needs no change)."""
    from ..translate.base import uses_cuda_text
    from .walk import CUDA_SUFFIXES

    result = FileResult(rel, "source")
    source = decode(rel, data, result)
    if source is None:
        return result, None
    if not rel.endswith(CUDA_SUFFIXES) and not uses_cuda_text(data):
        return result, None  # a host file that does not use CUDA stays as it is (no HIP include)
    try:
        translation = translate(rel, data, source, chain, target, cache)
    except TranslationError as e:
        result.status, result.error = FAILED, f"cannot translate to HIP: {e}"
        return result, None
    ported = strip_line_directive(translation.text, rel)
    _, body = split_translation(translation.text, rel)
    result.renamed, result.unsupported = count_renames(source, body, translation.unsupported)
    result.unsupported_family = {n: family_of(n) for n in result.unsupported}
    result.diagnostics += [d.format(rel) for d in translation.diagnostics]
    if ported == source:
        return result, None
    result.status = TRANSLATED
    return result, ported


__all__ = ["count_renames", "port_source", "strip_line_directive"]
