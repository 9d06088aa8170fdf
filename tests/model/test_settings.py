"""How a model is configured: --model on the nvcc command line, CASS_MODEL*, the chain."""
from __future__ import annotations

from pathlib import Path

import pytest

from cass_cc.config import ConfigError, load
from cass_cc.nvcc.invocation import UsageError
from cass_cc.nvcc.parse import parse
from cass_cc.translate import TranslationError, chain_from_setting


def test_model_options_on_the_nvcc_command_line() -> None:
    assert parse(["--model", "/models/cass", "-c", "a.cu"]).cass == {"model": "/models/cass"}
    assert parse(["--model-endpoint=http://farm:8000/v1", "-c", "a.cu"]).cass == {"model-endpoint": "http://farm:8000/v1"}
    assert parse(["--cass-model-when=always", "-c", "a.cu"]).cass == {"model-when": "always"}
    with pytest.raises(UsageError, match="argument expected after '--model'"):
        parse(["-c", "a.cu", "--model"])


def test_model_settings(tmp_path: Path) -> None:
    env = {"CASS_CONFIG": str(tmp_path / "none.toml"), "CASS_MODEL": "org/m", "CASS_MODEL_MAX_TOKENS": "512"}
    config = load({"model-when": "always"}, env)
    assert (config.model, config.model_when, config.model_max_tokens, config.model_scope) == ("org/m", "always", 512, "file")
    with pytest.raises(ConfigError, match="model-scope.*expected file or function"):
        load({"model-scope": "kernel"}, env)


def test_a_configured_model_goes_first_in_the_chain(tmp_path: Path) -> None:
    env = {"CASS_CONFIG": str(tmp_path / "none.toml"), "CASS_CACHE_DIR": str(tmp_path), "CASS_MODEL_ENDPOINT": "http://h:1/v1"}
    chain = chain_from_setting("rules", load({}, env), env)
    assert [m.name for m in chain.members] == ["model", "rules"]
    assert chain.identity().startswith("model-cass-1-endpoint:http://h:1/v1/chat/completions:-n4096-t0-p1-auto-unsupported-file|rules-")
    plain = {k: v for k, v in env.items() if k != "CASS_MODEL_ENDPOINT"}
    assert [m.name for m in chain_from_setting("rules", load({}, plain), plain).members] == ["rules"]
    with pytest.raises(TranslationError, match="no model is configured"):
        chain_from_setting("model,rules", load({}, plain), plain)
