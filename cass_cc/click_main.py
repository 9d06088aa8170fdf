"""Running a click group as a console script: exit codes, `--help`/`--version`, Ctrl-C and
click's usage errors the same way in cass-data and cass-train."""
from __future__ import annotations

from collections.abc import Sequence

import click


def run_group(group: click.Group, argv: Sequence[str] | None, prog_name: str) -> int:
    try:
        group.main(args=None if argv is None else list(argv), prog_name=prog_name, standalone_mode=False)
    except click.exceptions.Exit as e:
        return int(e.exit_code or 0)
    except click.Abort:
        click.echo("aborted", err=True)
        return 1
    except click.ClickException as e:
        e.show()
        return e.exit_code
    return 0
