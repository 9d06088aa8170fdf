"""Settings precedence: command line > environment > config file > default."""
from __future__ import annotations

from pathlib import Path

import pytest

from cass_cc.config import ConfigError, load


def test_precedence(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text('[tool.cass-cc]\noffload-arch = "gfx1030"\narch-map = "sm_80=gfx90a"\n')
    env = {"CASS_CONFIG": str(cfg)}
    assert load({}, env).offload_arch == ["gfx1030"]
    assert load({}, env).arch_map == {"sm_80": "gfx90a"}
    env["CASS_OFFLOAD_ARCH"] = "gfx1101,gfx1102"
    assert load({}, env).offload_arch == ["gfx1101", "gfx1102"]
    assert load({"offload-arch": "gfx1100"}, env).offload_arch == ["gfx1100"]
    assert load({}, {"CASS_CONFIG": str(tmp_path / "absent.toml")}).offload_arch == ["gfx1100"]


def test_cache_dir_defaults_to_xdg(tmp_path: Path) -> None:
    env = {"CASS_CONFIG": str(tmp_path / "none"), "XDG_CACHE_HOME": str(tmp_path)}
    assert load({}, env).cache_path(env) == tmp_path / "cass-cc"
    env["CASS_CACHE_DIR"] = str(tmp_path / "c")
    assert load({}, env).cache_path(env) == tmp_path / "c"


@pytest.mark.parametrize(
    "cli, env_text, message",
    [
        ({"bogus": "1"}, "", "unknown setting --cass-bogus"),
        ({"arch-map": "sm_80"}, "", "expected NVIDIA=AMD pairs"),
        ({}, "[tool.cass-cc]\nbogus = 1\n", "unknown setting 'bogus'"),
        ({}, "[tool.cass-cc\n", "config.toml"),
    ],
)
def test_bad_settings_are_named(tmp_path: Path, cli: dict[str, str], env_text: str, message: str) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(env_text)
    with pytest.raises(ConfigError, match=message):
        load(cli, {"CASS_CONFIG": str(cfg)})


def test_translator_setting_is_checked() -> None:
    from cass_cc.translate import TranslationError, chain_from_setting

    assert chain_from_setting("rules").identity().startswith("rules")
    with pytest.raises(TranslationError, match="unknown translator 'bogus'"):
        chain_from_setting("rules,bogus")
    with pytest.raises(TranslationError, match="names 'model'"):
        chain_from_setting("rules,model")
