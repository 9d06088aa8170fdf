"""What the bench scripts' click commands share (not a script): -h beside --help, help text
printed as it is written (the module docstrings are laid out by hand: command lines, lists), and
options that take every value up to the next option (`--only a b c`)."""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import click

CONTEXT: dict[str, Any] = {"help_option_names": ["-h", "--help"]}


def as_written(text: str) -> str:
    """`text` for a click help: click rewraps each paragraph unless its first line is \\b."""
    return "\b\n" + re.sub(r"\n\n+", lambda m: m.group(0) + "\b\n", text.strip("\n"))


_NUMBER = re.compile(r"-\d+$|-\d*\.\d+$")


def _is_value(arg: str) -> bool:
    return not arg.startswith("-") or arg == "-" or bool(_NUMBER.match(arg))


def spread(args: Sequence[str], greedy: dict[str, bool], ctx: click.Context | None = None) -> list[str]:
    """`--only a b c` -> `--only=a --only=b --only=c` for each option in `greedy` (name -> whether
    it may be given no value: then it is `--only=`, one empty value). The values run up to the
    next option or `--`; an option given again replaces what it was given before."""
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            out += args[i - 1:]
            break
        name, eq, value = arg.partition("=")
        if name not in greedy:
            out.append(arg)
            continue
        out = [a for a in out if not a.startswith(name + "=")]
        values = [value] if eq else []
        while not eq and i < len(args) and _is_value(args[i]):
            values.append(args[i])
            i += 1
        if not values and not greedy[name]:
            raise click.UsageError(f"Option '{name}' expects at least one value.", ctx)
        out += [f"{name}={v}" for v in values or [""]]
    return out


def greedy_values(given: Sequence[str]) -> list[str] | None:
    """A greedy option's values: None when it was not given, [] when given with none."""
    return [v for v in given if v] if given else None


class GreedyCommand(click.Command):
    """A command whose options named in `greedy` (name -> may it have no value) take every value
    up to the next option; declare them with multiple=True and read them with greedy_values."""

    def __init__(self, *args: Any, greedy: dict[str, bool], **kwargs: Any) -> None:
        self.greedy = greedy
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, spread(args, self.greedy, ctx) if args else args)
