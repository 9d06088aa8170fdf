"""Compiling for the evaluation: a translation for gfx1100 (clang -x hip, through the toolchain
layer and its gfx11 device libraries), and CUDA originals with nvcc.

    tools = Found.find(env)                       # once, in the parent process (cass_cc/toolchain/found.py)
    compile_hip(text, filename, include_dirs, tools) -> Compiled(ok, error, seconds)
    compile_cuda(path, arch, tools, out, mode)      -> Compiled

The translation is compiled as a HIP compiler would see it, with no cass-cc header in front
(a translator's output must stand on its own). Errors keep the file and line the translation's
`#line` directives give, and `error` is the first line that says "error".
"""
from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from cass_cc.toolchain import hipclang
from cass_cc.toolchain.found import Found

COMPILE_TIMEOUT = 600


@dataclass(frozen=True)
class Compiled:
    ok: bool
    error: str = ""  # the first error line, when not ok
    seconds: float = 0.0
    log: str = ""


def first_error(log: str) -> str:
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    for line in lines:
        if " error" in line or line.startswith("error") or "fatal error" in line:
            return line[:400]
    return lines[0][:400] if lines else "failed with no message"


def _run(argv: Sequence[str], cwd: str, env: Mapping[str, str] | None = None) -> Compiled:
    start = time.monotonic()
    try:
        proc = subprocess.run(list(argv), cwd=cwd, capture_output=True, text=True, errors="replace",
                              timeout=COMPILE_TIMEOUT, env=dict(env) if env is not None else None)
    except subprocess.TimeoutExpired:
        return Compiled(False, f"timed out after {COMPILE_TIMEOUT} s", time.monotonic() - start)
    except OSError as e:
        return Compiled(False, f"{argv[0]}: {e.strerror}", time.monotonic() - start)
    log = proc.stdout + proc.stderr
    if proc.returncode != 0:
        return Compiled(False, first_error(log), time.monotonic() - start, log[-4000:])
    return Compiled(True, "", time.monotonic() - start)


def hip_command(tools: Found, source: str, out: str, include_dirs: Sequence[str], device_only: bool = False) -> list[str]:
    hip = tools.hip_clang()
    return hip.command(source, out, mode=hipclang.DEVICE_OBJECT if device_only else hipclang.OBJECT,
                       flags=["-std=c++17", "-O2", "-w", *(f"-I{d}" for d in include_dirs)])


def compile_hip(text: str, filename: str, include_dirs: Sequence[str], tools: Found,
                keep: Path | None = None, device_only: bool = False) -> Compiled:
    """Compile HIP source text for gfx1100 (an object, or with device_only a code object at `keep`)."""
    if not tools.clang:
        return Compiled(False, f"not compiled for gfx1100: {tools.why_no_hip or 'no HIP clang'}")
    with tempfile.TemporaryDirectory(prefix="cass-eval-hip-") as tmp:
        src = Path(tmp) / (Path(filename).stem + ".hip")
        src.write_text(text, encoding="utf-8", errors="surrogateescape")
        out = str(keep) if keep is not None else str(Path(tmp) / "out.o")
        c = _run(hip_command(tools, str(src), out, include_dirs, device_only), tmp)
        # a translation without #line directives: name the file, not the temporary folder
        return Compiled(c.ok, c.error.replace(f"{tmp}/", ""), c.seconds, c.log.replace(f"{tmp}/", ""))


def compile_cuda(path: Path, arch: str, tools: Found, out: Path, mode: str = "-c",
                 flags: Sequence[str] = ("-O2",)) -> Compiled:
    """nvcc -arch=ARCH MODE (-c, -cubin, or '' for an executable) PATH -o OUT."""
    if not tools.nvcc:
        return Compiled(False, f"nvcc not found: {tools.why_no_nvcc}")
    argv = [tools.nvcc, f"-arch={arch}", "-Wno-deprecated-gpu-targets", *flags, *(f"-I{d}" for d in tools.extra_cuda_includes),
            *([mode] if mode else []), str(path), "-o", str(out)]
    return _run(argv, str(out.parent), {**os.environ})
