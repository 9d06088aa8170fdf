"""The ROCm/HIP installation: where it is, which HIP version, where its device libraries are.

Layouts seen:
- ROCm 6.x/7.x from AMD: /opt/rocm-X.Y.Z/{bin/hipcc, include/hip, lib/libamdhip64.so,
  llvm/bin/clang, amdgcn/bitcode/*.bc (6.x) or lib/llvm/lib/clang/N/lib/amdgcn/bitcode/*.bc (7.x)},
  with /opt/rocm a link to the one chosen (none where only versioned packages are installed)
- Debian 12's ROCm 5.2 packages: /usr/{bin/hipcc, include/hip,
  lib/x86_64-linux-gnu/libamdhip64.so, lib/x86_64-linux-gnu/amdgcn/bitcode/*.bc},
  compiled with clang-15.
- Debian 13's ROCm 5.7 packages (Ubuntu 24.04's likewise): /usr/{bin/hipcc, include/hip,
  lib/x86_64-linux-gnu/libamdhip64.so}, the device libraries in LLVM 17's resource folder
  /usr/lib/llvm-17/lib/clang/17/amdgcn/bitcode/*.bc, compiled with clang-17.

`include/hip/hip_version.h` says (Debian 12):
    #define HIP_VERSION_MAJOR 5
    #define HIP_VERSION_MINOR 2
    #define HIP_VERSION_PATCH 21153
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..records import record
from ..version import read_hip_version
from .tool import ToolchainError

INSTALL_HINT = (
    "install ROCm (on Debian 12: apt-get install hipcc libamdhip64-dev rocm-device-libs clang-15 lld-15 llvm-15)"
)


@record
class Rocm:
    root: Path
    origin: str  # which setting or default found it
    hip_version: tuple[int, int, int]
    device_lib_dir: Path  # the installed bitcode folder (may lack gfx11 ISA files)
    lib_dir: Path  # holds libamdhip64.so

    @property
    def hip_version_str(self) -> str:
        return ".".join(map(str, self.hip_version))

    def bin_dirs(self) -> list[str]:
        dirs = [self.root / "llvm" / "bin", self.root / "bin"]
        return [str(d) for d in dirs if d.is_dir() and str(d) != "/usr/bin"]


def _hip_version(root: Path) -> tuple[int, int, int] | None:
    return read_hip_version(str(root))


def _first_dir(*paths: Path) -> Path | None:
    for p in paths:
        if p.is_dir():
            return p
    return None


def _device_lib_dir(root: Path) -> Path | None:
    for candidate in (
        root / "amdgcn" / "bitcode",
        root / "lib" / "x86_64-linux-gnu" / "amdgcn" / "bitcode",
        root / "lib" / "amdgcn" / "bitcode",
    ):
        if (candidate / "ocml.bc").is_file():
            return candidate
    for llvm_clang in (root / "llvm" / "lib" / "clang", root / "lib" / "llvm" / "lib" / "clang"):
        if llvm_clang.is_dir():
            for found in sorted(llvm_clang.glob("*/lib/amdgcn/bitcode/ocml.bc")):
                return found.parent
    # Debian 13 / Ubuntu 24.04 (ROCm 5.7): under the resource folder of the LLVM that built them,
    # /usr/lib/llvm-17/lib/clang/17/amdgcn/bitcode; the newest LLVM's when several are installed
    found = [p.parent for p in (root / "lib").glob("llvm-*/lib/clang/*/amdgcn/bitcode/ocml.bc")]
    return max(found, key=_llvm_major, default=None)


def _llvm_major(bitcode: Path) -> int:
    """17 for .../lib/llvm-17/lib/clang/17/amdgcn/bitcode (0 where the name says no version)."""
    name = next((part for part in bitcode.parts if part.startswith("llvm-")), "")
    return int(name[5:]) if name[5:].isdigit() else 0


def _lib_dir(root: Path) -> Path | None:
    for candidate in (root / "lib", root / "lib" / "x86_64-linux-gnu", root / "lib64"):
        if (candidate / "libamdhip64.so").exists():
            return candidate
    return None


def _versioned(opt: Path) -> list[str]:
    """AMD's versioned installations, /opt/rocm-6.2.0 and the like, the newest first."""
    def version(path: Path) -> tuple[int, ...]:
        return tuple(int(n) for n in path.name[len("rocm-"):].split(".") if n.isdigit())
    return [str(p) for p in sorted(opt.glob("rocm-[0-9]*"), key=version, reverse=True) if p.is_dir()]


def find_rocm(env: Mapping[str, str], configured: str = "", opt: Path = Path("/opt")) -> Rocm:
    """The first of --cass-rocm-path/CASS_ROCM_PATH, ROCM_PATH, HIP_PATH, /opt/rocm, the newest
    /opt/rocm-X.Y.Z, /usr that holds HIP."""
    choices: list[tuple[str, str]] = []
    if configured:
        choices.append((configured, "CASS_ROCM_PATH"))
    for variable in ("ROCM_PATH", "HIP_PATH"):
        if env.get(variable):
            choices.append((env[variable], variable))
    choices += [(str(opt / "rocm"), "default"), *((p, "default") for p in _versioned(opt)), ("/usr", "default")]
    tried = []
    for path, origin in choices:
        root = Path(path)
        version = _hip_version(root)
        bitcode = _device_lib_dir(root)
        lib = _lib_dir(root)
        if version and bitcode and lib:
            return Rocm(root, origin, version, bitcode, lib)
        missing = [n for n, v in (("include/hip", version), ("device libraries", bitcode), ("libamdhip64", lib)) if not v]
        tried.append(f"{path} (from {origin}: no {', '.join(missing)})")
        if origin in ("CASS_ROCM_PATH", "ROCM_PATH"):
            # An explicit setting that does not hold HIP is an error, not a hint to look elsewhere
            # (HIP_PATH may name ROCm 5's /opt/rocm/hip, which holds only part of it).
            break
    raise ToolchainError(f"cannot find a ROCm/HIP installation: tried {'; '.join(tried)}; {INSTALL_HINT}, or set CASS_ROCM_PATH")


def isa_file(arch: str) -> str:
    """gfx1100 -> oclc_isa_version_1100.bc; gfx90a -> oclc_isa_version_90a.bc."""
    base = arch.split(":")[0]
    return f"oclc_isa_version_{base[3:]}.bc"


def missing_isa(device_lib_dir: Path, archs: list[str]) -> list[str]:
    return [a for a in archs if not (device_lib_dir / isa_file(a)).is_file()]

