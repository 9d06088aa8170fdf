"""Relocatable device code: device linking with clang's HIP toolchain (see README.md)."""
from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from ..toolchain.tool import ToolTimeout, run_tool
from ..util import atomic_path
from .errors import DriverError, ToolFailed
from .view import BuildView


def archives_as_libraries(objects: list[str], folder: Path) -> list[str]:
    """`objects` with each static archive named by `-l` instead, through a link in `folder`.

    clang 15 device-links the bundled device code of a static archive (a "static device
    library") only when `-l` names it; an archive given by path is left to the host
    linker, and its kernels go missing from the code object. Order is kept: archives
    still follow the objects that use them. The device link takes every member
    (`-Xoffload-linker --whole-archive`): a kernel used only from host code has no
    device symbol that would pull its member in.
    """
    out: list[str] = []
    for path in objects:
        if not (path.endswith(".a") and os.path.isfile(path)):
            out.append(path)
            continue
        alias = f"cass-archive-{len(os.listdir(folder)) if folder.is_dir() else 0}"
        folder.mkdir(parents=True, exist_ok=True)
        os.symlink(os.path.abspath(path), folder / f"lib{alias}.a")
        if f"-L{folder}" not in out:
            out[:0] = [f"-L{folder}", "-Xoffload-linker", "--whole-archive"]
        out.append(f"-l{alias}")
    return out


def device_link(build: BuildView, objects: list[str], out: str) -> None:
    """-dlink: device-link relocatable device code into one host object.

    clang has no separate device-link step, so we ask its HIP link for its plan
    (`-###`), run every step but the final host link, and keep the object that
    registers the linked code objects. The host linker then links the -dc objects
    with this one, as after nvcc -dlink.
    """
    for obj in objects:  # clang's plan for a missing object is an error, not a plan to name
        try:
            open(obj, "rb").close()
        except OSError as e:
            raise DriverError(f"{obj}: cannot read: {e.strerror}") from None
    rocm = build.tc.rocm
    clang = build.tc.clang.path
    plan_cmd = [sibling_cxx(clang), "--hip-link", "-fgpu-rdc", f"--rocm-path={rocm.root}",
                f"--rocm-device-lib-path={build.tc.device_lib_dir(build.archs)}",
                *[f"--offload-arch={a}" for a in build.archs],
                *archives_as_libraries(objects, build.scratch / "archives"), "-o", "a.out", "-###"]
    try:
        proc = run_tool(plan_cmd, timeout=build.config.tool_timeout, text=True, errors="replace")
    except ToolTimeout as e:
        raise DriverError(f"{', '.join(objects)}: {e}") from None
    except OSError as e:
        raise DriverError(f"cannot run {plan_cmd[0]}: {e.strerror}") from None
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise ToolFailed(proc.returncode)
    steps = [shlex.split(line) for line in proc.stderr.splitlines() if line.startswith(' "')]
    if len(steps) < 2:
        raise DriverError(f"unexpected device-link plan from {clang}: {proc.stderr.strip()[:200]}")
    # The last two steps are llvm-mc assembling a registration object around the
    # bundle (its source is made inside clang, so we write it) and the host link.
    bundle_step, mc_step = steps[-3], steps[-2]
    try:
        bundle = next(a.split("=", 1)[1] for a in bundle_step if a.startswith("-output="))
        wrapper = mc_step[mc_step.index("-o") + 1]
        mc_input = next(a for a in mc_step[1:] if a.endswith(".mcin"))
    except (StopIteration, ValueError, IndexError):
        raise DriverError(f"unexpected device-link plan from {clang}: {proc.stderr.strip()[:300]}") from None
    tmp_prefix = tempfile.gettempdir() + os.sep
    temps = {a.split("=", 1)[-1] for step in steps[:-1] for a in step if a.split("=", 1)[-1].startswith(tmp_prefix)}
    temps.add(mc_input)
    for t in temps:  # clang's plan names temporary files in folders it has not made
        os.makedirs(os.path.dirname(t), exist_ok=True)
    try:
        for step in steps[:-2]:
            build.execute(step)
        if not build.dry:
            Path(mc_input).write_text(fatbin_wrapper_asm(bundle))
        build.execute(mc_step)
        if not build.dry:
            with atomic_path(out) as tmp:
                shutil.copyfile(wrapper, tmp)
    finally:
        for t in temps:
            if os.path.isfile(t):
                os.unlink(t)
            parent = os.path.dirname(t)
            if parent != tmp_prefix.rstrip(os.sep) and os.path.isdir(parent) and not os.listdir(parent):
                os.rmdir(parent)


def fatbin_wrapper_asm(bundle: str) -> str:
    """Host assembly that embeds an offload bundle as `__hip_fatbin` in `.hip_fatbin`,
    the symbol the HIP runtime's registration code of -fgpu-rdc objects refers to."""
    return (
        "  .protected __hip_fatbin\n"
        "  .type __hip_fatbin,@object\n"
        '  .section .hip_fatbin,"a",@progbits\n'
        "  .globl __hip_fatbin\n"
        "  .p2align 12\n"
        "__hip_fatbin:\n"
        f'  .incbin "{bundle}"\n'
        '  .section .note.GNU-stack,"",@progbits\n'
    )


def has_relocatable_device_code(path: str) -> bool:
    """True for objects from `clang -fgpu-rdc -c`: a clang offload bundle of device bitcode."""
    try:
        with open(path, "rb") as f:
            return b"__CLANG_OFFLOAD_BUNDLE__hip" in f.read()
    except OSError:
        return False


def sibling_cxx(clang: str) -> str:
    d, base = os.path.split(clang)
    candidate = os.path.join(d, base.replace("clang", "clang++", 1))
    return candidate if os.path.isfile(candidate) else clang
