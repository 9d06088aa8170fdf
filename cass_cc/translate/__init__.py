"""CUDA -> HIP source translation: translators, the chain that picks one, and the mapping data."""
from __future__ import annotations

from .base import Diagnostic, Target, Translation, TranslationError, Translator
from .chain import TranslatorChain
from .rules import RulesTranslator


def default_chain() -> TranslatorChain:
    """The chain the driver uses when nothing else is configured (rules only for now)."""
    return TranslatorChain([RulesTranslator()])


__all__ = [
    "Diagnostic",
    "RulesTranslator",
    "Target",
    "Translation",
    "TranslationError",
    "Translator",
    "TranslatorChain",
    "default_chain",
]
