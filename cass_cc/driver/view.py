"""What the steps a build hands itself to (dlink.py's device link, validate.py's check of a model's
answer) use of driver.build.Build: its shape here, so that those steps do not import the build
that imports them."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from ..config import Config
from ..nvcc.invocation import Input, Invocation
from ..toolchain import Toolchain


class BuildView(Protocol):
    inv: Invocation
    config: Config
    tc: Toolchain
    archs: list[str]
    dry: bool

    @property
    def scratch(self) -> Path: ...

    def execute(self, argv: Sequence[str], stdout: int | None = None) -> None: ...

    def include_flags(self, inp: Input) -> list[str]: ...
