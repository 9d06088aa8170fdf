"""CUDA -> HIP source translation: translators, the chain that picks one, and the mapping data."""
from __future__ import annotations

from .base import Diagnostic, Target, Translation, TranslationDeclined, TranslationError, Translator
from .chain import TranslatorChain
from .identity import rules_identity

TYPE_CHECKING = False
if TYPE_CHECKING:  # importing typing costs every compile ~5 ms
    from typing import Any


class LazyRules:
    """The rule translator, imported on its first translation: a cache hit needs only
    its identity, and importing it (lexer, tables, PTX rules) costs more than a hit."""

    name = "rules"

    def __init__(self) -> None:
        self._impl: Any = None
        # The last translation: the model translator asks the rules first, and the chain
        # asks them again when the model declines or fails.
        self._last: tuple[tuple[str, str, Target], Translation] | None = None

    def identity(self) -> str:
        return rules_identity()

    def translate(self, source: str, filename: str, target: Target) -> Translation:
        if self._last is not None and self._last[0] == (source, filename, target):
            return self._last[1]
        if self._impl is None:
            from .rules import RulesTranslator

            self._impl = RulesTranslator()
        result = self._impl.translate(source, filename, target)
        self._last = ((source, filename, target), result)
        return result


def __getattr__(name: str) -> Any:  # `from cass_cc.translate import RulesTranslator`, lazily
    if name == "RulesTranslator":
        from .rules import RulesTranslator

        return RulesTranslator
    raise AttributeError(name)


# Translators by the name the `translator` setting uses (CASS_TRANSLATOR=rules). The
# model translator (model.py) is built from the model settings, in chain_from_setting.
AVAILABLE = {"rules": LazyRules, "model": None}


def default_chain() -> TranslatorChain:
    """The chain the driver uses when nothing else is configured (rules only for now)."""
    return TranslatorChain([LazyRules()])


def chain_from_setting(spec: str, config: Any = None, env: Any = None, validator: Any = None) -> TranslatorChain:
    """'rules' or a comma list of translator names, tried in order.

    With `config`, a configured model (the `model` or `model-endpoint` setting) puts the
    model translator first when the list does not name it; `validator` (the driver's
    BuildValidator, driver/validate.py) lets it compile answers with the build's flags.
    Nothing of the model translator is imported unless it is used.
    """
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in AVAILABLE]
    if unknown or not names:
        raise TranslationError(f"unknown translator '{(unknown or [spec])[0]}' in the translator setting (available: {', '.join(AVAILABLE)})")
    if config is not None and "model" not in names and (config.model or config.model_endpoint):
        names.insert(0, "model")
    rules = LazyRules()
    members: list[Translator] = []
    for n in names:
        if n == "model":
            if config is None:
                raise TranslationError("the translator setting names 'model', which needs the model settings (a cass-cc build)")
            from .model import model_translator

            members.append(model_translator(config, env if env is not None else {}, rules, validator))
        else:
            members.append(rules)
    return TranslatorChain(members)


__all__ = [
    "Diagnostic",
    "RulesTranslator",
    "Target",
    "Translation",
    "TranslationDeclined",
    "TranslationError",
    "Translator",
    "TranslatorChain",
    "chain_from_setting",
    "default_chain",
]
