"""The differential runner: build a CUDA original with nvcc and its HIP translation with the
HIP-on-NVIDIA compiler, run both the same way, compare.

    result = verify(Case(name, original, translation, BuildSpec(...), RunSpec(...)))
    results = verify_many(cases, jobs=4)      # a process pool; same order as `cases`

`verify` is a pure function of its Case (and the machine): it writes only under its own
temporary folder (or `Case.work`), and returns a Result that says how far the translation got
(LEVELS) and, when both sides ran, whether they agreed (compare.py).

A side is a single source file (built with one compiler command) or a tree with its own build
command (run in a copy of the tree, or in place). The original is built with nvcc on PATH;
the translation with `PATH=<hipnv>/bin:$PATH` (its `hipcc` is the HIP-on-NVIDIA adapter) and
CASS_HIPNV_ARCH set, so `make`, `$(CC)`, `hipcc` in a ported Makefile all reach it.
"""
from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Sequence

from ..toolchain.found import Found
from .compare import Comparison, Run, Tolerance, compare

# How far a translation got, weakest first. "ran, inconclusive": a side timed out.
LEVELS = ("not built", "compiled for gfx1100", "compiled for NVIDIA", "ran, inconclusive", "ran and differed",
          "ran and agreed")
LOG_TAIL = 4000  # characters of a build log kept in a result
OUTPUT_LIMIT = 1 << 20  # characters of a run's output read back for comparing


@dataclass(frozen=True)
class BuildSpec:
    """How to build each side. Files: `<nvcc|hipnv> flags... FILE -o prog`. Trees: `command`
    (a shell command) in the tree; `ported_command` for the translation when it differs."""
    command: str | None = None
    ported_command: str | None = None
    flags: tuple[str, ...] = ("-O2",)  # single files: for both compilers
    arch: str = "sm_80"
    executable: str = "prog"  # single files: the output name
    in_place: bool = False  # trees: build where they are (they may refer to ../siblings)
    timeout: float = 900.0
    amd: bool = False  # also build the translation for gfx1100 (needs ROCm): files with clang, trees with
    # their own build command and ROCm's hipcc, in a copy (a tree that needs ../siblings fails there)
    env: tuple[tuple[str, str], ...] = ()  # extra variables for both builds and runs


@dataclass(frozen=True)
class RunSpec:
    """How to run each side: `command` (shell, in the tree) or the executable with `args`."""
    command: str | None = None
    args: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()  # files or folders copied into the working folder of each side
    stdin: str | None = None  # a file given as standard input
    timeout: float = 120.0
    memory_mb: int = 32768  # resident memory of the run's processes together
    rtol: float = 1e-5
    atol: float = 1e-8
    masks: tuple[str, ...] = ()  # regular expressions: output lines not compared (beside timing lines)
    run: bool | None = None  # None: when an NVIDIA GPU is present


@dataclass(frozen=True)
class Case:
    name: str
    original: str  # a .cu file or a CUDA tree
    translation: str  # a HIP file or a ported tree
    build: BuildSpec = BuildSpec()
    run: RunSpec = RunSpec()
    work: str | None = None  # keep the build folders here (else a temporary folder, removed)
    include_dirs: tuple[str, ...] = ()  # single files: -I for both sides (the original's folder is added)


@dataclass
class Side:
    built: bool = False
    build_seconds: float = 0.0
    build_log: str = ""
    run: Run | None = None

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"built": self.built, "build_seconds": round(self.build_seconds, 3)}
        if not self.built:
            d["build_log"] = self.build_log
        if self.run is not None:
            d.update(status=self.run.status, seconds=round(self.run.seconds, 3), verdict=self.run.verdict,
                     stdout=self.run.stdout[-LOG_TAIL:], stderr=self.run.stderr[-LOG_TAIL:])
        return d


@dataclass
class Result:
    name: str
    level: str
    outcome: str  # agree | differ | timeout | not-run | build-failed | original-failed | error
    reasons: list[str] = field(default_factory=list)
    diff: str = ""
    original: Side = field(default_factory=Side)
    translation: Side = field(default_factory=Side)
    amd: bool | None = None  # compiled for gfx1100 (None: not tried)
    seconds: float = 0.0

    @property
    def verdicts_agree(self) -> bool | None:
        if self.original.run is None or self.translation.run is None:
            return None
        return self.original.run.verdict == self.translation.run.verdict

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "level": self.level, "outcome": self.outcome, "reasons": self.reasons,
                "diff": self.diff, "verdicts_agree": self.verdicts_agree, "amd": self.amd,
                "seconds": round(self.seconds, 3), "original": self.original.to_json(),
                "translation": self.translation.to_json()}


