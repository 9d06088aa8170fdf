"""The translator interface: CUDA source in, HIP source plus diagnostics out.

Every translator (the built-in rules, a CASS model, anything later) implements
`Translator`. The chain (`chain.py`) asks its members in order and reports which
one served; the driver caches the result under `Translator.identity()`.
"""
from __future__ import annotations

import re

from ..records import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol
else:  # the interface is structural; importing typing costs every compile ~5 ms
    Protocol = object


@record
class Target:
    """What the translation is for: it changes what must be emitted."""

    hip_version: tuple[int, int] = (5, 2)  # HIP major, minor of the installation used
    wave_size: int = 32  # 32 on RDNA (gfx10xx/gfx11xx), 64 on CDNA/GCN
    # Names the file includes with <> that the user's own include folders hold: where one is
    # a CUDA header HIP lacks (a project's cuda_fp8.h stand-in), the user's, never refused.
    user_headers: frozenset[str] = frozenset()

    def key(self) -> str:
        key = f"hip{self.hip_version[0]}.{self.hip_version[1]}-w{self.wave_size}"
        if self.user_headers:
            import hashlib

            key += "-u" + hashlib.sha256("\0".join(sorted(self.user_headers)).encode()).hexdigest()[:12]
        return key


@record
class Diagnostic:
    line: int  # 1-based line in the CUDA input
    column: int  # 1-based
    severity: str  # "error", "warning" or "note"
    message: str

    def format(self, filename: str) -> str:
        """clang/gcc style, so editors and build logs can jump to it."""
        return f"{filename}:{self.line}:{self.column}: {self.severity}: {self.message}"


@record
class Translation:
    text: str  # full HIP source, carrying #line directives naming the CUDA file
    translator: str  # identity of the translator that served
    diagnostics: tuple[Diagnostic, ...] = ()
    # CUDA names found that have no HIP counterpart on this target (rules could not serve them).
    unsupported: tuple[str, ...] = ()
    # False when a translator that should have served could not be asked this time (a model
    # endpoint down or timing out): the fallback is used but not cached, so a later build asks again.
    cacheable: bool = True


class Translator(Protocol):
    name: str

    def identity(self) -> str:
        """Everything about this translator that changes its output (name, version, data hash)."""
        ...

    def translate(self, source: str, filename: str, target: Target) -> Translation:
        """Translate CUDA `source`, read from `filename` (used only in #line and diagnostics)."""
        ...


class TranslationError(Exception):
    """A translator could not produce usable output for this input."""


class TranslationUnavailable(TranslationError):
    """A translator could not be asked this time (a model endpoint down, a time-out, an answer
    too large to read): the chain falls back, and its result must not be cached."""


class TranslationDeclined(TranslationError):
    """A translator leaves this input to the next one by design (the model translator,
    for a file the rules fully cover): not a failure, so the chain says nothing."""


# Text that uses CUDA and so needs translating: a host file calling the runtime or a library,
# a header declaring kernels, a launch. Files without it are left as they are.
_CUDA_API = re.compile(rb"\bcu(?:da|blas|rand|fft|sparse|solver)[A-Z_]|<cuda|__global__|__device__|<<<")


def uses_cuda_text(data: bytes) -> bool:
    return _CUDA_API.search(data) is not None
