"""The gfx11 device-library fix for ROCm 5.x (see shared/TOOLCHAIN.md).

ROCm 5.2's device libraries have no `oclc_isa_version_11xx.bc`, so clang stops with
"cannot find ROCm device library for gfx1100". That file only defines the constant
`__oclc_ISA_version`; the gfx1030 one with 10300 replaced by 11000 (1100x for
gfx110x) is the file ROCm 5.5+ ships. We build a copy of the bitcode folder with the
missing files added, once, in the cache folder, and pass it with
`--rocm-device-lib-path`. Installations that have the files are used as they are.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..util import sha256_hex
from .rocm import Rocm, isa_file, missing_isa
from .tool import Tool, ToolchainError, ToolTimeout, run_tool

DONOR = "oclc_isa_version_1030.bc"


def isa_number(arch: str) -> int:
    """gfx1100 -> 11000, gfx1103 -> 11003 (major * 1000 + minor * 100 + stepping)."""
    m = re.fullmatch(r"gfx(\d+)([0-9a-f])([0-9a-f])", arch.split(":")[0])
    if not m:
        raise ToolchainError(f"'{arch}' is not an AMD GPU name like gfx1100")
    return int(m.group(1)) * 1000 + int(m.group(2), 16) * 100 + int(m.group(3), 16)


def device_lib_dir(rocm: Rocm, archs: list[str], cache_dir: Path, llvm_dis: Tool | None, llvm_as: Tool | None) -> Path:
    """A bitcode folder that has ISA files for every arch in `archs`."""
    missing = missing_isa(rocm.device_lib_dir, archs)
    if not missing:
        return rocm.device_lib_dir
    unfixable = [a for a in missing if not a.startswith("gfx11")]
    if unfixable:
        raise ToolchainError(
            f"ROCm {rocm.hip_version_str} at {rocm.root} has no device library for {', '.join(unfixable)}; "
            "use a newer ROCm (set CASS_ROCM_PATH) or another --cass-offload-arch"
        )
    src = rocm.device_lib_dir
    folder = cache_dir / "devlibs" / sha256_hex(str(src), str(os.stat(src / "ocml.bc").st_mtime_ns))[:16]
    needed = [a for a in missing if not (folder / isa_file(a)).is_file()]
    if not needed:
        return folder
    if llvm_dis is None or llvm_as is None:
        raise ToolchainError(
            f"ROCm {rocm.hip_version_str} has no device library for {', '.join(needed)} and llvm-dis/llvm-as "
            "are missing to add it; install llvm-15 (apt-get install llvm-15) or set CASS_LLVM_DIS/CASS_LLVM_AS"
        )
    donor = src / DONOR
    if not donor.is_file():
        raise ToolchainError(f"{donor} is missing: cannot derive the gfx11 device library from it")
    _populate(folder, src, needed, donor, llvm_dis, llvm_as)
    return folder


def _checked(argv: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    """run_tool with subprocess.run(check=True)'s CalledProcessError on a failure."""
    proc = run_tool(argv, input=stdin, text=True, errors="replace")
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, argv, proc.stdout, proc.stderr)
    return proc


def _populate(folder: Path, src: Path, archs: list[str], donor: Path, llvm_dis: Tool, llvm_as: Tool) -> None:
    """Fill `folder` without ever exposing a half-made one to a parallel build."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    try:
        if folder.is_dir():
            shutil.copytree(folder, work, dirs_exist_ok=True)
        else:
            shutil.copytree(src, work, dirs_exist_ok=True)
        text = _checked([llvm_dis.path, str(donor), "-o", "-"]).stdout
        for arch in archs:
            patched = text.replace(str(isa_number("gfx1030")), str(isa_number(arch)))
            _checked([llvm_as.path, "-o", str(work / isa_file(arch))], patched)
        if folder.is_dir():
            # Another build got there first or had other archs: merge our new files in atomically, one each.
            for arch in archs:
                os.replace(work / isa_file(arch), folder / isa_file(arch))
        else:
            try:
                os.rename(work, folder)
                work = None  # type: ignore[assignment]
            except OSError:
                for arch in archs:  # lost a race with a parallel build: theirs is just as good
                    if not (folder / isa_file(arch)).is_file():
                        os.replace(work / isa_file(arch), folder / isa_file(arch))
    except subprocess.CalledProcessError as e:
        raise ToolchainError(f"building the gfx11 device library failed: {' '.join(map(str, e.cmd))}: {e.stderr}") from None
    except ToolTimeout as e:
        raise ToolchainError(f"building the gfx11 device library failed: {e}") from None
    finally:
        if work is not None and work.exists():
            shutil.rmtree(work, ignore_errors=True)