# ---------------------------------------------------------------- processes

def _group_rss_mb(pgid: int) -> float:
    """Resident memory of every process in a process group, from /proc (Linux; 0 elsewhere)."""
    total = 0
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:  # fields[2] is the process group (5th field of stat)
                total += int(fields[21]) * page  # rss in pages (24th field)
        except (OSError, IndexError, ValueError):
            continue
    return total / (1 << 20)


def run_limited(command: Sequence[str] | str, cwd: str, env: Mapping[str, str], timeout: float,
                memory_mb: int | None = None, stdin: str | None = None, shell: bool = False) -> Run:
    """Run a command in its own process group under a time limit and a resident-memory limit;
    outputs go to files (no pipe can fill up), and are read back afterwards."""
    out_path = os.path.join(cwd, ".cass-verify.out")
    err_path = os.path.join(cwd, ".cass-verify.err")
    start = time.monotonic()
    timed_out = out_of_memory = False
    with open(out_path, "wb") as out, open(err_path, "wb") as err, \
            open(stdin if stdin else os.devnull, "rb") as inp:
        proc = subprocess.Popen(command, cwd=cwd, env=dict(env), stdout=out, stderr=err, stdin=inp, shell=shell,
                                start_new_session=True)
        deadline = start + timeout
        interval = 0.05
        while True:
            try:
                proc.wait(timeout=min(interval, max(deadline - time.monotonic(), 0.001)))
                break
            except subprocess.TimeoutExpired:
                pass
            interval = min(interval * 2, 0.5)
            now = time.monotonic()
            if now >= deadline:
                timed_out = True
            elif memory_mb and now - start > 0.3 and _group_rss_mb(proc.pid) > memory_mb:  # /proc scans cost:
                # none in the first 0.3 s, then at most two a second
                out_of_memory = True
            if timed_out or out_of_memory:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:
                    pass
                proc.wait()
                break
    seconds = time.monotonic() - start
    stdout = _read(out_path)
    stderr = _read(err_path)
    for p in (out_path, err_path):
        try:
            os.unlink(p)
        except OSError:
            pass
    code = None if timed_out or out_of_memory else proc.returncode
    return Run(code, stdout, stderr, timed_out, out_of_memory, seconds)


def _read(path: str) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read(OUTPUT_LIMIT)
    except OSError:
        return ""
    return data.decode("utf-8", "replace")


# ---------------------------------------------------------------- building

def _copy_inputs(inputs: Iterable[str], dest: str) -> None:
    for item in inputs:
        target = os.path.join(dest, os.path.basename(item.rstrip("/")))
        if os.path.isdir(item):
            shutil.copytree(item, target, symlinks=True, dirs_exist_ok=True)
        else:
            shutil.copy2(item, target)


@dataclass(frozen=True)
class Tools:
    """What a case's builds need: the toolchain (cass_cc/toolchain/found.py: nvcc, and HIP's clang,
    hipcc and device libraries for the gfx1100 check), the HIP-on-NVIDIA folder, and whether a GPU
    is here."""
    found: Found
    hipnv_folder: str
    gpu: bool

    @property
    def nvcc(self) -> str:
        return self.found.nvcc


def side_env(base: Mapping[str, str], tools: Tools, translation: bool, spec: BuildSpec) -> dict[str, str]:
    env = dict(base)
    env.update(spec.env)
    nvcc_dir = os.path.dirname(tools.nvcc)
    path = env.get("PATH", "")
    if translation:
        env["PATH"] = os.pathsep.join([os.path.join(tools.hipnv_folder, "bin"), nvcc_dir, path])
        env["CASS_HIPNV_ARCH"] = spec.arch
        env["CASS_HIPNV_FOLDER"] = tools.hipnv_folder
        env["HIP_PLATFORM"] = "nvidia"
    else:
        env["PATH"] = os.pathsep.join([nvcc_dir, path])
    return env


