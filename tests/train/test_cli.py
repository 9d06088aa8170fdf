"""The cass-train command line: lazy subcommands (no torch for --help), one-line errors."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cass_train import cli

ROOT = Path(__file__).resolve().parents[2]


def test_help_lists_commands_without_importing_torch() -> None:
    code = ("import sys; from cass_train.cli import main; rc = main(['--help']); "
            "print('HEAVY', sorted(m for m in ('torch', 'transformers', 'peft', 'cass_train.sft') if m in sys.modules)); "
            "sys.exit(rc)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    for name in ("sft", "bench", "eval"):
        assert f"\n  {name} " in proc.stdout
    assert "HEAVY []" in proc.stdout


def test_bin_script_runs_from_a_checkout() -> None:
    proc = subprocess.run([str(ROOT / "bin" / "cass-train"), "sft", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "RECIPE.toml" in proc.stdout and "--resume" in proc.stdout


def test_missing_command_module_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(cli.COMMANDS, "eval", ("cass_train.not_written_yet.cli:command", "x"))
    assert cli.main(["eval", "--help"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == "Error: `cass-train eval` is not available: cass_train.not_written_yet.cli is not installed"


def test_missing_dependency_inside_a_command_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "needs_dep.py").write_text("import a_package_that_is_not_there\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(cli.COMMANDS, "eval", ("needs_dep:command", "x"))
    assert cli.main(["eval"]) == 1
    assert "needs the Python package a_package_that_is_not_there" in capsys.readouterr().err


def test_sft_bad_recipe_is_one_line_naming_the_file(tmp_path: Path) -> None:
    recipe = tmp_path / "r.toml"
    recipe.write_text("[model]\nbase = 'x'\n[train]\nepochs = 'many'\n")
    proc = subprocess.run([str(ROOT / "bin" / "cass-train"), "sft", str(recipe)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"Error: {recipe}: train.epochs must be a number, not 'many'"
