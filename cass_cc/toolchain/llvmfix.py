"""The LLVM fixes plugin (llvmfix.cpp): an LLVM pass plugin that works around miscompilations of the
AMDGPU back end of LLVM 15-16 (clang-15 for HIP, opt/llc-16 for the lifter). It keeps it off its
float division for integers, which LLVM 15-17 apply to values that do not fit (issue 21), off
its signed 24-bit high multiply for unsigned 64-bit products (fuzz r3:1053), off its waterfall
loop for a uniform register-array index held in a VGPR, which LLVM 15-18 write at the wrong element
(fuzz r3:1675), off the unordered lane-mask compare of a vote on isnan(x), which LLVM 15-16 cannot
select (fuzz r3:1686), and off a three-way max that lets a signalling NaN through (fuzz r3:1689).

The plugin is built once per clang (its LLVM version) and source, with that LLVM's own headers
(`llvm-config-N --cxxflags`; Debian: llvm-N-dev) and its clang++, into the cache folder. Without
the headers a HIP compile would be silently wrong for some divisions, so it stops with the package
to install; CASS_CC_NO_LLVM_FIXES=1 builds without it anyway (the user's choice).
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from ..util import sha256_hex
from .tool import COMPILE, Tool, ToolchainError, ToolTimeout, run_tool, run_version

SOURCE = Path(__file__).with_name("llvmfix.cpp")
OPT_OUT = "CASS_CC_NO_LLVM_FIXES"


def _sibling(clang: Tool, name: str, major: int) -> str | None:
    """`name-N` (or `name`) beside clang, then on PATH: the tools of clang's own LLVM."""
    here = os.path.dirname(clang.path)
    for candidate in (f"{name}-{major}", name):
        path = os.path.join(here, candidate)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return shutil.which(f"{name}-{major}")


def prerequisites(clang: Tool, env: Mapping[str, str]) -> tuple[str, str] | None:
    """(llvm-config, clang++) of clang's LLVM, which building the plugin needs; None where the user
    opted out. Cheap (nothing runs): callers check it before any work."""
    if env.get(OPT_OUT) == "1":
        return None
    major = clang.version[0]
    config = _sibling(clang, "llvm-config", major)
    cxx = _sibling(clang, "clang++", major)
    if config is None or cxx is None:
        raise ToolchainError(f"cass-cc needs LLVM {major}'s development files for its LLVM fixes plugin "
                             f"(install them with: apt-get install llvm-{major}-dev), or {OPT_OUT}=1 "
                             "to build without it (some unsigned divisions in device code are then wrong)")
    return config, cxx


def llvm_fixes(clang: Tool, cache_dir: Path, env: Mapping[str, str]) -> Path | None:
    """The plugin for this clang (built on first use), or None where the user opted out."""
    found = prerequisites(clang, env)
    if found is None:
        return None
    config, cxx = found
    major = clang.version[0]
    try:
        proc = run_tool([config, "--cxxflags"], text=True, errors="replace")
    except ToolTimeout as e:
        raise ToolchainError(str(e)) from None
    if proc.returncode != 0:
        raise ToolchainError(f"{config} --cxxflags failed: {proc.stderr.strip()[:200]}")
    flags = proc.stdout.split()
    key = sha256_hex(SOURCE.read_text(), clang.version_text, " ".join(flags))[:16]
    plugin = cache_dir / "plugins" / f"llvmfix-{major}-{key}.so"
    if plugin.exists():
        return plugin
    if not Path(next((f[2:] for f in flags if f.startswith("-I")), "/nonexistent"), "llvm/Passes/PassPlugin.h").exists():
        raise ToolchainError(f"LLVM {major}'s headers are missing (install them with: apt-get install llvm-{major}-dev), "
                             f"or {OPT_OUT}=1 to build without the LLVM fixes plugin")
    plugin.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=plugin.parent, prefix=".llvmfix-") as tmp:
        built = Path(tmp) / plugin.name
        try:
            proc = run_tool([cxx, "-shared", "-fPIC", "-O2", *flags, str(SOURCE), "-o", str(built)], budget=COMPILE,
                            text=True, errors="replace")
        except ToolTimeout as e:
            raise ToolchainError(f"building the LLVM fixes plugin failed: {e}") from None
        if proc.returncode != 0:
            raise ToolchainError(f"building the LLVM fixes plugin failed: {proc.stderr.strip().splitlines()[-1:]}")
        os.replace(built, plugin)  # atomic: a concurrent build writes the same file
    return plugin


@functools.lru_cache(maxsize=None)
def _llvm_tool(path: str) -> Tool:
    text = run_version(path)
    m = re.search(r"LLVM version (\d+)\.(\d+)\.(\d+)", text)
    if m is None:
        raise ToolchainError(f"{path}: no LLVM version in its --version")
    return Tool("opt", path, tuple(int(x) for x in m.groups()), m.group(0))


def check_llvm_tool(path: str) -> None:
    """Raises ToolchainError (one line naming the package) where the plugin for this `opt` could
    not be built: said before any work, the build itself waits for the first use."""
    prerequisites(_llvm_tool(path), os.environ)


@functools.lru_cache(maxsize=None)
def for_llvm_tool(path: str, cache_dir: Path) -> Path | None:
    """The plugin for the LLVM of an `opt` (the lifter's pipeline runs opt-16 on lifted IR, and
    LLVM 16's back end makes the same 64-bit multiply mistake: `opt -load-pass-plugin=...`)."""
    return llvm_fixes(_llvm_tool(path), cache_dir, os.environ)