def build_file(source: str, out_dir: str, tools: Tools, spec: BuildSpec, translation: bool,
               include_dirs: Sequence[str], env: Mapping[str, str]) -> tuple[Side, str]:
    exe = os.path.join(out_dir, spec.executable)
    includes = [f"-I{d}" for d in include_dirs]
    if translation:
        from .. import hipnv

        plan = hipnv.plan_commands([*spec.flags, *includes, source, "-o", exe], tools.nvcc, Path(tools.hipnv_folder),
                                   spec.arch, out_dir)
        commands = [list(step) for step in plan.steps]
    else:
        commands = [[tools.nvcc, f"-arch={spec.arch}", "-Wno-deprecated-gpu-targets", *spec.flags, *includes,
                     source, "-o", exe]]
    side = Side()
    start = time.monotonic()
    logs: list[str] = []
    for command in commands:
        r = run_limited(command, out_dir, env, spec.timeout)
        logs.append(r.stdout + r.stderr)
        if r.exit_code != 0:
            side.build_log = (shlex.join(command) + "\n" + "".join(logs) + (f"\n[{r.status}]" if r.exit_code is None else ""))[-LOG_TAIL:]
            side.build_seconds = time.monotonic() - start
            return side, exe
    side.built = os.path.isfile(exe)
    side.build_seconds = time.monotonic() - start
    if not side.built:
        side.build_log = f"no executable {exe} after the build"
    return side, exe


def build_tree(tree: str, out_dir: str, command: str, spec: BuildSpec, env: Mapping[str, str]) -> tuple[Side, str]:
    if spec.in_place:
        where = tree
    else:
        where = os.path.join(out_dir, "tree")
        shutil.copytree(tree, where, symlinks=True)
    start = time.monotonic()
    r = run_limited(command, where, env, spec.timeout, shell=True)
    side = Side(built=r.exit_code == 0, build_seconds=time.monotonic() - start)
    if not side.built:
        side.build_log = (f"{command}\n{r.stdout}{r.stderr}" + (f"\n[{r.status}]" if r.exit_code is None else ""))[-LOG_TAIL:]
    return side, where


def amd_check(source: str, tools: Tools, include_dirs: Sequence[str], out_dir: str, env: Mapping[str, str]) -> bool:
    """Does the translation compile for gfx1100 (clang -x hip, device libraries from `cass-cc setup`)?"""
    if not (tools.found.clang and tools.found.device_libs):
        return False  # no ROCm here: not compiled for gfx1100 (the result says so)
    command = tools.found.hip_clang().command(source, os.path.join(out_dir, "amd.o"), flags=["-std=c++17", "-O2", *(f"-I{d}" for d in include_dirs)])
    return run_limited(command, out_dir, env, 600).exit_code == 0


def amd_tree_check(tree: str, command: str, tools: Tools, out_dir: str, env: Mapping[str, str], timeout: float) -> bool:
    """Does a ported tree build for gfx1100 with its own build command and ROCm's hipcc (in a copy)?"""
    if not (tools.found.hipcc and tools.found.device_libs):
        return False
    where = os.path.join(out_dir, "amd-tree")
    shutil.copytree(tree, where, symlinks=True)
    aenv = dict(env)
    aenv.update(PATH=os.pathsep.join([os.path.dirname(tools.found.hipcc), env.get("PATH", "")]), HIP_PLATFORM="amd",
                DEVICE_LIB_PATH=tools.found.device_libs)
    return run_limited(command, where, aenv, timeout, shell=True).exit_code == 0


# ---------------------------------------------------------------- one case

def find_tools(env: Mapping[str, str], want_clang: bool = False, gpu: bool | None = None) -> Tools:
    """nvcc, the HIP-on-NVIDIA folder, whether a GPU is here (and clang, hipcc for the gfx1100 check)."""
    from ..config import load
    from .. import hipnv
    from ..toolchain import ToolchainError
    from .gpu import nvidia_gpu

    cache = load().cache_path(env)
    found = Found.find(env, ("nvcc", "clang", "hipcc") if want_clang else ("nvcc",), amd=want_clang)
    if not found.nvcc:
        raise ToolchainError(found.why_no_nvcc or "nvcc not found")
    if gpu is None:
        gpu = nvidia_gpu(found.nvcc, cache, env).present
    return Tools(found, str(hipnv.build(cache)), gpu)


