"""Which optional extra provides a module that is not installed, for a one-line message.

The extras are setup.cfg's [options.extras_require]; the installed package's metadata carries them
(`Requires-Dist: numpy>=1.24; extra == "emu"`), and a checkout's setup.cfg is read when cass-cc
runs uninstalled. A module's import name is taken to be its distribution's name with '-' as '_'
(true of every optional dependency cass-cc has).
"""
from __future__ import annotations

import re
from pathlib import Path

SETUP_CFG = Path(__file__).resolve().parents[1] / "setup.cfg"
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


def _norm(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")


def _requirements() -> list[tuple[str, str]]:
    """(distribution, extra) of every optional dependency."""
    if SETUP_CFG.exists():  # a checkout: its setup.cfg is newer than any installed metadata
        import configparser

        cfg = configparser.ConfigParser()
        cfg.read(SETUP_CFG)
        if cfg.has_section("options.extras_require"):
            return [(m.group(1), extra) for extra, text in cfg.items("options.extras_require")
                    for line in text.splitlines() if (m := _NAME.match(line)) and line.strip()]
    from importlib import metadata

    try:
        reqs = metadata.requires("cass-cc") or []
    except metadata.PackageNotFoundError:
        return []
    return [(n.group(1), e.group(1)) for r in reqs if (n := _NAME.match(r)) and (e := _EXTRA.search(r))]


def extras_providing(module: str) -> list[str]:
    """The extras whose dependencies include the top-level package of `module` ('test', which
    gathers everything for the test suite, only when no other has it)."""
    top = _norm(module.split(".")[0])
    found = sorted({extra for dist, extra in _requirements() if _norm(dist) == top})
    return [e for e in found if e != "test"] or found


def missing_extra_message(error: ModuleNotFoundError, command: str) -> str | None:
    """One line naming the extra to install, or None when the module is no optional dependency."""
    extras = extras_providing(error.name or "")
    if not extras:
        return None
    extra = extras[0]
    others = f" (or {', '.join(extras[1:])})" if len(extras) > 1 else ""
    prefix = f"cass-cc {command}" if command else "cass-cc"
    return (f"{prefix}: needs the optional '{extra}' dependencies{others}: "
            f"pip install 'cass-cc[{extra}]' (no module named {error.name!r})")
