"""Running compilers and collected/synthesized programs: in a scratch folder, with a scrubbed
environment, under resource limits (CPU seconds, file size, processes, address space for
compilers), in a process group killed as a whole at the wall-clock limit."""
from __future__ import annotations

import os
import resource
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Mapping, Sequence

KEEP_VARS = ("CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "LD_LIBRARY_PATH")


@dataclass(frozen=True)
class Limits:
    wall: float = 120.0  # seconds
    cpu: int = 300  # seconds of CPU time per process
    file_mb: int = 512  # largest file a process may write
    processes: int = 512  # RLIMIT_NPROC (not enforced for root)
    memory_mb: int | None = 16384  # address space; None for CUDA programs (their reservations are huge)


@dataclass
class Outcome:
    code: int | None  # None: killed at the wall-clock limit
    stdout: str
    stderr: str
    seconds: float

    @property
    def ok(self) -> bool:
        return self.code == 0

    def tail(self, n: int = 1500) -> str:
        return (self.stdout + self.stderr)[-n:]


def scrubbed_env(scratch: str, extra_path: Sequence[str] = (), keep: Mapping[str, str] | None = None) -> dict[str, str]:
    """Only what a compiler or a program needs: PATH (tool folders first), HOME and TMPDIR in
    the scratch folder, a C locale, and the GPU selection variables."""
    base = os.environ if keep is None else keep
    path = [*extra_path, "/usr/local/bin", "/usr/bin", "/bin"]
    env = {"PATH": os.pathsep.join(dict.fromkeys(p for p in path if p)), "HOME": scratch, "TMPDIR": scratch,
           "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    env.update({k: base[k] for k in KEEP_VARS if k in base})
    return env


def _limiter(limits: Limits):  # type: ignore[no-untyped-def]
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu, limits.cpu + 5))
        size = limits.file_mb << 20
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        try:
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
        except (ValueError, OSError):
            pass
        if limits.memory_mb:
            mem = limits.memory_mb << 20
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    return apply


def run(argv: Sequence[str] | str, cwd: str, env: Mapping[str, str], limits: Limits = Limits(),
        shell: bool = False) -> Outcome:
    out_path, err_path = os.path.join(cwd, ".cass-data.out"), os.path.join(cwd, ".cass-data.err")
    start = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        try:
            proc = subprocess.Popen(argv, cwd=cwd, env=dict(env), stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                    shell=shell, start_new_session=True, preexec_fn=_limiter(limits))
        except OSError as e:
            return Outcome(127, "", f"{argv if isinstance(argv, str) else argv[0]}: {e.strerror or e}", 0.0)
        try:
            code: int | None = proc.wait(timeout=limits.wall)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
            proc.wait()
            code = None
    seconds = time.monotonic() - start
    texts = []
    for p in (out_path, err_path):
        try:
            with open(p, "rb") as f:
                texts.append(f.read(1 << 20).decode("utf-8", "replace"))
            os.unlink(p)
        except OSError:
            texts.append("")
    return Outcome(code, texts[0], texts[1], seconds)
