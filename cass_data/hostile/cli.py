"""`cass-data hostile FAMILY`: each family's command lives in its own module, imported when named."""
from __future__ import annotations

import importlib

import click

# family -> module (each has a click command named `command`)
FAMILIES = {
    "cmdline": "cmdline",        # nvcc command lines against real nvcc's exit status
    "cubins": "cubins",          # mutated cubins through --emit-rdna3
    "codeobjects": "codeobjects",  # mutated code objects through emu-run
    "cache": "cache",            # corrupt cache stores and interrupted writes
    "endpoint": "endpoint",      # misbehaving model endpoints on 127.0.0.1
    "sources": "sources",        # bad and extreme CUDA sources
}


class Families(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(FAMILIES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in FAMILIES:
            return None
        try:
            module = importlib.import_module(f".{FAMILIES[name]}", __package__)
        except ModuleNotFoundError as e:
            if e.name and e.name.endswith(f"hostile.{FAMILIES[name]}"):
                return None  # family not written yet
            raise
        return module.command


hostile = Families("hostile", help="Hostile input: generated bad input thrown at cass-cc, every outcome sorted.")
