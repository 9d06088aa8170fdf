"""A source's way to an object as data: ordered (suffix, stage) pairs. A build starts at the
input's suffix and runs every stage after it; `-keep` keeps what each stage made.

    .cu   --translate-->  .hip  --hip-->  .o      (clang -x hip: device code objects in a host object)
    .c/.cpp/.s                  --host--> .o      (a host source using the CUDA API is translated first)

With -keep, the translation is kept as `x.cu.hip` and, for each GPU target, the device side of the
hip stage as `x.cu.gfx1100.s` and `x.cu.gfx1100.co`, as nvcc -keep keeps its .ptx and .cubin.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..nvcc.invocation import Lang
from ..toolchain import hipclang


@dataclass(frozen=True)
class Stage:
    name: str  # translate, hip, host
    makes: str  # the suffix of what it writes
    what: str  # for -v


TRANSLATE = Stage("translate", ".hip", "CUDA to HIP (cached)")
HIP = Stage("hip", ".o", "HIP to a host object holding gfx code objects (clang -x hip)")
HOST = Stage("host", ".o", "host source to an object (the host compiler)")

# in order; a build starts at the input's suffix
PIPELINE: tuple[tuple[Lang, Stage], ...] = ((Lang.CU, TRANSLATE), (Lang.HIP, HIP))
HOST_LANGS = (Lang.C, Lang.CXX, Lang.ASM)


def plan(lang: Lang, uses_cuda_api: bool = False) -> tuple[Stage, ...]:
    """The stages a source of this language goes through to an object."""
    if lang in HOST_LANGS:
        return (TRANSLATE, HOST) if uses_cuda_api and lang is not Lang.ASM else (HOST,)
    starts = [i for i, (src, _) in enumerate(PIPELINE) if src is lang]
    if not starts:
        raise ValueError(f"no stages start at {lang}")
    return tuple(stage for _, stage in PIPELINE[starts[0]:])


# ---- what -keep adds beside the hip stage --------------------------------------------------------

# Per GPU target, the device side the hip stage bundles into its object, made by the same clang
# command with a device-only mode (the build's own object is made as without -keep: clang's
# -save-temps would re-assemble its own assembly text, which LLVM 15 does not always accept).
KEPT_BESIDE_HIP: tuple[tuple[str, tuple[str, ...]], ...] = (
    (".s", hipclang.DEVICE_ASM),  # the gfx assembly
    (".co", hipclang.DEVICE_OBJECT),  # the code object the bundle carries
)


def kept_path(folder: Path, user_file: str, arch: str, suffix: str) -> Path:
    """`x.cu` -> FOLDER/x.cu.gfx1100.s"""
    return folder / f"{Path(user_file).name}.{arch}{suffix}"
