"""`--version`: fast (no imports beyond os), and parseable as nvcc's.

Build systems parse nvcc's `--version` (CMake matches the first line and
`V<x.y.z>`); the lines between say plainly what this is.
"""
from __future__ import annotations

import os
from collections.abc import Mapping

from . import CUDA_COMPAT_VERSION, __version__

ROCM_DEFAULTS = ("/opt/rocm", "/usr")


def read_hip_version(root: str) -> tuple[int, int, int] | None:
    """(major, minor, patch) from <root>/include/hip/hip_version.h, e.g. Debian 12's:
        #define HIP_VERSION_MAJOR 5
        #define HIP_VERSION_MINOR 2
        #define HIP_VERSION_PATCH 21153
    """
    try:
        with open(os.path.join(root, "include", "hip", "hip_version.h")) as f:
            text = f.read()
    except OSError:
        return None
    found = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) == 3 and words[0] == "#define" and words[1].startswith("HIP_VERSION_") and words[2].isdigit():
            found[words[1][len("HIP_VERSION_"):]] = int(words[2])
    if "MAJOR" not in found:
        return None
    return (found["MAJOR"], found.get("MINOR", 0), found.get("PATCH", 0))


def version_text(env: Mapping[str, str]) -> str:
    roots = [env[v] for v in ("CASS_ROCM_PATH", "ROCM_PATH") if env.get(v)] + list(ROCM_DEFAULTS)
    hip = "no ROCm/HIP installation found"
    for root in roots:
        v = read_hip_version(root)
        if v:
            hip = f"HIP {'.'.join(map(str, v))} at {root}"
            break
    major_minor = ".".join(CUDA_COMPAT_VERSION.split(".")[:2])
    return (
        "nvcc: NVIDIA (R) Cuda compiler driver\n"
        f"cass-cc {__version__}: an nvcc-compatible driver that builds CUDA for AMD GPUs; not NVIDIA's nvcc\n"
        f"Uses {hip}; accepts the command line of CUDA {major_minor}\n"
        f"Cuda compilation tools, release {major_minor}, V{CUDA_COMPAT_VERSION}\n"
        f"Build cass-cc_{__version__}\n"
    )
