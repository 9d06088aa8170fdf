"""Running a click command or group as a console script: exit codes, `--help`/`--version`, Ctrl-C
and click's usage errors the same way in cass-cc's subcommands, cass-data, cass-train and the
generators run with `python -m`."""
from __future__ import annotations

from collections.abc import Sequence

import click


def run_click(command: click.Command, argv: Sequence[str] | None, prog_name: str) -> int:
    """The command's exit status: its callback's int return value (0 for None), or the error's."""
    try:
        rv = command.main(args=None if argv is None else list(argv), prog_name=prog_name, standalone_mode=False)
    except click.exceptions.Exit as e:
        return int(e.exit_code or 0)
    except click.Abort:
        click.echo("aborted", err=True)
        return 1
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except SystemExit as e:  # a callback that exits with its own status, or with a message (status 1)
        if isinstance(e.code, int) or e.code is None:
            return e.code or 0
        click.echo(str(e.code), err=True)
        return 1
    return rv if isinstance(rv, int) else 0
