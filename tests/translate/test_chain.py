from __future__ import annotations

import pytest

from cass_cc.translate import (
    RulesTranslator, Target, Translation, TranslationError, TranslatorChain, default_chain,
)


class Failing:
    name = "failing"

    def identity(self) -> str:
        return "failing-1"

    def translate(self, source: str, filename: str, target: Target) -> Translation:
        raise TranslationError("model not available")


class Echo:
    name = "echo"

    def identity(self) -> str:
        return "echo-1"

    def translate(self, source: str, filename: str, target: Target) -> Translation:
        return Translation(text=source, translator="whatever")


def test_first_working_member_serves() -> None:
    chain = TranslatorChain([Failing(), Echo()])
    result = chain.translate("x", "a.cu", Target())
    assert result.text == "x"
    assert result.translator == "echo-1"
    assert chain.identity() == "failing-1|echo-1"


def test_all_fail_lists_reasons() -> None:
    chain = TranslatorChain([Failing(), Failing()])
    with pytest.raises(TranslationError, match="failing: model not available; failing: model not available"):
        chain.translate("x", "a.cu", Target())


def test_empty_chain_rejected() -> None:
    with pytest.raises(ValueError):
        TranslatorChain([])


def test_default_chain_is_rules() -> None:
    chain = default_chain()
    result = chain.translate("cudaMalloc(&p, 4);\n", "a.cu", Target())
    assert result.translator == RulesTranslator().identity()
    assert "hipMalloc(&p, 4);" in result.text
    assert chain.identity() == RulesTranslator().identity()
