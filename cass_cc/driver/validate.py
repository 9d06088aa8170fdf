"""The driver's check of a model's answer (translate/model.py's Validator): the answer is compiled
as the driver compiles the file it stands for, so an answer is used only where it builds; with
`model-check=emulator`, its kernels must also compute what the CUDA file's do (emucheck.py)."""
from __future__ import annotations

import functools
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..nvcc.invocation import Input, Lang
from ..toolchain import hipclang
from ..toolchain.tool import COMPILE, ToolTimeout, run_tool
from ..util import atomic_write_text
from . import commands
from .crashes import MARK as CRASH_MARK, RETRIES as CRASH_RETRIES
from .emucheck import EmulatorCheck, emulator_check
from .view import BuildView


class BuildValidator:
    """Compiles an answer as the driver compiles the file (`-c`, same flags, includes and
    translated-header trees), to a temporary object that is thrown away."""

    def __init__(self, build: BuildView) -> None:
        self.build = build

    @functools.cached_property
    def emulator(self) -> EmulatorCheck | None:
        """The emulator check when model-check asks for it (found tools decide `auto`), looked up
        only once a model's answer is checked: a build without a model never searches for nvcc."""
        return emulator_check(self.build)

    @functools.cached_property
    def key(self) -> str:
        b, inv = self.build, self.build.inv
        clang = b.tc.clang
        flags = {
            "archs": b.archs, "clang": [clang.path, clang.version_str], "hip": list(b.tc.rocm.hip_version),
            "defines": inv.defines, "undefines": inv.undefines, "includes": inv.include_dirs,
            "system": inv.system_include_dirs, "pre": inv.pre_includes, "std": inv.std, "host": inv.host_args,
            "rdc": inv.rdc, "cwd": os.getcwd(),
        }
        if self.emulator is not None:
            flags["emulator"] = self.emulator.key
        return json.dumps(flags, sort_keys=True, default=str)

    def prepare(self, filename: str) -> list[str]:
        return list(self.build.include_flags(Input(filename, Lang.CU)))

    def check(self, text: str, filename: str, prepared: Any = None) -> str | None:
        from ..translate.model import first_error  # imported where a model is configured, not by every build

        b = self.build
        flags = self.prepare(filename) if prepared is None else prepared
        with tempfile.TemporaryDirectory(prefix="cass-cc-check-") as tmp:
            src = os.path.join(tmp, Path(filename).stem + ".hip")
            atomic_write_text(src, text)
            argv = commands.hip_compile(
                b.inv, src, os.path.join(tmp, "check.o"), hip=b.tc.hip_clang(b.archs), archs=b.archs,
                include_flags=flags, mode=hipclang.OBJECT,
            )
            for _ in range(1 + CRASH_RETRIES):
                try:
                    proc = run_tool(argv, budget=COMPILE, timeout=b.config.tool_timeout)
                except OSError as e:
                    return f"cannot run {argv[0]}: {e.strerror}"
                except ToolTimeout as e:
                    return f"does not compile ({e})"
                if proc.returncode == 0:
                    return self.emulator.check(text, filename, flags, tmp) if self.emulator is not None else None
                if CRASH_MARK not in proc.stderr:
                    break
            return first_error(proc.stderr.decode("utf-8", "replace"), src, filename)
