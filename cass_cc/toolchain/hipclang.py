"""clang's HIP driver for AMD GPUs: the one place that spells its command line.

The driver (`cass-cc -c`), the model answer's compile check, `cass-cc verify`'s gfx1100 check,
cass_data's gfx1100 stage and cass_train's evaluation all compile HIP with clang; each says what
it wants (a mode, its own flags) and this says how clang is told: the language, the offload
targets, the ROCm installation and its device libraries, the pass plugin, the bracket limit.

    hip = tc.hip_clang(["gfx1100"])
    hip.command("k.hip", "k.o", mode=OBJECT, flags=["-O2"])
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# What a compile makes (clang's spelling of it). Code is generated in all but PREPROCESS,
# DEPENDENCIES and HOST_SYNTAX, so only those run without the pass plugin.
OBJECT = ("-c",)
PREPROCESS = ("-E",)
DEVICE_ASM = ("--cuda-device-only", "-S")  # the gfx .s of each target, no host side
DEVICE_OBJECT = ("--cuda-device-only", "--no-gpu-bundle-output", "-c")  # a code object, unbundled
HOST_SYNTAX = ("--cuda-host-only", "-fsyntax-only")
_NO_CODE = {"-E", "-M", "-MM", "-fsyntax-only"}

RDC = "-fgpu-rdc"  # relocatable device code (nvcc -rdc=true)
DEVICE_ONLY_FLAG = "-Xarch_device"  # the next flag reaches device compiles only
HOST_ONLY_FLAG = "-Xarch_host"

# clang stops at 256 nested brackets ("bracket nesting level exceeded", -fbracket-depth);
# nvcc's front end has no such limit (it builds a 50,000-deep brace nest). A source nested
# past half of clang's limit gets a limit of its own depth plus clang's (headers and macros
# nest too).
BRACKET_DEPTH = 256


def device_only(flag: str) -> list[str]:
    return [DEVICE_ONLY_FLAG, flag]


def host_only(flag: str) -> list[str]:
    return [HOST_ONLY_FLAG, flag]


def bracket_flags(depth: int) -> list[str]:
    """The bracket limit a source `depth` deep needs (none below half of clang's own)."""
    return [f"-fbracket-depth={depth + BRACKET_DEPTH}"] if depth > BRACKET_DEPTH // 2 else []


@dataclass(frozen=True)
class HipClang:
    """A HIP-capable clang with the ROCm installation and device-library folder it compiles against."""

    path: str
    rocm_root: str
    device_libs: str

    def command(self, src: str, out: str | None, *, archs: Sequence[str] = ("gfx1100",),
                mode: Sequence[str] = OBJECT, flags: Sequence[str] = (), plugin: object = None) -> list[str]:
        """clang -x hip for `archs`: `mode` first, then the caller's `flags` in their order, then the
        pass plugin where code is generated, then the source and `-o out` (none with out=None)."""
        cmd = [self.path, "-x", "hip", *(f"--offload-arch={a}" for a in archs),
               f"--rocm-path={self.rocm_root}", f"--rocm-device-lib-path={self.device_libs}", *mode, *flags]
        if plugin is not None and not _NO_CODE & set(mode):
            cmd.append(f"-fpass-plugin={plugin}")
        cmd.append(src)
        if out is not None:
            cmd += ["-o", out]
        return cmd
