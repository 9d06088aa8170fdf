"""CUDA -> HIP source translation: translators, the chain that picks one, and the mapping data."""
from __future__ import annotations

from typing import Any

from .base import Diagnostic, Target, Translation, TranslationError, Translator
from .chain import TranslatorChain
from .identity import rules_identity


class LazyRules:
    """The rule translator, imported on its first translation: a cache hit needs only
    its identity, and importing it (lexer, tables, PTX rules) costs more than a hit."""

    name = "rules"

    def __init__(self) -> None:
        self._impl: Any = None

    def identity(self) -> str:
        return rules_identity()

    def translate(self, source: str, filename: str, target: Target) -> Translation:
        if self._impl is None:
            from .rules import RulesTranslator

            self._impl = RulesTranslator()
        return self._impl.translate(source, filename, target)


def __getattr__(name: str) -> Any:  # `from cass_cc.translate import RulesTranslator`, lazily
    if name == "RulesTranslator":
        from .rules import RulesTranslator

        return RulesTranslator
    raise AttributeError(name)


# Translators by the name the `translator` setting uses (CASS_TRANSLATOR=rules).
AVAILABLE = {"rules": LazyRules}


def default_chain() -> TranslatorChain:
    """The chain the driver uses when nothing else is configured (rules only for now)."""
    return TranslatorChain([LazyRules()])


def chain_from_setting(spec: str) -> TranslatorChain:
    """'rules' or a comma list of translator names, tried in order."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in AVAILABLE]
    if unknown or not names:
        raise TranslationError(f"unknown translator '{(unknown or [spec])[0]}' in the translator setting (available: {', '.join(AVAILABLE)})")
    return TranslatorChain([AVAILABLE[n]() for n in names])


__all__ = [
    "Diagnostic",
    "RulesTranslator",
    "Target",
    "Translation",
    "TranslationError",
    "Translator",
    "TranslatorChain",
    "chain_from_setting",
    "default_chain",
]
