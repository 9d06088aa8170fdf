"""`cass-cc hipcc ARGS` and the folder's bin/hipcc: run the nvcc plan for a hipcc command line.

The GPU target is `CASS_HIPNV_ARCH` (sm_XX; default sm_80); `CASS_HIPNV_VERBOSE=1` prints each
nvcc command.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..toolchain.tool import COMPILE, ToolTimeout, run_tool
from .flags import DEFAULT_ARCH, HipnvError, Plan, plan_commands
from .folder import build


def arch_from_env(env: Mapping[str, str]) -> str:
    arch = env.get("CASS_HIPNV_ARCH", DEFAULT_ARCH).strip()
    if re.fullmatch(r"\d+[a-z]?", arch):
        arch = "sm_" + arch
    if not re.fullmatch(r"sm_\d+[a-z]?|native|all|all-major", arch):
        raise HipnvError(f"CASS_HIPNV_ARCH={arch}: expected sm_XX (e.g. sm_90) or native")
    return arch


def _run_nvcc(command: list[str], env: Mapping[str, str]) -> subprocess.CompletedProcess:
    """One nvcc step, bounded like every tool (tool.run_tool); its stdout is the user's."""
    try:
        return run_tool(command, budget=COMPILE, env=env, stdout=None)
    except ToolTimeout as e:
        files = [a for a in command[1:] if not a.startswith("-") and os.path.isfile(a)]
        raise HipnvError(f"{', '.join(files) or command[0]}: {e}") from None


def run_plan(plan: Plan, env: Mapping[str, str]) -> int:
    """Run the steps; a compile that nvcc says needs --extended-lambda (a __device__ lambda behind
    a macro, which uses_device_lambdas cannot see) runs again with it. nvcc's stderr is passed on."""
    try:
        extended = False
        for step in plan.steps:
            command = list(step) + (["--extended-lambda"] if extended and "--extended-lambda" not in step else [])
            proc = _run_nvcc(command, env)
            if proc.returncode != 0 and b"--extended-lambda" in proc.stderr and "--extended-lambda" not in command:
                extended = True
                command.append("--extended-lambda")
                proc = _run_nvcc(command, env)
            sys.stderr.buffer.write(proc.stderr)
            sys.stderr.flush()
            if proc.returncode != 0:
                return proc.returncode
        return 0
    finally:
        for obj in plan.temporaries:
            try:
                os.unlink(obj)
            except OSError:
                pass


def main(argv: Sequence[str], env: Mapping[str, str] | None = None) -> int:
    """`cass-cc hipcc ARGS`: build HIP with nvcc. Errors: one line on stderr, exit 1."""
    from ..config import ConfigError, load
    from ..toolchain import Toolchain, ToolchainError

    env = dict(os.environ if env is None else env)
    try:
        config = load()
        cache = config.cache_path(env)
        nvcc = Toolchain(env, config.rocm_path, cache).nvcc.path
        given = env.get("CASS_HIPNV_FOLDER")  # set by bin/hipcc: the folder it lives in
        folder = Path(given) if given else build(cache)
        with tempfile.TemporaryDirectory(prefix="cass-hipnv.") as tmp:
            plan = plan_commands(argv, nvcc, folder, arch_from_env(env), tmp)
            if env.get("CASS_HIPNV_VERBOSE"):
                for step in plan.steps:
                    sys.stderr.write("cass-cc hipcc: " + " ".join(step) + "\n")
            return run_plan(plan, env)
    except (HipnvError, ConfigError, ToolchainError, OSError) as e:
        sys.stderr.write(f"cass-cc: error: {e}\n")
        return 1
