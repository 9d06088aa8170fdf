"""Entry point. An nvcc command line goes to the driver; a first word naming a
subcommand (`cache`, `setup`, `port`, `translate`, ...) goes to click. Nothing heavy is imported before we
know which: `cass-cc --version` must stay fast.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Sequence

SUBCOMMANDS = ("cache", "setup", "port", "toolkit", "translate", "verify", "hipcc", "emu-run")


def _nvcc_env_flags() -> bool:
    return bool(os.environ.get("NVCC_PREPEND_FLAGS") or os.environ.get("NVCC_APPEND_FLAGS"))


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _dispatch(args)
    except ModuleNotFoundError as e:  # a command whose optional extra is not installed: say which
        from .extras import missing_extra_message

        msg = missing_extra_message(e, args[0] if args and args[0] in SUBCOMMANDS else "")
        if msg is None:
            raise
        sys.stderr.write(msg + "\n")
        return 1


def _dispatch(args: list[str]) -> int:
    if args in (["--version"], ["-V"]) and not _nvcc_env_flags():
        from .version import version_text  # the fast path build systems hit often

        sys.stdout.write(version_text(os.environ))
        return 0
    if "--emit-rdna3" in args:  # cubin -> gfx1100 through the SASS lifter
        from .sass.cli import main as emit_rdna3

        return emit_rdna3(args)
    if args and args[0] == "verify":  # splits off the program's arguments after `--` itself
        from .verify.cli import main as verify_main

        return verify_main(args[1:])
    if args and args[0] == "hipcc":  # a hipcc/clang command line, built with nvcc (cass_cc/hipnv/)
        from .hipnv import main as hipcc_main

        return hipcc_main(args[1:])
    if args and args[0] in SUBCOMMANDS:
        from .click_main import run_click
        from .commands import cli

        return run_click(cli, args, "cass-cc")
    from .driver import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
