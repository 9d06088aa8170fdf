"""click_main.run_click: every click command line exits the same way (issue 25)."""
from __future__ import annotations

import click
import pytest

from cass_cc.click_main import run_click


@click.command()
@click.option("--how", type=click.Choice(["ok", "status", "message", "click", "none"]))
def probe(how: str) -> int | None:
    if how == "status":
        raise SystemExit(3)
    if how == "message":
        raise SystemExit("k.tar.gz: unexpected member 'x'")
    if how == "click":
        raise click.ClickException("k.co: damaged")
    return 0 if how == "ok" else None


@pytest.mark.parametrize("how, rc, said", [
    ("ok", 0, ""), ("none", 0, ""), ("status", 3, ""),
    ("message", 1, "k.tar.gz: unexpected member 'x'\n"),  # once swallowed: exit 1 and no word
    ("click", 1, "Error: k.co: damaged\n"),
])
def test_exit_status_and_words(how: str, rc: int, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_click(probe, ["--how", how], "probe") == rc
    assert capsys.readouterr().err == said


def test_usage_error_is_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_click(probe, ["--how", "bogus"], "probe") == 2
    assert "Invalid value for '--how'" in capsys.readouterr().err
