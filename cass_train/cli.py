"""`cass-train`: the command line (click). Subcommands are found by name and imported only
when they run, so `cass-train --help` stays fast and torch is loaded by the command that
needs it, never by the group.

    cass-train sft RECIPE.toml [--section.key VALUE ...]   fine-tune (cass_train/sft.py)
    cass-train bench RECIPE.toml                           tokens/s and MFU on synthetic data
    cass-train eval ...                                    score a translator (cass_train/evaluate)
"""
from __future__ import annotations

import importlib
import sys

import click

# name -> (module:attribute of a click command, one-line help shown by --help)
COMMANDS: dict[str, tuple[str, str]] = {
    "bench": ("cass_train.bench:command", "Tokens/s per GPU and MFU of a recipe, on synthetic data of its shapes."),
    "eval": ("cass_train.evaluate.cli:command", "Score a translator on a suite by compiling and running."),
    "output": ("cass_train.output:command", "Rebuild a run's model folder from its final/ (an adapter brought from another machine)."),
    "sft": ("cass_train.sft:command", "Fine-tune a translator on verified pairs (a recipe TOML)."),
}


class MissingCommand(click.ClickException):
    """A registered subcommand whose module is not installed (or not written yet)."""


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        target, _ = COMMANDS[name]
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            # only "the command's own module is missing" is ours to explain; a missing
            # dependency inside it (torch, ...) is named as such
            if e.name and module_name.startswith(e.name):
                raise MissingCommand(f"`cass-train {name}` is not available: {module_name} is not installed") from None
            raise MissingCommand(f"`cass-train {name}` needs the Python package {e.name} (pip install 'cass-cc[train]')") from None
        command = getattr(module, attr, None)
        if not isinstance(command, click.Command):
            raise MissingCommand(f"`cass-train {name}`: {target} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # from the table: listing must not import the commands' modules
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][1]) for name in self.list_commands(ctx)])


@click.group(cls=LazyGroup)
@click.version_option(package_name="cass-cc", prog_name="cass-train")
def cli() -> None:
    """Fine-tune and evaluate CUDA->AMD translators (the CASS formats of cass-cc)."""


def main(argv: list[str] | None = None) -> int:
    from cass_cc.click_main import run_click

    return run_click(cli, argv, "cass-train")


if __name__ == "__main__":
    sys.exit(main())
