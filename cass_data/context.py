"""Settings of a run and what the workers need: tool paths and the identity (versions, code
hashes) that goes into every store key. Made once in the parent, pickled to the workers.

Tools that are not on this machine (clang on a GPU machine without ROCm) take the identity a
previous run recorded in `<work>/toolchain.json`: their stages are then served from the store
alone, and a miss is a rejection ("no clang here"), never a silent skip.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cass_cc.toolchain.found import TOOLS, Found
from cass_cc.util import atomic_write_text

NVCC_FLAGS = ("-std=c++17", "-Xcompiler=-Os", "-DNDEBUG", "-w")  # CASS's published SASS command
HIP_FLAGS = ("-std=c++17", "-O2", "-w")


@dataclass(frozen=True)
class Settings:
    sms: tuple[str, ...] = ("sm_80", "sm_90")
    translator: str = "rules"
    lift: bool = True  # lifter pairs (SASS -> RDNA3 through cass-cc --emit-rdna3's lifter)
    prove: bool = True  # lifted kernels run beside clang's on the gfx1100 emulator (level "proven")
    execute: str = "auto"  # auto (when an NVIDIA GPU is here) | never | always
    run_arch: str = ""  # the sm the differential run builds for (default: the last of sms)
    build_timeout: float = 300.0
    run_timeout: float = 60.0
    run_memory_mb: int = 16384
    skip_amd: bool = False  # no gfx1100 side at all (no RDNA3 pairs; levels say so)

    def to_json(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def _code_hash(*paths: Path, skip: tuple[str, ...] = ()) -> str:
    """sha256 of the .py files in these folders (or these files), names outside `skip`."""
    h = hashlib.sha256()
    for path in paths:
        for p in sorted(path.glob("*.py")) if path.is_dir() else [path]:
            if p.name not in skip:
                h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@dataclass
class Context:
    settings: Settings
    work: str
    found: Found = field(default_factory=Found)  # the tools found here (cass_cc/toolchain/found.py)
    identity: dict[str, str] = field(default_factory=dict)  # tool or code name -> version / hash
    hip_version: tuple[int, int] = (5, 2)  # the HIP the data is made for (found here, or recorded)
    gpu: bool = False
    hipnv_folder: str = ""

    def has(self, tool: str) -> bool:
        return self.found.has(tool)

    def ident(self, *names: str) -> dict[str, str]:
        return {n: self.identity.get(n, "absent") for n in names}


def make_context(settings: Settings, work: Path, env: dict[str, str] | None = None) -> Context:
    """Find every tool through cass_cc's toolchain layer; record identities in work/toolchain.json."""
    env = dict(os.environ if env is None else env)
    found = Found.find(env, ("nvcc", "cuobjdump", "nvdisasm", "clang", "opt", "llc", "llvm-mc", "ld.lld"),
                       amd=not settings.skip_amd)
    ctx = Context(settings, str(work), found=found)
    for name, version in found.versions:
        if name not in ("clang", "hip") or found.clang:  # a clang without its ROCm is no AMD toolchain
            ctx.identity[name] = version
    if found.clang:
        ctx.hip_version = found.hip_version
    root = Path(__file__).resolve().parent.parent / "cass_cc"
    # The lifter and the prove stage run only where LLVM's tools are; elsewhere (a GPU machine
    # without them) their results come from the store under the identity recorded where they ran.
    if all(ctx.has(t) for t in ("opt", "llc", "llvm-mc")):  # not the driver's path (cli.py, modelpath.py)
        ctx.identity["lifter"] = "lifter " + _code_hash(root / "sass", *sorted((root / "sass" / "runtime_ir").glob("*.ll")),
                                                  skip=("inputs.py", "cli.py", "modelpath.py"))
    if all(ctx.has(t) for t in ("llvm-mc", "ld.lld")):
        # the emulator and the input planner (cass_cc/sass/inputs.py is not the lifter)
        ctx.identity["emu"] = "emu " + _code_hash(root / "emu", root / "sass" / "inputs.py")
    ctx.identity["runner"] = "runner " + _code_hash(root / "verify")
    ctx.identity["translator"] = translator_identity(settings.translator, env)
    recorded = work / "toolchain.json"
    old: dict[str, str] = {}
    if recorded.is_file():
        try:
            old = json.loads(recorded.read_text()).get("identity", {})
        except (OSError, json.JSONDecodeError, AttributeError):
            old = {}
    for name, value in old.items():  # tools missing here keep the identity a run elsewhere used
        ctx.identity.setdefault(name, value)
    if not ctx.has("clang") and "hip" in old:
        ctx.hip_version = tuple(int(x) for x in old["hip"].split()[1].split(".")[:2])  # type: ignore[assignment]
    work.mkdir(parents=True, exist_ok=True)
    atomic_write_text(recorded, json.dumps({"identity": dict(sorted(ctx.identity.items())),
                                            "paths": {t: found.path(t) for t in TOOLS if found.has(t)}}, indent=1) + "\n")
    return ctx


def attach_runner(ctx: Context, env: dict[str, str] | None = None) -> None:
    """The differential runner's tools (nvcc, the HIP-on-NVIDIA folder, whether a GPU is here)."""
    if ctx.settings.execute == "never" or not ctx.has("nvcc"):
        return
    from cass_cc.verify.runner import find_tools

    tools = find_tools(dict(os.environ if env is None else env))
    ctx.gpu = tools.gpu or ctx.settings.execute == "always"
    ctx.hipnv_folder = tools.hipnv_folder
    ctx.identity["hipnv"] = "hipnv " + Path(tools.hipnv_folder).name


def translator_identity(spec: str, env: dict[str, str]) -> str:
    from cass_cc.config import load
    from cass_cc.translate import chain_from_setting

    config = load(env=env) if "model" in spec else None
    return chain_from_setting(spec, config, env).identity()


def reject(reason: str, detail: str = "") -> dict[str, Any]:
    """A stage's refusal of a unit: the reason counted in the report, the tail of the detail kept."""
    return {"ok": False, "reason": reason, "detail": detail[-2000:]}


def unit_folder(ctx: Context) -> str:
    """A fresh folder for one unit's stage under the work folder (the stage removes it)."""
    base = Path(ctx.work) / "scratch"
    base.mkdir(parents=True, exist_ok=True)
    return tempfile.mkdtemp(prefix="unit.", dir=base)