def verify(case: Case, tools: Tools | None = None, env: Mapping[str, str] | None = None) -> Result:
    """Build both sides, run both when a GPU is here, compare. Never raises for a program's failure."""
    start = time.monotonic()
    env = dict(os.environ if env is None else env)
    if tools is None:
        tools = find_tools(env, case.build.amd)
    work = case.work or tempfile.mkdtemp(prefix=f"cass-verify.{_safe(case.name)}.")
    try:
        result = _verify(case, tools, env, work)
    except OSError as e:
        result = Result(case.name, LEVELS[0], "error", [f"{e}"])
    finally:
        if case.work is None:
            shutil.rmtree(work, ignore_errors=True)
    result.seconds = time.monotonic() - start
    return result


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60] or "case"


def _verify(case: Case, tools: Tools, env: dict[str, str], work: str) -> Result:
    spec, runs = case.build, case.run
    sides: dict[str, tuple[Side, str]] = {}
    amd: bool | None = None
    for name, source in (("original", case.original), ("translation", case.translation)):
        translation = name == "translation"
        out_dir = os.path.join(work, name)
        os.makedirs(out_dir, exist_ok=True)
        benv = side_env(env, tools, translation, spec)
        if os.path.isdir(source):
            command = (spec.ported_command or spec.command) if translation else spec.command
            if not command:
                raise OSError(f"{source} is a folder: give a build command")
            if translation and spec.amd:
                amd = amd_tree_check(source, command, tools, out_dir, env, spec.timeout)
            sides[name] = build_tree(source, out_dir, command, spec, benv)
        else:
            includes = [*case.include_dirs, os.path.dirname(os.path.abspath(case.original))]
            sides[name] = build_file(os.path.abspath(source), out_dir, tools, spec, translation, includes, benv)
            if translation and spec.amd:
                amd = amd_check(os.path.abspath(source), tools, includes, out_dir, env)
    original, translation = sides["original"][0], sides["translation"][0]
    result = Result(case.name, LEVELS[0], "build-failed", original=original, translation=translation, amd=amd)
    if amd:
        result.level = "compiled for gfx1100"
    if not translation.built:
        result.reasons.append("the translation did not build for NVIDIA")
        return result
    result.level = "compiled for NVIDIA"
    if not original.built:
        result.outcome = "original-failed"
        result.reasons.append("the CUDA original did not build")
        return result
    if not (tools.gpu if runs.run is None else runs.run):
        result.outcome = "not-run"
        result.reasons.append("compiled, not run: no NVIDIA GPU here")
        return result
    for name in ("original", "translation"):
        side, where = sides[name]
        renv = side_env(env, tools, name == "translation", spec)
        if os.path.isdir(where):  # a tree: run in it
            cwd = where
            command: Sequence[str] | str = runs.command or shlex.join(runs.args)
        else:  # an executable: run in a fresh folder holding the inputs
            cwd = os.path.join(work, name, "run")
            os.makedirs(cwd, exist_ok=True)
            command = runs.command if runs.command else [where, *runs.args]
        _copy_inputs(runs.inputs, cwd)
        side.run = run_limited(command, cwd, renv, runs.timeout, runs.memory_mb, runs.stdin,
                               shell=isinstance(command, str))
    assert original.run is not None and translation.run is not None
    comparison: Comparison = compare(original.run, translation.run, Tolerance(runs.rtol, runs.atol, runs.masks))
    result.outcome, result.diff = comparison.outcome, comparison.diff
    result.reasons += comparison.reasons
    result.level = {"agree": "ran and agreed", "differ": "ran and differed"}.get(comparison.outcome, "ran, inconclusive")
    return result


# ---------------------------------------------------------------- batches

def _verify_star(args: tuple[Case, Tools, dict[str, str]]) -> Result:
    return verify(*args)


def verify_many(cases: Sequence[Case], jobs: int = 1, tools: Tools | None = None,
                env: Mapping[str, str] | None = None) -> Iterator[Result]:
    """Results in the order of `cases`, `jobs` cases at a time (a process pool)."""
    env = dict(os.environ if env is None else env)
    if tools is None:
        tools = find_tools(env, any(c.build.amd for c in cases))
    if jobs <= 1 or len(cases) <= 1:
        for case in cases:
            yield verify(case, tools, env)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_verify_star, [(c, tools, env) for c in cases])

