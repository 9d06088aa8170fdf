"""Asks translators in order; the first that can translate serves.

When an earlier member failed (a model answer that did not compile), the result carries
one warning naming that failure and the member that served instead. When that failure was
TranslationUnavailable (the member could not be asked this time), the result is marked
not cacheable: caching the fallback would pin a passing outage for good.
"""
from __future__ import annotations

from collections.abc import Sequence

from .base import Diagnostic, Target, Translation, TranslationDeclined, TranslationError, TranslationUnavailable, Translator


class TranslatorChain:
    def __init__(self, members: Sequence[Translator]) -> None:
        if not members:
            raise ValueError("a translator chain needs at least one member")
        self.members = tuple(members)
        self.name = "chain(" + ",".join(m.name for m in self.members) + ")"

    def identity(self) -> str:
        return "|".join(m.identity() for m in self.members)

    def translate(self, source: str, filename: str, target: Target) -> Translation:
        failures: list[str] = []
        cacheable = True
        for member in self.members:
            try:
                result = member.translate(source, filename, target)
            except TranslationDeclined:
                continue
            except TranslationError as error:
                failures.append(f"{member.name}: {error}")
                cacheable = cacheable and not isinstance(error, TranslationUnavailable)
                continue
            notes = tuple(Diagnostic(1, 1, "warning", f"{f}; translated by {member.name} instead") for f in failures)
            # name the member that served, whatever the member wrote there
            return result._replace(translator=member.identity(), diagnostics=notes + result.diagnostics,
                                   cacheable=cacheable and result.cacheable)
        raise TranslationError("no translator could translate " + filename + ": " + "; ".join(failures))
