"""The AMD GPUs of this machine, for `-arch=native`, read from the kernel driver's
topology (/sys/class/kfd): no ROCm tool needs to run, and none is needed to build."""
from __future__ import annotations

from pathlib import Path

KFD_NODES = Path("/sys/class/kfd/kfd/topology/nodes")


def gfx_name(target_version: int) -> str | None:
    """KFD's gfx_target_version (major*10000 + minor*100 + stepping) as a gfx name:
    110000 -> gfx1100, 90010 -> gfx90a; 0 (a CPU node) -> None."""
    if target_version <= 0:
        return None
    major, rest = divmod(target_version, 10000)
    minor, stepping = divmod(rest, 100)
    if minor > 15 or stepping > 15:
        return None
    return f"gfx{major}{minor:x}{stepping:x}"


def local_gpus(nodes: Path = KFD_NODES) -> list[str]:
    """gfx names of the GPUs present, in node order, each once."""
    found: list[str] = []
    try:
        props = sorted(nodes.glob("*/properties"), key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    except OSError:
        return found
    for path in props:
        try:
            text = path.read_text()
        except OSError:
            continue
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "gfx_target_version" and value.strip().isdigit():
                name = gfx_name(int(value))
                if name and name not in found:
                    found.append(name)
    return found
