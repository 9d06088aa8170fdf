"""CUDA -> HIP source translation: translators, the chain that picks one, and the mapping data."""
from __future__ import annotations

from .base import Diagnostic, Target, Translation, TranslationError, Translator
from .chain import TranslatorChain
from .rules import RulesTranslator


# Translators by the name the `translator` setting uses (CASS_TRANSLATOR=rules).
AVAILABLE = {"rules": RulesTranslator}


def default_chain() -> TranslatorChain:
    """The chain the driver uses when nothing else is configured (rules only for now)."""
    return TranslatorChain([RulesTranslator()])


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
