"""Is an NVIDIA GPU here to run on? Cheap signs first, then a probe program.

No /dev/nvidia0 and no nvidia-smi: no GPU (CI, most laptops), answered at once. Otherwise a
tiny program calling cudaGetDeviceCount, built once per nvcc into the cache folder, decides:
a driver without a device, or a container without the device files, says no.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from ..toolchain.tool import COMPILE, ToolTimeout, run_tool
from ..util import atomic_path, sha256_hex

PROBE = r"""#include <cstdio>
#include <cuda_runtime.h>
int main() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) { printf("0 %s\n", cudaGetErrorString(e)); return 0; }
  printf("%d\n", n);
  return 0;
}
"""


@dataclass(frozen=True)
class GpuCheck:
    present: bool
    how: str  # what decided it, for the "compiled, not run" message


def signs(env: Mapping[str, str]) -> list[str]:
    found = []
    if os.path.exists("/dev/nvidia0"):
        found.append("/dev/nvidia0")
    if shutil.which("nvidia-smi", path=env.get("PATH")):
        found.append("nvidia-smi")
    return found


def nvidia_gpu(nvcc: str, cache_dir: Path, env: Mapping[str, str]) -> GpuCheck:
    found = signs(env)
    if not found:
        return GpuCheck(False, "no /dev/nvidia0 and no nvidia-smi")
    probe = cache_dir / "verify" / f"gpu-probe-{sha256_hex(nvcc, str(os.stat(nvcc).st_mtime_ns), PROBE)[:12]}"
    if not probe.is_file():
        source = probe.with_suffix(".cu")
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(PROBE)
        with atomic_path(probe) as tmp:
            try:
                r = run_tool([nvcc, "-Wno-deprecated-gpu-targets", str(source), "-o", tmp], budget=COMPILE, text=True, errors="replace")
            except (OSError, ToolTimeout) as e:
                return GpuCheck(False, f"{', '.join(found)} present, but the probe did not build: {e}")
            if r.returncode != 0:
                return GpuCheck(False, f"{', '.join(found)} present, but the probe did not build: {r.stderr.strip()[:200]}")
    try:
        r = subprocess.run([str(probe)], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return GpuCheck(False, f"{', '.join(found)} present, but the probe failed: {e}")
    words = r.stdout.split()
    count = int(words[0]) if words and words[0].isdigit() else 0
    if count > 0:
        return GpuCheck(True, f"cudaGetDeviceCount: {count}")
    return GpuCheck(False, f"{', '.join(found)} present, but cudaGetDeviceCount found none ({r.stdout.strip() or r.stderr.strip()})")
